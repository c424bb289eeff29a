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

        @usableFromInline
        init(feature: ClusterFeature<Key>, source: ClusterFeature<Key>?) {
            (self.feature, self.source) = (feature, source)
        }
    }

    /// A feature in the old view that is not in the new one.
    public struct Disappearance: Sendable {
        /// The old feature.
        public var feature: ClusterFeature<Key>
        /// The new snapshot's feature that holds the old one's first element: the cluster it
        /// merged into, or the one it became; `nil` when that element was removed.
        public var destination: ClusterFeature<Key>?

        @usableFromInline
        init(feature: ClusterFeature<Key>, destination: ClusterFeature<Key>?) {
            (self.feature, self.destination) = (feature, destination)
        }
    }

    /// A feature in both views whose place, count or aggregate changed.
    public struct Change: Sendable {
        /// The feature in the old snapshot.
        public var old: ClusterFeature<Key>
        /// The feature in the new snapshot.
        public var new: ClusterFeature<Key>

        @usableFromInline
        init(old: ClusterFeature<Key>, new: ClusterFeature<Key>) {
            (self.old, self.new) = (old, new)
        }
    }

    /// Features that came into the view, in level order.
    public var appeared: [Appearance] = []
    /// Features that left it, in level order.
    public var disappeared: [Disappearance] = []
    /// Features that stayed but moved or changed count or aggregate, in level order.
    public var changed: [Change] = []

    /// Whether the view is the same in both snapshots.
    public var isEmpty: Bool { appeared.isEmpty && disappeared.isEmpty && changed.isEmpty }

    @usableFromInline
    init() {}
}

extension LiveClusterSnapshot {
    /// What changed inside a box at a zoom from one snapshot of an index to a later one (both
    /// must come from the same ``LiveClusterIndex``).
    ///
    /// When the index kept the logs of the batches between the two (the last 32 batches, up to
    /// 2,000,000 changed records in all; a batch rebuilt from its elements, or one that changes
    /// more records than that, keeps none and ends the earlier logs), only the records those
    /// batches changed at the zoom are read, so the cost follows the changes, not the view: a
    /// sequential scan of at most 2,000,000 entries (a few milliseconds) however large the view.
    /// Otherwise the two views are read as records in level order and merged. Both ways give the
    /// same diff, and only the features that changed are made.
    ///
    /// - Complexity: O(m + f log f) with the logs, for the m records the batches changed at the
    ///   zoom (and their sub-float32 moves) and the f of them in the box; O(k log n) otherwise,
    ///   for the k features in the box in either snapshot.
    @inlinable
    public static func diff(
        from old: LiveClusterSnapshot, to new: LiveClusterSnapshot, in box: BoundingBox,
        zoom: Double
    ) -> LiveClusterDiff<Key> {
        // Inlined, so the features are made specialized for the caller's key type.
        diff(from: old, to: new, in: box, zoom: zoom, useLogs: true)
    }

    /// ``diff(from:to:in:zoom:)``, from the logs only when `useLogs` (the tests compare both).
    @inlinable
    package static func diff(
        from old: LiveClusterSnapshot, to new: LiveClusterSnapshot, in box: BoundingBox,
        zoom: Double, useLogs: Bool
    ) -> LiveClusterDiff<Key> {
        var diff = LiveClusterDiff<Key>()
        guard old.core.state != new.core.state, let level = new.level(atZoom: zoom) else {
            return diff
        }
        func appeared(_ a: LiveSeen) {
            guard let f = new.feature(a.p, a.s, a.r) else { return }
            diff.appeared.append(
                .init(feature: f, source: old.feature(containing: a.s, level: level)))
        }
        func disappeared(_ b: LiveSeen) {
            guard let f = old.feature(b.p, b.s, b.r) else { return }
            diff.disappeared.append(
                .init(feature: f, destination: new.feature(containing: b.s, level: level)))
        }
        /// One element's record in the old view and in the new one.
        func compare(_ b: LiveSeen?, _ a: LiveSeen?) {
            switch (b, a) {
            case (let b?, nil): disappeared(b)
            case (nil, let a?): appeared(a)
            case (let b?, let a?):
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
            case (nil, nil): break
            }
        }
        let boxes = LiveCore.projectedBoxes(
            west: box.west, south: box.south, east: box.east, north: box.north)
        if useLogs,
            let serials = new.core.loggedSerials(
                since: old.core.state, level: level, boxes: boxes)
        {
            for s in serials {
                compare(
                    old.core.viewRecord(s, level: level, boxes: boxes),
                    new.core.viewRecord(s, level: level, boxes: boxes))
            }
            return diff
        }
        func view(_ s: LiveClusterSnapshot) -> [LiveSeen] {
            var result = [LiveSeen]()
            s.forEachFeature(
                west: box.west, south: box.south, east: box.east, north: box.north, zoom: zoom
            ) { result.append(LiveSeen(p: $0, s: $1, r: $2)) }
            // One order for both views: by serial (partitions hold disjoint serials).
            result.sort { $0.s < $1.s }
            return result
        }
        let before = view(old), after = view(new)
        var i = 0, j = 0
        while i < before.count || j < after.count {
            if j == after.count || (i < before.count && before[i].s < after[j].s) {
                compare(before[i], nil)
                i += 1
            } else if i == before.count || after[j].s < before[i].s {
                compare(nil, after[j])
                j += 1
            } else {
                compare(before[i], after[j])
                i += 1
                j += 1
            }
        }
        return diff
    }

    /// Whether ``diff(from:to:in:zoom:)`` from `old` to this snapshot is answered without
    /// merging the two views: from the batch logs, or at once when both are the same state.
    package func diffsFromLogs(since old: LiveClusterSnapshot) -> Bool {
        old.core.state == core.state
            || core.loggedSerials(since: old.core.state, level: options.minZoom, boxes: []) != nil
    }
}
