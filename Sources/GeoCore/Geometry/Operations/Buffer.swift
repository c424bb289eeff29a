internal import CGEOS

/// How ``Geometry/buffer(distance:style:)`` shapes its result.
public struct BufferStyle: Hashable, Sendable {
    /// The shape at the ends of lines.
    public enum EndCap: Hashable, Sendable {
        /// A half circle (the default).
        case round
        /// Cut off square at the end point.
        case flat
        /// A half square beyond the end point.
        case square
    }

    /// The shape at convex corners.
    public enum Join: Hashable, Sendable {
        /// A circular arc (the default).
        case round
        /// The offset edges extended to meet, up to ``BufferStyle/mitreLimit``.
        case mitre
        /// The corner cut off.
        case bevel
    }

    /// Segments per quarter circle in round caps and joins. 8 is GEOS's default (a circle of 32
    /// segments, whose area is 0.64 % below the true circle); more is smoother and slower.
    public var quadrantSegments: Int
    /// The end cap of lines.
    public var endCap: EndCap
    /// The join at corners.
    public var join: Join
    /// For mitre joins: the largest ratio of mitre length to buffer distance before a mitre is bevelled.
    public var mitreLimit: Double
    /// Whether to buffer lines on one side only (left for positive distances, right for negative).
    public var singleSided: Bool

    /// Creates a style; the defaults are GEOS's: 8 quadrant segments, round caps and joins.
    public init(
        quadrantSegments: Int = 8, endCap: EndCap = .round, join: Join = .round,
        mitreLimit: Double = 5,
        singleSided: Bool = false
    ) {
        self.quadrantSegments = quadrantSegments
        self.endCap = endCap
        self.join = join
        self.mitreLimit = mitreLimit
        self.singleSided = singleSided
    }
}

extension Geometry {
    /// The points within `distance` of this geometry (in coordinate units; for longitude/latitude data
    /// use ``buffer(meters:style:)``). A negative distance erodes polygons; lines and points then give
    /// an empty polygon.
    ///
    /// A multi-part geometry (or collection) is buffered part by part, equal parts once, and the
    /// buffers joined with a cascaded union (`GEOSUnaryUnion_r`): for valid input the region GEOS
    /// gives for the whole, and piles of overlapping parts stay linear where noding them all
    /// together was quadratic.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a non-finite distance or a style out
    ///   of range (quadrant segments outside 1...1000, non-positive mitre limit);
    ///   ``GeoError/Kind-swift.struct/limitExceeded`` for a part whose own edges cross one another
    ///   too often (see ``unaryUnion()``); or from GEOS.
    /// - Complexity: O(n log n) for n vertices of parts that do not overlap much (a valid
    ///   polygon's holes are buffered apart, where GEOS alone is quadratic in their number). See
    ///   `GEOSBufferWithParams_r`.
    public func buffer(
        distance: Double, style: BufferStyle = BufferStyle()
    ) throws(GeoError) -> Geometry {
        guard distance.isFinite else {
            throw GeoError(.invalidArgument, "buffer distance \(distance) is not finite")
        }
        guard (1...1000).contains(style.quadrantSegments) else {
            throw GeoError(
                .invalidArgument, "quadrant segments \(style.quadrantSegments) is outside 1...1000")
        }
        guard style.mitreLimit.isFinite && style.mitreLimit > 0 else {
            throw GeoError(
                .invalidArgument, "mitre limit \(style.mitreLimit) must be finite and positive")
        }
        let parts = self.parts
        if parts.count == 1 {
            // One line or polygon: GEOS nodes its offset curves, which a pile of its own edges
            // on one another makes quadratic.
            try CrossingCensus.check(parts, operation: "buffer")
            if case .polygon(let rings) = parts[0], rings.count - 1 > Self.holesBufferedApart,
                distance > 0, !style.singleSided, try isValid()
            {
                return try bufferingHolesApart(rings, distance: distance, style: style)
            }
        } else if parts.count > 1 {
            // GEOS nodes the offset curves of every part together, and parts that overlap (a
            // pile of points, lines or polygons on one another) cross each other's curves
            // everywhere: quadratic time and memory (gigabytes from 30 KB). So equal parts are
            // buffered once, each part on its own, and the buffers joined by a cascaded union,
            // which merges overlapping neighbours first: the same region for valid input.
            // The whole is read by GEOS first, so a malformed part is named by its place in it.
            try withGEOS { (_, _) throws(GeoError) -> Void in }
            var seen = Set<Geometry>()
            let distinct = parts.filter { seen.insert($0).inserted }
            var buffers = [Geometry]()
            buffers.reserveCapacity(distinct.count)
            for part in distinct {
                let b = try part.buffer(distance: distance, style: style)
                if !b.isEmpty { buffers.append(b) }
            }
            guard !buffers.isEmpty else { return .polygon([]) }
            if buffers.count == 1 { return buffers[0] }
            return try Geometry.geometryCollection(buffers).unaryUnion()
        }
        return try wholeBuffer(distance: distance, style: style)
    }

