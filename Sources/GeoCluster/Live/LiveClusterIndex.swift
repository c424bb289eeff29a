import GeoCore

/// One change to a ``LiveClusterIndex``.
public enum LiveClusterChange<Key: Hashable & Sendable>: Hashable, Sendable {
    /// Adds an element under a new key, at a coordinate, with a clustering identifier (elements
    /// cluster only with elements of the same identifier; `nil` is an identifier like any other)
    /// and a value for the index's aggregation.
    case insert(Key, Coordinate, clusteringIdentifier: String? = nil, value: JSONValue = .null)
    /// Removes the element with a key.
    case remove(Key)
    /// Moves the element with a key to a coordinate; it keeps its place in the order.
    case move(Key, Coordinate)

    /// The key the change is about.
    public var key: Key {
        switch self {
        case .insert(let key, _, _, _), .remove(let key), .move(let key, _): key
        }
    }
}

/// Map-marker clustering that follows changes: insert, remove and move elements by key without
/// rebuilding, and read consistent snapshots while the index changes.
///
/// ```swift
/// var fleet = try LiveClusterIndex<String>()
/// try fleet.insert("bus-12", at: Coordinate(latitude: 47.37, longitude: 8.54))
/// try fleet.insert("tram-3", at: Coordinate(latitude: 47.40, longitude: 8.51))
/// try fleet.apply([.move("bus-12", Coordinate(latitude: 47.38, longitude: 8.54)), .remove("tram-3")])
/// let before = fleet.snapshot
/// try fleet.move("bus-12", to: Coordinate(latitude: 47.39, longitude: 8.55))
/// let view = BoundingBox(west: 8.4, south: 47.3, east: 8.7, north: 47.5)
/// let diff = LiveClusterSnapshot.diff(from: before, to: fleet.snapshot, in: view, zoom: 12)
/// ```
///
/// **The contract.** After any sequence of changes, every zoom's clusters (their members, counts,
/// centers to the last bit, aggregates and clustering identifiers) are those of a ``ClusterIndex``
/// built from the current elements in their current order (insertion order; a moved element keeps
/// its place, a removed one is dropped) with the same options and
/// ``ClusterMemberOrder/insertion`` member order, and with a clustering identifier accessor
/// giving each element's identifier (here `nil` elements cluster with each other, as in an index
/// without identifiers). Insertion order rather than supercluster's tree order is what makes this
/// possible: supercluster sums a cluster's center in the order its k-d tree over the whole level
/// visits the members, and that order changes with every point added anywhere; the two orders give
/// centers that differ by a few units in the last place, never different clusters.
///
/// **Ids.** A cluster's ``Cluster/id`` is `serial << 5 + zoom + 1`, where `serial` is its first
/// element's insertion number (its ``ClusterPoint/index``) and `zoom` the zoom it was formed at.
/// It depends only on what the cluster is, so a cluster whose first element and zoom stay keeps its
/// id across changes (supercluster's id is its position in the level, which changes with every
/// insert). A point's ``ClusterPoint/index`` is its serial, which a move keeps.
///
/// **Snapshots.** The index is a value: ``snapshot`` (or any copy) is O(1) to take, never changes,
/// and can be read from any number of threads while one writer goes on changing the index. The
/// first change after a snapshot copies only the pages it touches.
///
/// Options: ``ClusterOptions/minPoints`` must be at most 2 (above 2, supercluster lets a record
/// claim its neighbors without clustering, which makes a level's order depend on the tree), and
/// ``ClusterOptions/nodeSize`` and ``ClusterOptions/memberOrder`` are not used.
///
/// - Complexity: a change costs O(log n) per zoom for the records it touches, plus the members of
///   each cluster it changes and, when a record starts or stops being a cluster's first record,
///   the records within its radius; a pile of m elements at one place costs O(m) per change to it.
public struct LiveClusterIndex<Key: Hashable & Sendable>: Sendable {
    var core: LiveCore
    /// The key of each element by serial (`nil` once removed).
    var keys = ChunkedArray<Key?>()
    /// The serial of each element's key.
    private var serials: [Key: Int32] = [:]
    /// The passes' working memory (the writer's alone: snapshots do not share it).
    private var scratch = LiveScratch()
    /// A batch of more than 256 changes and more than `count / rebuildFraction` rebuilds the
    /// index (keeping every serial and so every id) instead of carrying each change down the
    /// zooms: the same result, and cheaper for a large share of the index (a twentieth: on a
    /// million points, a batch of 5.8 % short moves took 3.2 s carried down and 2.0–2.5 s
    /// rebuilt, 3 % took 1.9 s carried down). `Int.max` never rebuilds (for tests).
    package var rebuildFraction = 20
    /// A batch that changes at least this many elements (after folding the changes to one key
    /// into one, and leaving out moves within one float32 position) hands the memory left free
    /// when it ends back to the system (the pages of snapshots let go, which the writer had
    /// copied, and the batch's own working memory); smaller ones do not, unless they are rebuilt,
    /// so that a single change never pays for it.
    static var trimmingBatch: Int { 1024 }

