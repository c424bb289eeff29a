/// One axis of a coordinate reference system, as PROJ describes it.
public struct CRSAxis: Hashable, Sendable {
    /// The axis name, e.g. `"Geodetic latitude"`, `"Easting"`.
    public var name: String
    /// The abbreviation, e.g. `"Lat"`, `"E"`.
    public var abbreviation: String
    /// The direction: `"north"`, `"east"`, `"south"`, `"west"`, `"up"`, `"geocentricX"`, ...
    public var direction: String
    /// The unit, e.g. `"degree"`, `"metre"`, `"US survey foot"`.
    public var unitName: String
    /// The factor from the unit to the SI unit (radians for angles, meters for lengths).
    public var unitToSI: Double
}

/// Transforms coordinates between coordinate reference systems, or through any PROJ operation, with
/// PROJ.
///
/// ```swift
/// let utm = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:32633")
/// let p = try utm.transform(Position(x: 15, y: 52))          // x = longitude, y = latitude
/// var batch = [Position(x: 15, y: 52), Position(x: 16, y: 53)]
/// let failures = try utm.transform(&batch)                    // in place; failures by index
/// ```
///
/// **Axis order.** A transformer made from two CRSs is built with `proj_create_crs_to_crs` and then
/// `proj_normalize_for_visualization`, so geographic coordinates are always x = longitude,
/// y = latitude, and projected ones easting, northing, whatever the authority's axis order (EPSG:4326
/// is latitude first in the EPSG registry). A transformer made from a PROJ string or pipeline uses the
/// operation's own order. Angles are always in degrees: for operations that take or give radians
/// (plain PROJ strings such as `+proj=utm +zone=32`), Meridian converts, as PROJ's `cct` does.
///
/// **Failures.** Errors carry PROJ's own message and error number (``GeoError/code``). In a batch, a
/// point that cannot be transformed is set to NaN and reported with its index and reason; PROJ's
/// `HUGE_VAL` markers never reach the caller. A missing `proj.db` gives
/// ``GeoError/Kind-swift.struct/projDatabaseNotFound`` naming the paths searched.
///
/// **Concurrency.** A transformer is `Sendable`. It owns a small pool of PROJ contexts, each with its
/// own copy of the operation behind its own lock (PROJ objects must not be shared between threads), so
/// concurrent tasks transform in parallel up to the pool size. The first context is created by the
/// initializer, the others only when concurrent use needs them; no context is ever created per call.
public final class CoordinateTransformer: Sendable {
    /// What a transformer was made from.
    public enum Definition: Hashable, Sendable, CustomStringConvertible {
        /// From a source to a target CRS, each in any form PROJ accepts ("EPSG:4326", WKT, PROJJSON,
        /// a PROJ string).
        case crsToCRS(source: String, target: String)
        /// A PROJ operation or pipeline string.
        case pipeline(String)

        public var description: String {
            switch self {
            case .crsToCRS(let source, let target):
                "transformation \(GeoError.quoted(source)) → \(GeoError.quoted(target))"
            case .pipeline(let text): "operation \(GeoError.quoted(text))"
            }
        }
    }

    /// The direction of a transformation.
    public enum Direction: Hashable, Sendable {
        /// Source to target.
        case forward
        /// Target to source.
        case inverse

        /// The other direction.
        public var reversed: Direction { self == .forward ? .inverse : .forward }
    }

    /// Where PROJ finds its data and whether it may download grids. Deployment facts are API.
    public struct Configuration: Hashable, Sendable {
        /// Directories searched for `proj.db` and grid files, in order; `nil` uses PROJ's defaults
        /// (`PROJ_DATA`, then the path PROJ was built with).
        public var searchPaths: [String]?
        /// Whether PROJ may fetch grids from the network (PROJ's CDN); off by default.
        public var networkEnabled: Bool
        /// Whether `+init=epsg:XXXX` strings use the PROJ 4 rules (longitude first, no datum
        /// transformation); needed for some legacy PROJ strings.
        public var useProj4InitRules: Bool
        /// How many PROJ contexts concurrent callers may use at once; `nil` for the processor count
        /// between 2 and 16.
        public var parallelism: Int?

        /// Creates a configuration.
        public init(
            searchPaths: [String]? = nil, networkEnabled: Bool = false,
            useProj4InitRules: Bool = false,
            parallelism: Int? = nil
        ) {
            self.searchPaths = searchPaths
            self.networkEnabled = networkEnabled
            self.useProj4InitRules = useProj4InitRules
            self.parallelism = parallelism
        }

