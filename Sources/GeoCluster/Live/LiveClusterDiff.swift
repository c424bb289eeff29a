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
    /// The identity diffs match a feature by: a cluster's id, a point's serial shifted as ids are.
    static func identity(_ feature: ClusterFeature<Key>) -> Int {
        switch feature {
        case .cluster(let c): c.id
        case .point(let p): p.index << 5
        }
    }

    /// What changed inside a box at a zoom from one snapshot of an index to a later one (both
    /// must come from the same ``LiveClusterIndex``).
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
        let before = old.clusters(in: box, zoom: zoom)
        let after = new.clusters(in: box, zoom: zoom)
        var oldByIdentity = [Int: ClusterFeature<Key>](minimumCapacity: before.count)
        for f in before { oldByIdentity[identity(f)] = f }
        var seen = Set<Int>(minimumCapacity: after.count)
        for f in after {
            let id = identity(f)
            seen.insert(id)
            if let was = oldByIdentity[id] {
                if was != f { diff.changed.append(.init(old: was, new: f)) }
            } else {
                diff.appeared.append(
                    .init(feature: f, source: old.feature(containing: Int32(id >> 5), level: level))
                )
            }
        }
        for f in before where !seen.contains(identity(f)) {
            diff.disappeared.append(
                .init(
                    feature: f,
                    destination: new.feature(containing: Int32(identity(f) >> 5), level: level)))
        }
        return diff
    }
}