    /// How many batches' change logs the index keeps for diffs, and how many changed records
    /// they hold at most (32 and 2,000,000; the tests make them small).
    package var logLimits: (batches: Int, records: Int) {
        get { (core.logLimit, core.logBudget) }
        set {
            (core.logLimit, core.logBudget) = (max(0, newValue.batches), max(0, newValue.records))
        }
    }

    /// Creates an empty index.
    ///
    /// - Parameters:
    ///   - options: Radius, extent and zoom range, as for a ``ClusterIndex``.
    ///   - reduce: How a cluster's ``Cluster/aggregate`` is folded: it starts as its first
    ///     element's value (or sub-cluster's aggregate) and takes `reduce` of each other member in
    ///     insertion order, as ``ClusterIndex`` does with `ClusterAggregation(map:reduce:)`. Omit it
    ///     for no aggregates.
    /// - Throws: `GeoError.Kind.invalidArgument` for invalid options or a `minPoints` above 2.
    public init(
        options: ClusterOptions = .default,
        reduce: (@Sendable (inout JSONValue, JSONValue) -> Void)? = nil
    ) throws(GeoError) {
        var options = try options.validated()
        guard options.minPoints <= 2 else {
            throw GeoError(
                .invalidArgument,
                "minPoints \(options.minPoints) is above the 2 a live index supports")
        }
        options.memberOrder = .insertion
        core = LiveCore(options: options, reduce: reduce)
    }

    /// The options, with ``ClusterMemberOrder/insertion`` member order.
    public var options: ClusterOptions { core.options }

    /// The number of elements.
    public var count: Int { core.count }

    /// Whether an element has a key.
    public func contains(_ key: Key) -> Bool { serials[key] != nil }

    /// The coordinate of the element with a key, or `nil` for an unknown key.
    public func coordinate(of key: Key) -> Coordinate? {
        serials[key].map { core.details[Int($0)].coordinate }
    }

    /// The index as it is now: an immutable view for queries, O(1) to take.
    public var snapshot: LiveClusterSnapshot<Key> { LiveClusterSnapshot(core: core, keys: keys) }

    /// Adds an element.
    ///
    /// - Throws: `GeoError.Kind.invalidArgument` for a key already in the index,
    ///   `GeoError.Kind.invalidCoordinate` for a coordinate that is not finite or is off the globe
    ///   (latitude beyond ±90°, longitude beyond ±180°); the index is unchanged.
    public mutating func insert(
        _ key: Key, at coordinate: Coordinate, clusteringIdentifier: String? = nil,
        value: JSONValue = .null
    ) throws(GeoError) {
        try apply([
            .insert(key, coordinate, clusteringIdentifier: clusteringIdentifier, value: value)
        ])
    }