    /// Above this many holes a valid polygon's outward buffer is made hole by hole: GEOS 3.11
    /// finds the depth of each of its buffer's subgraphs by testing it against every other, so a
    /// polygon of 50,000 holes took 16 s and twice as many 46 s.
    static let holesBufferedApart = 16

    /// A valid polygon's outward buffer from its parts: the exterior ring's polygon buffered, and
    /// as its holes what is left of each hole eroded by the distance. A point inside a hole is
    /// nearest the polygon on that hole's ring, so it lies beyond the distance exactly where the
    /// hole's erosion keeps it; the erosions lie inside their holes, apart from one another and
    /// from the rest, so the result is valid, and the region is the one GEOS gives the whole.
    /// - Complexity: O(n log n) for n vertices.
    private func bufferingHolesApart(
        _ rings: [[Position]], distance: Double, style: BufferStyle
    ) throws(GeoError) -> Geometry {
        let shell = try Geometry.polygon([rings[0]]).wholeBuffer(distance: distance, style: style)
        // A simple ring's outward buffer is one polygon; anything else is left to GEOS whole.
        guard case .polygon(var result) = shell, !result.isEmpty else {
            return try wholeBuffer(distance: distance, style: style)
        }
        for hole in rings.dropFirst() {
            switch try Geometry.polygon([hole]).wholeBuffer(distance: -distance, style: style) {
            case .polygon(let left):
                if let ring = left.first { result.append(ring.reversed()) }
            case .multiPolygon(let pieces):
                for piece in pieces { if let ring = piece.first { result.append(ring.reversed()) } }
            default:
                break
            }
        }
        return .polygon(result)
    }

    /// GEOS's buffer of the geometry as one (`GEOSBufferWithParams_r`), for arguments already
    /// checked: what ``buffer(distance:style:)`` gives a single part, and the reference its
    /// part-by-part union is tested against.
    func wholeBuffer(distance: Double, style: BufferStyle) throws(GeoError) -> Geometry {
        try withGEOS { (context, g) throws(GeoError) -> Geometry in
            guard let params = GEOSBufferParams_create_r(context.raw) else {
                throw context.error("GEOSBufferParams_create_r")
            }
            defer { GEOSBufferParams_destroy_r(context.raw, params) }
            let cap: GEOSBufCapStyles
            switch style.endCap {
            case .round: cap = GEOSBUF_CAP_ROUND
            case .flat: cap = GEOSBUF_CAP_FLAT
            case .square: cap = GEOSBUF_CAP_SQUARE
            }
            let join: GEOSBufJoinStyles
            switch style.join {
            case .round: join = GEOSBUF_JOIN_ROUND
            case .mitre: join = GEOSBUF_JOIN_MITRE
            case .bevel: join = GEOSBUF_JOIN_BEVEL
            }
            guard GEOSBufferParams_setEndCapStyle_r(context.raw, params, Int32(cap.rawValue)) != 0,
                GEOSBufferParams_setJoinStyle_r(context.raw, params, Int32(join.rawValue)) != 0,
                GEOSBufferParams_setMitreLimit_r(context.raw, params, style.mitreLimit) != 0,
                GEOSBufferParams_setQuadrantSegments_r(
                    context.raw, params, Int32(style.quadrantSegments)) != 0,
                GEOSBufferParams_setSingleSided_r(context.raw, params, style.singleSided ? 1 : 0)
                    != 0
            else { throw context.error("GEOSBufferParams_set*_r") }
            return try context.own(
                GEOSBufferWithParams_r(context.raw, g.raw, params, distance),
                "GEOSBufferWithParams_r"
            ).geometry()
        }
    }
}
