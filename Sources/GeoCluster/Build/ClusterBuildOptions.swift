/// How a ``ClusterIndex`` is built. The result is the same either way; only the time differs.
public struct ClusterBuildOptions: Hashable, Sendable {
    /// How the neighbors of each record are found while the levels are built (not API: the
    /// supercluster-style search is the reference the tests and the benchmark compare with).
    package enum NeighborSearch: Hashable, Sendable {
        /// A sweep over a grid of cells about the size of the radius (fast; the default).
        case gridSweep
        /// One search-tree query per record, as supercluster does (slow; a reference).
        case treeQueries
    }

    /// How many threads share the build's work (at least 1; default 2, for two cores).
    ///
    /// With 1, the build runs on the calling thread alone. With `n` > 1, each zoom's search tree is
    /// built on a Dispatch worker thread while the calling thread finds the next level's neighbors,
    /// and each of those jobs is split into at most `n` parts that run concurrently; the index is the
    /// same either way.
    public var maximumThreads: Int
    /// How neighbors are found.
    package var neighborSearch: NeighborSearch = .gridSweep

    /// Creates build options.
    public init(maximumThreads: Int = 2) {
        self.maximumThreads = maximumThreads
    }

    /// Build options with a chosen neighbor search.
    package init(maximumThreads: Int, neighborSearch: NeighborSearch) {
        self.maximumThreads = maximumThreads
        self.neighborSearch = neighborSearch
    }
}