    /// Removes the element with a key.
    ///
    /// - Throws: `GeoError.Kind.notFound` for an unknown key; the index is unchanged.
    public mutating func remove(_ key: Key) throws(GeoError) {
        try apply([.remove(key)])
    }

    /// Moves the element with a key.
    ///
    /// - Throws: `GeoError.Kind.notFound` for an unknown key, `GeoError.Kind.invalidCoordinate` for
    ///   a coordinate off the globe; the index is unchanged.
    public mutating func move(_ key: Key, to coordinate: Coordinate) throws(GeoError) {
        try apply([.move(key, coordinate)])
    }

    /// What a key holds while a batch is checked.
    private enum Pending {
        case present(serial: Int32?, coordinate: Coordinate, identifier: String?, value: JSONValue)
        case absent
    }

    /// Applies a batch of changes at once, in order (for example one tick of a fleet): cheaper than
    /// one call per change, and all or nothing.
    ///
    /// A batch that changes 1,024 elements or more, or that is rebuilt, also hands the memory left
    /// free when it ends back to the system (on Linux with glibc: `malloc_trim`, a few
    /// milliseconds, during which threads that allocate may wait for it), so that the pages of
    /// snapshots let go before it, which its own copies did not take again, do not stay with the
    /// process.
    ///
    /// - Throws: For the first bad change, naming its position and key:
    ///   `GeoError.Kind.invalidArgument` for inserting a key that is there, `GeoError.Kind.notFound`
    ///   for removing or moving one that is not, `GeoError.Kind.invalidCoordinate` for a coordinate
    ///   off the globe, `GeoError.Kind.limitExceeded` past 2³¹ − 1 insertions; the index is then
    ///   unchanged.
    public mutating func apply(_ changes: [LiveClusterChange<Key>]) throws(GeoError) {
        try apply(changes, leavingOutBadChanges: false)
    }

    /// Applies the good changes of a batch as one batch, exactly as if the bad ones were not in
    /// it, and returns the bad ones: a stream whose lines can be wrong (`meridian cluster --live`)
    /// gets the same index, serials and cluster ids as the stream without its bad lines.
    ///
    /// A change is bad when ``apply(_:)`` would throw for it after the good changes before it:
    /// inserting a key that is there, removing or moving one that is not, a coordinate off the
    /// globe. A change after a bad one sees the index as if the bad one were not there (a move of
    /// a new key whose insert was bad, off the globe say, is bad too).
    ///
    /// - Returns: The bad changes' positions in `changes` (from 0, ascending) and errors, which
    ///   name the change by its position from 1 (`change 3: key "bus-7": ...`), as ``apply(_:)``
    ///   does.
    /// - Throws: `GeoError.Kind.limitExceeded` past 2³¹ − 1 insertions; the index is then
    ///   unchanged.
    /// - Complexity: as ``apply(_:)`` for the good changes; O(1) for each bad one.
    @discardableResult
    public mutating func applyLeavingOutBadChanges(
        _ changes: [LiveClusterChange<Key>]
    ) throws(GeoError) -> [(position: Int, error: GeoError)] {
        try apply(changes, leavingOutBadChanges: true)
    }

