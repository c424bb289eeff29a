import GeoCore

extension LiveClusterIndex {
    /// Builds a live index from many elements at once, as fast as a ``ClusterIndex`` (it is built
    /// as one and converted): the same index as inserting the elements one by one in order.
    ///
    /// - Parameters:
    ///   - elements: The elements, in the order they are inserted.
    ///   - options: Radius, extent and zoom range (see ``init(options:reduce:)``).
    ///   - key: Each element's key.
    ///   - coordinate: Each element's coordinate.
    ///   - clusteringIdentifier: Each element's clustering identifier; omit it for one for all.
    ///   - value: Each element's value for the aggregation; omit it for `null`.
    ///   - reduce: How aggregates are folded (see ``init(options:reduce:)``).
    ///   - build: Threads used while building.
    /// - Throws: `GeoError.Kind.invalidArgument` for invalid options or a key that repeats,
    ///   `GeoError.Kind.invalidCoordinate` for a coordinate off the globe, naming the element's
    ///   position; `GeoError.Kind.limitExceeded` for 2³¹ − 1 elements or more.
    /// - Complexity: O(n log n) per zoom, like a ``ClusterIndex``.
    public init<Element>(
        _ elements: [Element], options: ClusterOptions = .default, key: (Element) -> Key,
        coordinate: (Element) -> Coordinate, clusteringIdentifier: ((Element) -> String?)? = nil,
        value: ((Element) -> JSONValue)? = nil,
        reduce: (@Sendable (inout JSONValue, JSONValue) -> Void)? = nil,
        build: ClusterBuildOptions = ClusterBuildOptions()
    ) throws(GeoError) {
        try self.init(options: options, reduce: reduce)
        guard elements.count < Int(Int32.max) else {
            throw GeoError(.limitExceeded, "a live index takes at most 2^31 - 1 insertions")
        }
        var groups = [[Int32]]()
        var coordinates = [Coordinate]()
        coordinates.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            let k = key(element)
            let c = coordinate(element)
            guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= 90,
                abs(c.longitude) <= 180
            else {
                throw GeoError(
                    .invalidCoordinate,
                    "element \(i + 1) (\(GeoError.quoted(String(describing: k)))): latitude \(c.latitude), longitude \(c.longitude) is not on the globe"
                )
            }
            guard !contains(k) else {
                throw GeoError(
                    .invalidArgument,
                    "element \(i + 1) (\(GeoError.quoted(String(describing: k)))): the key repeats")
            }
            insertSerial(k, Int32(i))
            let p = partition(for: clusteringIdentifier?(element))
            if Int(p) == groups.count { groups.append([]) }
            groups[Int(p)].append(Int32(i))
            coordinates.append(c)
            keys.append(k)
            core.append(
                LiveElement(
                    isPresent: true, depth: Int8(options.minZoom),
                    fx: Float(SuperclusterProjection.x(longitude: c.longitude)),
                    fy: Float(SuperclusterProjection.y(latitude: c.latitude)),
                    partition: p, claimer: -1),
                LiveDetail(coordinate: c, value: value?(element) ?? .null))
        }
        for (p, members) in groups.enumerated() {
            let hierarchy = ClusterHierarchy(
                options: core.options, coordinates: members.map { coordinates[Int($0)] },
                build: build)
            core.adopt(hierarchy, members: members, partition: p)
        }
        core.version = 0
        core.finishBatch(nil)
        // The static build's working memory, and the hierarchy adopted, are freed by now: their
        // pages go back to the system, so that the process holds what the index holds.
        HeapTrim.releaseFreePages()
    }
}

extension LiveCore {
    /// Rebuilds every partition from its present elements, keeping their serials (so ids stay
    /// what they are): for a batch that changes a large part of the index, cheaper than carrying
    /// each change down the zooms, and the same result.
    mutating func rebuild(build: ClusterBuildOptions = ClusterBuildOptions()) {
        var members = [[Int32]](repeating: [], count: partitions.count)
        for s in 0..<elements.count where elements[s].isPresent {
            members[Int(elements[s].partition)].append(Int32(s))
        }
        for (p, list) in members.enumerated() {
            let hierarchy = ClusterHierarchy(
                options: options, coordinates: list.map { details[Int($0)].coordinate },
                build: build)
            adopt(hierarchy, members: list, partition: p)
        }
        HeapTrim.releaseFreePages()
    }