        /// PROJ's default search paths, no network.
        public static let standard = Configuration()
    }

    /// A point of a batch that could not be transformed.
    public struct PointFailure: Hashable, Sendable {
        /// Its index in the batch.
        public var index: Int
        /// Why, in PROJ's words (naming the input coordinates), with PROJ's error number as
        /// ``GeoError/code``.
        public var error: GeoError

        /// Creates a failure record.
        public init(index: Int, error: GeoError) {
            self.index = index
            self.error = error
        }
    }

    /// What the transformer was made from.
    public let definition: Definition
    /// For a transformer between two CRSs, the source CRS's axes in the authority's order (EPSG:4326:
    /// latitude, longitude), before Meridian normalizes the order to longitude, latitude; `nil` for
    /// operations and for CRSs without a single coordinate system.
    public let sourceAxes: [CRSAxis]?
    /// The target CRS's axes in the authority's order; see ``sourceAxes``.
    public let targetAxes: [CRSAxis]?
    /// Whether this transformer runs its definition backwards (see ``inverted()``).
    public let isInverted: Bool
    private let degrees: (input: (Bool, Bool), output: (Bool, Bool))
    /// Whether PROJ's operation runs backwards (in PROJ's direction, not this transformer's).
    private let projHasInverse: Bool
    /// The configuration it was made with.
    public let configuration: Configuration
    private let pool: SlotPool<ProjState>

    /// A transformer from one CRS to another.
    ///
    /// - Parameters:
    ///   - source: The source CRS in any form PROJ accepts: `"EPSG:4326"`, an OGC URN, WKT, PROJJSON or
    ///     a PROJ string.
    ///   - target: The target CRS, likewise.
    ///   - configuration: Search paths, network use and pool size.
    /// - Throws: ``GeoError/Kind-swift.struct/proj`` with PROJ's message for an unknown or
    ///   unsupported CRS or when no operation connects them;
    ///   ``GeoError/Kind-swift.struct/projDatabaseNotFound`` when `proj.db` is missing.
    /// - Complexity: Creating the operation opens the database and takes milliseconds; reuse it.
    ///   Wraps `proj_create_crs_to_crs` and `proj_normalize_for_visualization`.
    public convenience init(
        source: String, target: String, configuration: Configuration = .standard
    ) throws(GeoError) {
        try self.init(
            definition: .crsToCRS(source: source, target: target), configuration: configuration)
    }

    /// A transformer for a PROJ operation or pipeline string, such as
    /// `"+proj=pipeline +step +proj=axisswap +order=2,1 +step +proj=unitconvert +xy_in=deg +xy_out=rad +step +proj=utm +zone=32"`
    /// or `"+proj=merc +ellps=WGS84"`, or an operation name such as `"EPSG:1314"`. Coordinates keep
    /// the operation's axis order; angles are degrees.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/proj`` with PROJ's message for a string PROJ rejects,
    ///   and for a CRS (`"EPSG:32633"`, a PROJ string with `+type=crs`), which is not an operation:
    ///   use ``init(source:target:configuration:)``. Wraps `proj_create`.
    public convenience init(
        pipeline: String, configuration: Configuration = .standard
    ) throws(GeoError) {
        try self.init(definition: .pipeline(pipeline), configuration: configuration)
    }

    /// A transformer for a definition.
    ///
    /// - Throws: As ``init(source:target:configuration:)`` and ``init(pipeline:configuration:)``.
    public init(definition: Definition, configuration: Configuration = .standard) throws(GeoError) {
        self.definition = definition
        self.configuration = configuration
        let count = configuration.parallelism ?? SlotPool<ProjState>.defaultCount
        let pool = SlotPool(count: count) { () throws(GeoError) in
            try ProjState(definition, configuration)
        }
        self.pool = pool
        // Create the first context now so that a bad definition fails here.
        let info = try pool.with { (state) throws(GeoError) -> OperationInfo in
            OperationInfo(
                hasInverse: state.hasInverse,
                sourceAxes: state.sourceAxes, targetAxes: state.targetAxes,
                degreesIn: [state.degreesIn.0, state.degreesIn.1],
                degreesOut: [state.degreesOut.0, state.degreesOut.1])
        }
        sourceAxes = info.sourceAxes
        targetAxes = info.targetAxes
        degrees = ((info.degreesIn[0], info.degreesIn[1]), (info.degreesOut[0], info.degreesOut[1]))
        projHasInverse = info.hasInverse
        isInverted = false
    }