    /// ``apply(_:)``, or with `leavingOutBadChanges`, ``applyLeavingOutBadChanges(_:)``.
    @discardableResult
    private mutating func apply(
        _ changes: [LiveClusterChange<Key>], leavingOutBadChanges: Bool
    ) throws(GeoError) -> [(position: Int, error: GeoError)] {
        // Check the whole batch first, and find what each key holds at its end.
        var rejected = [(position: Int, error: GeoError)]()
        var pending = [Key: Pending]()
        var order = [Key]()
        // Where each key's last insert is: new elements take serials in that order, the order
        // of applying the changes one by one (a key removed and inserted again goes after the
        // keys inserted before its new insert, whenever it was first named).
        var insertedAt = [Key: Int]()
        func current(_ key: Key) -> Pending? {
            if let p = pending[key] { return p }
            guard let s = serials[key] else { return nil }
            let e = core.elements[Int(s)], d = core.details[Int(s)]
            return .present(
                serial: s, coordinate: d.coordinate,
                identifier: core.partitions[Int(e.partition)].identifier, value: d.value)
        }
        for (i, change) in changes.enumerated() {
            let key = change.key
            func problem(_ kind: GeoError.Kind, _ text: String) -> GeoError {
                GeoError(
                    kind,
                    "change \(i + 1): key \(GeoError.quoted(String(describing: key))): \(text)")
            }
            let next: Pending
            do throws(GeoError) {
                switch (change, current(key)) {
                case (.insert(_, let c, let identifier, let value), let now):
                    if case .present = now {
                        throw problem(.invalidArgument, "the key is already there")
                    }
                    try Self.check(c, problem)
                    next = .present(
                        serial: nil, coordinate: c, identifier: identifier, value: value)
                    insertedAt[key] = i
                case (.remove, .present?):
                    next = .absent
                case (.move(_, let c), .present(let s, _, let identifier, let value)?):
                    try Self.check(c, problem)
                    next = .present(
                        serial: s, coordinate: c, identifier: identifier, value: value)
                case (.remove, _), (.move, _):
                    throw problem(.notFound, "no element has this key")
                }
            } catch {
                guard leavingOutBadChanges else { throw error }
                rejected.append((i, error))
                continue
            }
            if pending[key] == nil { order.append(key) }
            pending[key] = next
        }
        let newCount = order.reduce(0) { n, key in
            if case .present(nil, _, _, _)? = pending[key] { n + 1 } else { n }
        }
        guard core.elements.count + newCount < Int(Int32.max) else {
            throw GeoError(.limitExceeded, "a live index takes at most 2^31 - 1 insertions")
        }
        guard !order.isEmpty else { return rejected }

        // The point changes of each partition.
        var points = [Int: [LiveChange]]()
        var log = LiveBatchLog(
            from: core.state, levelCount: core.levelCount, budget: core.logBudget)
        var removed = [Int32]()
        var inserted = [(position: Int, key: Key)]()
        for key in order {
            let old = serials[key]
            let oldElement = old.map { core.elements[Int($0)] }
            guard let final = pending[key] else { continue }
            switch final {
            case .absent:
                guard let old, let e = oldElement else { continue }
                points[Int(e.partition), default: []].append(
                    LiveChange(
                        serial: old, old: core.pointRecord(old), new: nil,
                        oldDepth: e.depth, oldClaimer: e.claimer))
                removed.append(old)
                serials[key] = nil
            case .present(let s?, let c, _, _):
                guard let e = oldElement else { continue }
                let fx = Float(SuperclusterProjection.x(longitude: c.longitude))
                let fy = Float(SuperclusterProjection.y(latitude: c.latitude))
                let wasAt = core.details[Int(s)].coordinate
                core.details[Int(s)].coordinate = c
                guard fx != e.fx || fy != e.fy else {
                    if c != wasAt { log.noteMoved(s, at: core.pointRecord(s)) }
                    continue
                }
                let before = core.pointRecord(s)
                core.elements[Int(s)].fx = fx
                core.elements[Int(s)].fy = fy
                points[Int(e.partition), default: []].append(
                    LiveChange(
                        serial: s, old: before,
                        new: core.pointRecord(s),
                        oldDepth: e.depth, oldClaimer: e.claimer))
            case .present(nil, _, _, _):
                if let old, let e = oldElement {
                    // Removed and inserted again: a new element at the end of the order.
                    points[Int(e.partition), default: []].append(
                        LiveChange(
                            serial: old, old: core.pointRecord(old), new: nil,
                            oldDepth: e.depth, oldClaimer: e.claimer))
                    removed.append(old)
                }
                inserted.append((insertedAt[key] ?? 0, key))
            }
        }
        inserted.sort { $0.position < $1.position }
        for (_, key) in inserted {
            if case .present(nil, let c, let identifier, let value)? = pending[key] {
                let p = partition(for: identifier)
                let s = Int32(core.elements.count)
                core.append(
                    LiveElement(
                        isPresent: true, depth: LiveCore.absent,
                        fx: Float(SuperclusterProjection.x(longitude: c.longitude)),
                        fy: Float(SuperclusterProjection.y(latitude: c.latitude)),
                        partition: p, claimer: -1),
                    LiveDetail(coordinate: c, value: value))
                keys.append(key)
                serials[key] = s
                points[Int(p), default: []].append(
                    LiveChange(
                        serial: s, old: nil, new: core.pointRecord(s),
                        oldDepth: LiveCore.absent, oldClaimer: -1))
            }
        }
        for s in removed {
            core.elements[Int(s)].isPresent = false
            keys[Int(s)] = nil
            core.partitions[Int(core.elements[Int(s)].partition)].count -= 1
            core.count -= 1
        }
        let changeCount = points.values.reduce(0) { $0 + $1.count }
        if rebuildFraction < Int.max && changeCount > 256
            && changeCount > (core.count + removed.count) / max(1, rebuildFraction)
        {
            for s in removed {
                core.elements[Int(s)].depth = LiveCore.absent
                core.elements[Int(s)].claimer = -1
                core.details[Int(s)].formations = []
                core.elements[Int(s)].hasFormations = false
            }
            for p in core.partitions.indices { core.clearGrids(partition: p) }
            core.rebuild()
            core.finishBatch(nil)
            return rejected
        }
        for (p, changes) in points.sorted(by: { $0.key < $1.key }) {
            core.propagate(
                partition: p, points: changes.sorted { $0.serial < $1.serial }, scratch: &scratch,
                log: &log)
        }
        for s in removed {
            core.elements[Int(s)].depth = LiveCore.absent
            core.elements[Int(s)].claimer = -1
            core.details[Int(s)].formations = []
            core.elements[Int(s)].hasFormations = false
        }
        core.finishBatch(log)
        if changeCount >= Self.trimmingBatch {
            // What this batch did not take again of the memory freed before it (the pages of
            // snapshots let go, which its own copies reuse when it runs under a snapshot), and
            // its own working memory.
            HeapTrim.releaseFreePages()
        }
        return rejected
    }

