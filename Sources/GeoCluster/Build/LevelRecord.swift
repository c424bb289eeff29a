import GeoCore

/// One record of a cluster level: supercluster's stride-6 record without the zoom and parent slots,
/// which the build keeps elsewhere. 16 bytes.
///
/// A cluster's double center, which supercluster also keeps in the record, is in the cluster table
/// (see ``RecordCenters``).
struct LevelRecord: Sendable, Equatable {
    /// The float32 coordinates the level's search tree stores (a point's projection exactly).
    var fx: Float
    var fy: Float
    /// The entity: an input index, or `inputCount` plus a cluster's table index.
    var ref: UInt32
    /// Points in the record.
    var count: UInt32
}

/// The double coordinates supercluster keeps in a record: a point's float32 projection, a
/// cluster's centroid from the cluster table.
///
/// A read-only view, valid while the table is not appended to; the sweep's workers share it.
struct RecordCenters: Sendable {
    let inputCount: Int
    let x: SharedView<Double>
    let y: SharedView<Double>

    /// The double center of a record.
    @inline(__always)
    func of(_ record: LevelRecord) -> (x: Double, y: Double) {
        let c = Int(record.ref) &- inputCount
        // Through the buffers themselves: the views' generic accessors are not specialized
        // across modules.
        return c < 0 ? (Double(record.fx), Double(record.fy)) : (x.buffer[c], y.buffer[c])
    }
}

extension ClusterHierarchy {
    /// Calls `body` with the double centers of the records: the cluster table as it is now.
    func withCenters<R>(_ body: (RecordCenters) -> R) -> R {
        clusterX.withUnsafeBufferPointer { x in
            clusterY.withUnsafeBufferPointer { y in
                body(RecordCenters(inputCount: inputCount, x: SharedView(x), y: SharedView(y)))
            }
        }
    }
}

extension Array {
    /// Sets the count to `n`, keeping the buffer when it is large enough; new elements are `filler`.
    mutating func resize(to n: Int, filling filler: Element) {
        if count > n {
            removeLast(count - n)
        } else if count < n {
            reserveHugeCapacity(n)
            append(contentsOf: repeatElement(filler, count: n - count))
        }
    }
}
