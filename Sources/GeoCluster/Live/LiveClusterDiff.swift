import GeoCore

/// What changed in a view between two snapshots of one ``LiveClusterIndex``: enough for a map to
/// animate (a new cluster grows out of the feature its first element was in, a vanished one flies
/// into the feature that now holds its first element) instead of redrawing.
///
/// Features are matched by identity: a cluster by its ``Cluster/id``, a point by its
/// ``ClusterPoint/index`` (its serial).
public struct LiveClusterDiff<Key: Hashable & Sendable>: Sendable {
    /// A feature in the new view that was not in the old one.
    public struct Appearance: Sendable {
        /// The new feature.
        public var feature: ClusterFeature<Key>
        /// The old snapshot's feature (at the same zoom, maybe outside the view) that held the new
        /// feature's first element: the cluster it split from, or the points it merged;
        /// `nil` for an element that is new.
        public var source: ClusterFeature<Key>?
    }

    /// A feature in the old view that is not in the new one.
    public struct Disappearance: Sendable {
        /// The old feature.
        public var feature: ClusterFeature<Key>
        /// The new snapshot's feature that holds the old one's first element: the cluster it
        /// merged into, or the one it became; `nil` when that element was removed.
        public var destination: ClusterFeature<Key>?
    }

    /// A feature in both views whose place, count or aggregate changed.
    public struct Change: Sendable {
        /// The feature in the old snapshot.
        public var old: ClusterFeature<Key>
        /// The feature in the new snapshot.
        public var new: ClusterFeature<Key>
    }

    /// Features that came into the view, in level order.
    public var appeared: [Appearance] = []
    /// Features that left it, in level order.
    public var disappeared: [Disappearance] = []
    /// Features that stayed but moved or changed count or aggregate, in level order.
    public var changed: [Change] = []

    /// Whether the view is the same in both snapshots.
    public var isEmpty: Bool { appeared.isEmpty && disappeared.isEmpty && changed.isEmpty }
}

extension LiveClusterSnapshot {
    /// What changed inside a box at a zoom from one snapshot of an index to a later one (both
    /// must come from the same ``LiveClusterIndex``).
    ///
    /// The two views are read as records in level order and merged, so only the features that
    /// changed are made.
    ///
    /// - Complexity: O(k log n) for the k features in the box in either snapshot.
    public static func diff(
        from old: LiveClusterSnapshot, to new: LiveClusterSnapshot, in box: BoundingBox,
        zoom: Double
    ) -> LiveClusterDiff<Key> {
        var diff = LiveClusterDiff<Key>()
        guard old.version != new.version || old.count != new.count,
            let level = new.level(atZoom: zoom)
        else { return diff }
        func view(_ s: LiveClusterSnapshot) -> [(p: Int, s: Int32, r: LiveRecord)] {
            var result = [(p: Int, s: Int32, r: LiveRecord)]()
            s.forEachFeature(
                west: box.west, south: box.south, east: box.east, north: box.north, zoom: zoom
            ) { result.append(($0, $1, $2)) }
            // One order for both views: by serial (partitions hold disjoint serials).
            result.sort { $0.s < $1.s }
            return result
        }
        let before = view(old), after = view(new)
        func appeared(_ a: (p: Int, s: Int32, r: LiveRecord)) {
            guard let f = new.feature(a.p, a.s, a.r) else { return }
            diff.appeared.append(
                .init(feature: f, source: old.feature(containing: a.s, level: level)))
        }
        func disappeared(_ b: (p: Int, s: Int32, r: LiveRecord)) {
            guard let f = old.feature(b.p, b.s, b.r) else { return }
            diff.disappeared.append(
                .init(feature: f, destination: new.feature(containing: b.s, level: level)))
        }
        var i = 0, j = 0
        while i < before.count || j < after.count {
            if j == after.count || (i < before.count && before[i].s < after[j].s) {
                disappeared(before[i])
                i += 1
            } else if i == before.count || after[j].s < before[i].s {
                appeared(after[j])
                j += 1
            } else {
                let b = before[i], a = after[j]
                i += 1
                j += 1
                if b.r.id != a.r.id {
                    // The same first element, another cluster (or the point itself).
                    disappeared(b)
                    appeared(a)
                } else if b.r != a.r
                    || (a.r.id & 31 == 0
                        && old.core.details[Int(b.s)].coordinate
                            != new.core.details[Int(a.s)].coordinate)
                {
                    if let o = old.feature(b.p, b.s, b.r), let n = new.feature(a.p, a.s, a.r) {
                        diff.changed.append(.init(old: o, new: n))
                    }
                }
            }
        }
        return diff
    }
}