    /// Records the serial of a new key.
    mutating func insertSerial(_ key: Key, _ serial: Int32) { serials[key] = serial }

    /// The partition of a clustering identifier (made when it is new), with the element about to
    /// join it counted.
    mutating func partition(for identifier: String?) -> Int32 {
        if let p = core.partitionByIdentifier[identifier] {
            core.partitions[Int(p)].count += 1
            core.count += 1
            return p
        }
        let p = Int32(core.partitions.count)
        core.partitions.append(
            LivePartition(
                identifier: identifier,
                grids: Array(repeating: PagedSet<LiveGridEntry>(), count: core.levelCount),
                count: 1))
        core.partitionByIdentifier[identifier] = p
        core.count += 1
        return p
    }

    /// Checks that a coordinate is on the globe.
    private static func check(
        _ c: Coordinate, _ problem: (GeoError.Kind, String) -> GeoError
    ) throws(GeoError) {
        guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= 90,
            abs(c.longitude) <= 180
        else {
            throw problem(
                .invalidCoordinate,
                "latitude \(c.latitude), longitude \(c.longitude) is not on the globe")
        }
    }
}

extension LiveClusterIndex {
    /// The cluster or point that holds the element with a key at a zoom, or `nil` for an unknown
    /// key (or a NaN zoom).
    ///
    /// - Complexity: O(levels).
    public func feature(containing key: Key, zoom: Double) -> ClusterFeature<Key>? {
        guard let s = serials[key], let level = snapshot.level(atZoom: zoom) else { return nil }
        return snapshot.feature(containing: s, level: level)
    }
}