    /// The same operation run backwards, sharing the PROJ contexts of `original`.
    private init(inverting original: CoordinateTransformer) {
        definition = original.definition
        configuration = original.configuration
        pool = original.pool
        sourceAxes = original.targetAxes
        targetAxes = original.sourceAxes
        degrees = original.degrees  // indexed by PROJ's direction, see takesAngles(_:)
        projHasInverse = original.projHasInverse
        isInverted = !original.isInverted
    }

    /// The direction PROJ runs for a direction asked of this transformer.
    private func proj(_ direction: Direction) -> Direction {
        isInverted ? direction.reversed : direction
    }

    private struct OperationInfo: Sendable {
        var hasInverse: Bool
        var sourceAxes: [CRSAxis]?
        var targetAxes: [CRSAxis]?
        var degreesIn: [Bool]
        var degreesOut: [Bool]
    }

    /// Whether PROJ can run the operation in a direction: always forward; backwards only when
    /// the operation has an inverse (`+proj=august` has none, and every point of an inverse run
    /// would fail). A transformer between two CRSs is taken to run both ways (PROJ picks among
    /// its candidate operations per point; a point none can take back fails on its own).
    public func canTransform(_ direction: Direction) -> Bool {
        proj(direction) == .forward || projHasInverse
    }

    /// Whether the first two input coordinates in a direction are angles (degrees); false for
    /// projected or Cartesian input.
    public func takesAngles(_ direction: Direction = .forward) -> Bool {
        proj(direction) == .forward ? degrees.input.0 : degrees.input.1
    }

    /// Whether the first two output coordinates in a direction are angles (degrees).
    public func givesAngles(_ direction: Direction = .forward) -> Bool {
        proj(direction) == .forward ? degrees.output.0 : degrees.output.1
    }

    /// The inverse transformer: target to source. It shares this transformer's PROJ contexts (no new
    /// operation is created), so it costs nothing; its ``sourceAxes`` and ``targetAxes`` are swapped.
    public func inverted() -> CoordinateTransformer {
        CoordinateTransformer(inverting: self)
    }

    // MARK: - One point

    /// Transforms one position (x, y and an optional height, which stays `nil` if it was).
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/proj`` with PROJ's reason and error number when the point
    ///   cannot be transformed (outside the projection's domain, no inverse, ...).
    /// - Complexity: O(1); one lock and one `proj_trans`.
    public func transform(
        _ position: Position, direction: Direction = .forward
    ) throws(GeoError) -> Position {
        let r = try transform4D(position.x, position.y, position.z ?? 0, .infinity, direction)
        return Position(x: r.0, y: r.1, z: position.z == nil ? nil : r.2)
    }

    /// Transforms a geographic coordinate (taken as x = longitude, y = latitude) forward.
    ///
    /// - Throws: As ``transform(_:direction:)-(Position,_)``.
    public func transform(_ coordinate: Coordinate) throws(GeoError) -> Position {
        try transform(Position(coordinate))
    }

    /// Transforms a position with a time coordinate (decimal year, for time-dependent operations such
    /// as plate-motion Helmert transformations).
    ///
    /// - Throws: As ``transform(_:direction:)-(Position,_)``.
    public func transform(
        _ position: Position, time: Double, direction: Direction = .forward
    ) throws(GeoError) -> (position: Position, time: Double) {
        let r = try transform4D(position.x, position.y, position.z ?? 0, time, direction)
        return (Position(x: r.0, y: r.1, z: position.z == nil ? nil : r.2), r.3)
    }

    private func transform4D(
        _ x: Double, _ y: Double, _ z: Double, _ t: Double, _ direction: Direction
    ) throws(GeoError) -> (Double, Double, Double, Double) {
        try pool.with { (state) throws(GeoError) -> (Double, Double, Double, Double) in
            try state.transform(x, y, z, t, proj(direction))
        }
    }

    // MARK: - Batches