    /// Takes over a static hierarchy of one partition's elements (built with insertion member
    /// order): each element's depth, claimer and formations, the aggregates, and every level's
    /// grid.
    mutating func adopt(_ h: ClusterHierarchy, members: [Int32], partition p: Int) {
        let n = h.inputCount
        func serial(_ ref: UInt32) -> Int32 { members[Int(h.originElement(ref))] }
        func zoom(_ c: Int) -> Int { ((h.clusterID[c] - n) & 31) - 1 }
        // Aggregates, in formation order (sub-clusters first), each from its members in level order.
        var aggregates = [JSONValue?](repeating: nil, count: reduce == nil ? 0 : h.clusterID.count)
        if let reduce {
            var absorbed = [[UInt32]](repeating: [], count: h.clusterID.count)
            for ref in 0..<UInt32(n + h.clusterID.count) {
                let parent = Int(h.parent(ref))
                if parent >= 0 && h.clusterOrigin[parent] != ref { absorbed[parent].append(ref) }
            }
            func value(_ ref: UInt32) -> JSONValue? {
                h.isCluster(ref)
                    ? aggregates[h.clusterIndex(ref)] : details[Int(members[Int(ref)])].value
            }
            for c in 0..<h.clusterID.count {
                guard var accumulated = value(h.clusterOrigin[c]) else { continue }
                for ref in absorbed[c].sorted(by: { h.originElement($0) < h.originElement($1) }) {
                    if let v = value(ref) { reduce(&accumulated, v) }
                }
                aggregates[c] = accumulated
            }
        }
        // Each element's chain: the clusters it is the origin of, then the one that absorbs it.
        for local in 0..<n {
            let s = Int(members[local])
            var ref = UInt32(local)
            var formations = [LiveFormation]()
            var depth = Int8(options.minZoom), claimer: Int32 = -1
            while true {
                let parent = Int(h.parent(ref))
                guard parent >= 0 else { break }
                let z = zoom(parent)
                if h.clusterOrigin[parent] == ref {
                    formations.append(
                        LiveFormation(
                            zoom: Int8(z), count: h.clusterCount[parent], x: h.clusterX[parent],
                            y: h.clusterY[parent],
                            aggregate: reduce == nil ? nil : aggregates[parent]))
                    ref = UInt32(n + parent)
                } else {
                    depth = Int8(z + 1)
                    claimer = serial(h.clusterOrigin[parent])
                    break
                }
            }
            formations.reverse()  // the walk met them from the highest zoom down
            elements[s].depth = depth
            elements[s].claimer = claimer
            details[s].formations = formations
            elements[s].hasFormations = !formations.isEmpty
        }
        // The grids: each element's record at every level from its depth up (the formation of
        // the lowest zoom at or above the level, else the point), made in one walk per element
        // for a few levels at a time (so that only their entries are held at once) and appended
        // per level in serial order.
        let levels = options.minZoom...(options.maxZoom + 1)
        var starting = [Int](repeating: 0, count: levels.count)
        for s in members {
            let depth = Int(elements[Int(s)].depth)
            if depth <= levels.upperBound { starting[max(0, depth - levels.lowerBound)] += 1 }
        }
        for first in stride(from: levels.lowerBound, through: levels.upperBound, by: 3) {
            let group = first...min(levels.upperBound, first + 2)
            let sizes = group.map { cellSize(level: $0) }
            var entries = group.map { level in
                var list = [LiveGridEntry]()
                list.reserveCapacity(starting[...(level - levels.lowerBound)].reduce(0, +))
                return list
            }
            for s in members {
                let e = elements[Int(s)]
                let depth = max(group.lowerBound, Int(e.depth))
                guard depth <= group.upperBound else { continue }
                let formations = e.hasFormations ? details[Int(s)].formations : []
                var next = 0
                for level in depth...group.upperBound {
                    while next < formations.count && Int(formations[next].zoom) < level {
                        next += 1
                    }
                    let (fx, fy) =
                        next < formations.count
                        ? (Float(formations[next].x), Float(formations[next].y)) : (e.fx, e.fy)
                    let (cx, cy) = cell(Double(fx), Double(fy), size: sizes[level - first])
                    entries[level - first].append(
                        LiveGridEntry(
                            cell: Self.key(cx, cy),
                            member: level > options.minZoom && Int(e.depth) == level, serial: s))
                }
            }
            for level in group {
                Self.sortBySerialWithinCell(&entries[level - first])
                partitions[p].grids[level - options.minZoom] = PagedSet(
                    sorted: entries[level - first])
                entries[level - first] = []
            }
        }
    }
}

extension LiveCore {
    /// Sorts grid entries that are in serial order into grid order (cell, then origins before
    /// members, then serial): a stable radix sort on the cell and member flag, four passes of 12
    /// bits, O(n).
    static func sortBySerialWithinCell(_ entries: inout [LiveGridEntry]) {
        guard entries.count > 1 else { return }
        var buffer = entries
        func key(_ e: LiveGridEntry) -> UInt64 {
            // Cell coordinates are at most 2^22 (23 bits each), then the member flag: 47 bits.
            let cx = e.cell >> 32, cy = e.cell & 0xFFFF_FFFF
            return (cx << 24 | cy << 1) | (e.isMember ? 1 : 0)
        }
        var counts = [Int](repeating: 0, count: 4096)
        for pass in 0..<4 {
            let shift = UInt64(12 * pass)
            for i in counts.indices { counts[i] = 0 }
            for e in entries { counts[Int((key(e) >> shift) & 4095)] += 1 }
            var total = 0
            for i in counts.indices {
                let c = counts[i]
                counts[i] = total
                total += c
            }
            for e in entries {
                let d = Int((key(e) >> shift) & 4095)
                buffer[counts[d]] = e
                counts[d] += 1
            }
            swap(&entries, &buffer)
        }
    }
}
