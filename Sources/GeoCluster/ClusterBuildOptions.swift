/// How a ``ClusterIndex`` is built. The result is the same either way; only the time differs.
public struct ClusterBuildOptions: Hashable, Sendable {
    /// How the neighbours of each record are found while the levels are built.
    public enum NeighbourSearch: Hashable, Sendable {
        /// A sweep over a grid of cells about the size of the radius (fast; the default).
        case gridSweep
        /// One search-tree query per record, as supercluster does (slow; a reference).
        case treeQueries
    }

    /// The most threads the build uses (at least 1; default 2).
    public var maximumThreads: Int
    /// How neighbours are found.
    public var neighbourSearch: NeighbourSearch

    /// Creates build options.
    public init(maximumThreads: Int = 2, neighbourSearch: NeighbourSearch = .gridSweep) {
        self.maximumThreads = maximumThreads
        self.neighbourSearch = neighbourSearch
    }
}