    /// Transforms positions in place through `proj_trans_generic`.
    ///
    /// Heights are transformed where present (the whole batch goes through PROJ in 3D when any
    /// position has one; missing heights are taken as 0 and stay `nil`). A point that fails is set to
    /// NaN and reported; the others are transformed.
    ///
    /// - Returns: The failed points with their index and PROJ's reason, in index order; empty when
    ///   every point was transformed.
    /// - Throws: Never for individual points; only if the pool cannot provide a PROJ context.
    /// - Complexity: O(n); no allocation per point.
    public func transform(
        _ positions: inout [Position], direction: Direction = .forward
    ) throws(GeoError) -> [PointFailure] {
        let count = positions.count
        return try positions.withUnsafeMutableBufferPointer {
            (buffer) throws(GeoError) -> [PointFailure] in
            guard let start = buffer.baseAddress else { return [] }
            // The buffer's address crosses into the pool's closure as a number (pointers are not Sendable).
            let address = UInt(bitPattern: start)
            return try pool.with { (state) throws(GeoError) -> [PointFailure] in
                guard let base = UnsafeMutablePointer<Position>(bitPattern: address) else {
                    return []
                }
                var failures = [PointFailure]()
                state.transformPositions(
                    base, count: count, direction: proj(direction), failures: &failures)
                return failures
            }
        }
    }

    /// Transforms coordinates given as separate arrays, in place, through `proj_trans_generic`.
    ///
    /// - Parameters:
    ///   - x: Longitudes (degrees) or eastings; same count as `y`.
    ///   - y: Latitudes or northings.
    ///   - z: Heights, or `nil` (taken as 0); same count as `x` if given.
    ///   - time: One time (decimal year) for all points, or `nil`.
    ///   - direction: Forward (source to target) or inverse.
    /// - Returns: The failed points (set to NaN) with their index and PROJ's reason.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` if the arrays differ in length.
    /// - Complexity: O(n); no allocation per point.
    public func transform(
        x: inout [Double], y: inout [Double], z: inout [Double]?, time: Double? = nil,
        direction: Direction = .forward
    ) throws(GeoError) -> [PointFailure] {
        guard x.count == y.count, z.map({ $0.count == x.count }) ?? true else {
            throw GeoError(
                .invalidArgument,
                "coordinate arrays differ in length: x \(x.count), y \(y.count), z \(z?.count ?? 0)"
            )
        }
        let count = x.count
        let stride = MemoryLayout<Double>.stride
        return try x.withUnsafeMutableBufferPointer { (xb) throws(GeoError) -> [PointFailure] in
            try y.withUnsafeMutableBufferPointer { (yb) throws(GeoError) -> [PointFailure] in
                guard let xp = xb.baseAddress, let yp = yb.baseAddress else { return [] }
                if z == nil {
                    return try batch(
                        x: xp, y: yp, z: nil, stride: stride, count: count, time: time,
                        direction: direction)
                }
                var heights = z ?? []
                defer { z = heights }
                return try heights.withUnsafeMutableBufferPointer {
                    (zb) throws(GeoError) -> [PointFailure] in
                    try batch(
                        x: xp, y: yp, z: zb.baseAddress, stride: stride, count: count, time: time,
                        direction: direction)
                }
            }
        }
    }

    /// Transforms coordinates with a time each (four-dimensional input, as PROJ's `cct` reads
    /// `x y z t` lines), in place: for time-dependent operations such as plate-motion models or
    /// ITRF ↔ ETRF transformations, each point's epoch is its own.
    ///
    /// - Parameters:
    ///   - x: Longitudes (degrees) or eastings; same count as `y`.
    ///   - y: Latitudes or northings.
    ///   - z: Heights, or `nil` (taken as 0); same count as `x` if given.
    ///   - t: The epoch of each point in decimal years (2020.5 is July 2020); same count as `x`.
    ///     Transformed with the point (most operations leave it as it is).
    ///   - direction: Forward (source to target) or inverse.
    /// - Returns: The failed points (set to NaN, their time too) with their index and PROJ's reason.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` if the arrays differ in length.
    /// - Complexity: O(n); no allocation per point.
    public func transform(
        x: inout [Double], y: inout [Double], z: inout [Double]?, t: inout [Double],
        direction: Direction = .forward
    ) throws(GeoError) -> [PointFailure] {
        guard x.count == y.count, t.count == x.count, z.map({ $0.count == x.count }) ?? true else {
            throw GeoError(
                .invalidArgument,
                "coordinate arrays differ in length: x \(x.count), y \(y.count), z \(z?.count ?? 0), t \(t.count)"
            )
        }
        let count = x.count
        var heights = z ?? [Double](repeating: 0, count: count)
        defer { if z != nil { z = heights } }
        return try x.withUnsafeMutableBufferPointer { (xb) throws(GeoError) -> [PointFailure] in
            try y.withUnsafeMutableBufferPointer { (yb) throws(GeoError) -> [PointFailure] in
                try heights.withUnsafeMutableBufferPointer {
                    (zb) throws(GeoError) -> [PointFailure] in
                    try t.withUnsafeMutableBufferPointer {
                        (tb) throws(GeoError) -> [PointFailure] in
                        guard let xp = xb.baseAddress, let yp = yb.baseAddress,
                            let zp = zb.baseAddress, let tp = tb.baseAddress
                        else { return [] }
                        let addresses = (
                            UInt(bitPattern: xp), UInt(bitPattern: yp), UInt(bitPattern: zp),
                            UInt(bitPattern: tp)
                        )
                        return try pool.with { (state) throws(GeoError) -> [PointFailure] in
                            guard let xs = UnsafeMutablePointer<Double>(bitPattern: addresses.0),
                                let ys = UnsafeMutablePointer<Double>(bitPattern: addresses.1),
                                let zs = UnsafeMutablePointer<Double>(bitPattern: addresses.2),
                                let ts = UnsafeMutablePointer<Double>(bitPattern: addresses.3)
                            else { return [] }
                            var failures = [PointFailure]()
                            state.transformBatch(
                                x: xs, y: ys, z: zs, stride: MemoryLayout<Double>.stride,
                                count: count, time: nil, times: ts, direction: proj(direction),
                                failures: &failures)
                            return failures
                        }
                    }
                }
            }
        }
    }

    /// The axes of the coordinates a direction gives: the target CRS's for ``Direction/forward``,
    /// the source's for ``Direction/inverse``, in the order Meridian returns them (longitude or
    /// easting first); `nil` for operations that are not between two CRSs.
    ///
    /// Tells a caller how to print the result: degrees or meters, and whether there is a third
    /// coordinate (EPSG:4978 and EPSG:4979 have three axes).
    public func outputAxes(_ direction: Direction = .forward) -> [CRSAxis]? {
        guard let axes = direction == .forward ? targetAxes : sourceAxes else { return nil }
        // Normalized for visualization: a geographic CRS's first two axes swap to longitude first.
        guard axes.count >= 2, CoordinateTransformer.isLatitudeFirst(axes) else { return axes }
        var swapped = axes
        swapped.swapAt(0, 1)
        return swapped
    }

    /// Whether an authority's axis order puts north (latitude or northing) before east.
    static func isLatitudeFirst(_ axes: [CRSAxis]) -> Bool {
        let first = axes[0].direction.lowercased(), second = axes[1].direction.lowercased()
        return (first == "north" || first == "south") && (second == "east" || second == "west")
    }

    /// Transforms coordinates given as separate arrays without heights; see
    /// ``transform(x:y:z:time:direction:)``.
    public func transform(
        x: inout [Double], y: inout [Double], direction: Direction = .forward
    ) throws(GeoError) -> [PointFailure] {
        var none: [Double]? = nil
        return try transform(x: &x, y: &y, z: &none, direction: direction)
    }

    private func batch(
        x: UnsafeMutablePointer<Double>, y: UnsafeMutablePointer<Double>,
        z: UnsafeMutablePointer<Double>?,
        stride: Int, count: Int, time: Double?, direction: Direction
    ) throws(GeoError) -> [PointFailure] {
        // Raw pointers cannot cross into the pool's closure as Sendable values; pass their addresses.
        let xAddress = UInt(bitPattern: x), yAddress = UInt(bitPattern: y),
            zAddress = z.map { UInt(bitPattern: $0) }
        return try pool.with { (state) throws(GeoError) -> [PointFailure] in
            guard let xp = UnsafeMutablePointer<Double>(bitPattern: xAddress),
                let yp = UnsafeMutablePointer<Double>(bitPattern: yAddress)
            else { return [] }
            let zp = zAddress.flatMap { UnsafeMutablePointer<Double>(bitPattern: $0) }
            var failures = [PointFailure]()
            state.transformBatch(
                x: xp, y: yp, z: zp, stride: stride, count: count, time: time,
                direction: proj(direction), failures: &failures)
            return failures
        }
    }

    // MARK: - Geometry

    /// Transforms every position of a geometry.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/proj`` for the first position that cannot be transformed,
    ///   naming its index in the order of ``Geometry/forEachPosition(_:)``.
    public func transform(
        _ geometry: Geometry, direction: Direction = .forward
    ) throws(GeoError) -> Geometry {
        var positions = geometry.positions
        let failures = try transform(&positions, direction: direction)
        if let first = failures.first {
            throw GeoError(
                .proj,
                "position \(first.index) of the \(geometry.type.wktName): \(first.error.message)",
                code: first.error.code)
        }
        var index = 0
        return geometry.mapPositions { _ in
            defer { index += 1 }
            return positions[index]
        }
    }
}
