internal import CGEOS
import Foundation
import Synchronization

// How GeoCore talks to GEOS.
//
// - Every GEOS context is owned by one `GEOSContext` object, created under a process-wide lock
//   because `GEOS_init_r` writes a global (libgeos/geos#1311), and freed in `deinit`.
// - Every GEOS geometry made or returned by GEOS is owned by one `GEOSGeometryRef`, which keeps its
//   context alive and destroys the geometry first.
// - Contexts are not thread-safe, so they live in slots of a pool, each behind a `Mutex`; all work
//   on a context happens inside its lock and only `Sendable` values (`Geometry`, numbers) leave it.
//   No context is created per call: a slot creates its context once, on first use.

/// Serializes `GEOS_init_r` and `GEOS_finish_r` across the process.
private let geosLifecycleLock = Mutex<Void>(())

/// Collects the messages GEOS reports through a context's error handler.
final class GEOSMessages {
    var lastError: String?
}

/// The C callback GEOS calls with an error message; `userdata` is the context's `GEOSMessages`.
private let geosErrorHandler: GEOSMessageHandler_r = { message, userdata in
    guard let userdata else { return }
    let box = Unmanaged<GEOSMessages>.fromOpaque(userdata).takeUnretainedValue()
    box.lastError = message.map { String(cString: $0) } ?? "unknown GEOS error"
}

/// One GEOS context and the messages its error handler received. Not `Sendable`: used by one thread
/// at a time, inside the lock of the slot that owns it.
final class GEOSContext {
    let raw: GEOSContextHandle_t
    private let messages = GEOSMessages()

    init() throws(GeoError) {
        guard let handle = geosLifecycleLock.withLock({ _ in GEOS_init_r() }) else {
            throw GeoError(.geos, "GEOS_init_r could not create a GEOS context")
        }
        raw = handle
        _ = GEOSContext_setErrorMessageHandler_r(
            raw, geosErrorHandler, Unmanaged.passUnretained(messages).toOpaque())
    }

    deinit {
        let handle = raw
        geosLifecycleLock.withLock { _ in GEOS_finish_r(handle) }
    }

    /// Forgets any earlier message, so a failure reports its own.
    func clearError() { messages.lastError = nil }

    /// An error for a failed GEOS call, carrying the message GEOS reported on this context.
    func error(_ function: String) -> GeoError {
        let text = messages.lastError ?? "failed without a message"
        messages.lastError = nil
        return GeoError(.geos, "\(function): \(text)")
    }

    /// A GEOS tri-state answer (0 false, 1 true, 2 exception) as a Boolean.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/geos`` with GEOS's message for 2.
    func bool(_ value: CChar, _ function: String) throws(GeoError) -> Bool {
        switch value {
        case 0: return false
        case 1: return true
        default: throw error(function)
        }
    }

    /// Takes ownership of a geometry GEOS returned, or throws GEOS's message for `NULL`.
    func own(_ raw: OpaquePointer?, _ function: String) throws(GeoError) -> GEOSGeometryRef {
        guard let raw else { throw error(function) }
        return GEOSGeometryRef(raw, context: self)
    }
}

/// Owns one GEOS geometry; destroys it with the context that made it.
final class GEOSGeometryRef {
    let raw: OpaquePointer
    let context: GEOSContext

    init(_ raw: OpaquePointer, context: GEOSContext) {
        self.raw = raw
        self.context = context
    }

    deinit { GEOSGeom_destroy_r(context.raw, raw) }

    /// The geometry as a Swift value.
    func geometry() throws(GeoError) -> Geometry {
        try withExtendedLifetime(self) { () throws(GeoError) -> Geometry in
            try context.geometry(from: raw)
        }
    }
}

// MARK: - The pool of contexts

/// A small set of lazily created states, each behind its own lock, shared by any number of threads.
///
/// `with(_:)` tries every slot without waiting (starting at a rotating index) and waits for one only if
/// all are busy, so up to `slots.count` threads work in parallel. A state is made by `make` the first
/// time its slot is used.
final class SlotPool<State>: Sendable {
    private final class Slot: Sendable {
        let state = Mutex<State?>(nil)
    }

    private let slots: [Slot]
    private let next = Atomic<Int>(0)
    private let make: @Sendable () throws(GeoError) -> State

    init(count: Int, make: @escaping @Sendable () throws(GeoError) -> State) {
        slots = (0..<max(1, count)).map { _ in Slot() }
        self.make = make
    }

    /// Runs `body` with exclusive use of one state.
    func with<R: Sendable>(_ body: (State) throws(GeoError) -> R) throws(GeoError) -> R {
        let start = next.wrappingAdd(1, ordering: .relaxed).oldValue
        let count = slots.count
        for k in 0..<count {
            let slot = slots[Int(UInt(bitPattern: start &+ k) % UInt(count))]
            let attempt = slot.state.withLockIfAvailable {
                (state: inout State?) -> Result<R, GeoError> in
                Result { () throws(GeoError) -> R in try run(&state, body) }
            }
            if let attempt { return try attempt.get() }
        }
        let slot = slots[Int(UInt(bitPattern: start) % UInt(count))]
        return try slot.state.withLock { (state: inout State?) throws(GeoError) -> R in
            try run(&state, body)
        }
    }

    private func run<R: Sendable>(
        _ state: inout State?, _ body: (State) throws(GeoError) -> R
    ) throws(GeoError) -> R {
        if state == nil { state = try make() }
        guard let current = state else { throw GeoError(.geos, "state could not be created") }
        return try body(current)
    }

    /// How many threads may work in parallel by default: the processor count, between 2 and 16.
    static var defaultCount: Int {
        min(16, max(2, ProcessInfo.processInfo.activeProcessorCount))
    }
}

/// The process-wide pool of GEOS contexts used by ``Geometry`` operations.
enum GEOS {
    static let pool = SlotPool<GEOSContext>(count: SlotPool<GEOSContext>.defaultCount) {
        () throws(GeoError) in
        try GEOSContext()
    }

    /// Runs `body` with a GEOS context of the pool.
    static func with<R: Sendable>(_ body: (GEOSContext) throws(GeoError) -> R) throws(GeoError) -> R
    {
        try pool.with(body)
    }
}

// MARK: - Geometry to GEOS

extension GEOSContext {
    /// A GEOS copy of a geometry, owned by the returned reference.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` for a NaN or infinite coordinate,
    ///   ``GeoError/Kind-swift.struct/invalidArgument`` for a line string of one position or a ring
    ///   that is not closed or has fewer than four positions, ``GeoError/Kind-swift.struct/geos`` if
    ///   GEOS fails.
    func make(_ geometry: Geometry) throws(GeoError) -> GEOSGeometryRef {
        if let (p, path) = geometry.firstNonFinitePosition() {
            throw GeoError(
                .invalidCoordinate,
                "\(path) (\(p.x), \(p.y)\(p.z.map { ", \($0)" } ?? "")) is not finite")
        }
        clearError()
        return GEOSGeometryRef(try build(geometry, path: ""), context: self)
    }

    /// Builds a GEOS geometry; on failure everything built so far is freed.
    private func build(_ geometry: Geometry, path: String) throws(GeoError) -> OpaquePointer {
        switch geometry {
        case .point(nil):
            guard let g = GEOSGeom_createEmptyPoint_r(raw) else {
                throw error("GEOSGeom_createEmptyPoint_r")
            }
            return g
        case .point(let p?):
            if p.z == nil {
                guard let g = GEOSGeom_createPointFromXY_r(raw, p.x, p.y) else {
                    throw error("GEOSGeom_createPointFromXY_r")
                }
                return g
            }
            let seq = try sequence([p])
            guard let g = GEOSGeom_createPoint_r(raw, seq) else {
                throw error("GEOSGeom_createPoint_r")
            }
            return g
        case .lineString(let ps):
            return try line(ps, path: path + "line string")
        case .polygon(let rings):
            return try polygon(rings, path: path + "polygon")
        case .multiPoint(let ps):
            var members = [OpaquePointer]()
            members.reserveCapacity(ps.count)
            for p in ps {
                do { members.append(try build(.point(p), path: path)) } catch {
                    destroy(members); throw error
                }
            }
            return try collection(Int32(GEOS_MULTIPOINT.rawValue), members)
        // Empty members of multi-part geometries carry no points and are left out: GEOS 3.11 crashes
        // on some of them (the interior point of `MULTILINESTRING ((0 0, 1 1), EMPTY)`).
        case .multiLineString(let lines):
            var members = [OpaquePointer]()
            members.reserveCapacity(lines.count)
            for (i, ps) in lines.enumerated() where !ps.isEmpty {
                do { members.append(try line(ps, path: "\(path)line \(i)")) } catch {
                    destroy(members); throw error
                }
            }
            return try collection(Int32(GEOS_MULTILINESTRING.rawValue), members)
        case .multiPolygon(let polygons):
            var members = [OpaquePointer]()
            members.reserveCapacity(polygons.count)
            for (i, rings) in polygons.enumerated() where !(rings.first?.isEmpty ?? true) {
                do { members.append(try polygon(rings, path: "\(path)polygon \(i)")) } catch {
                    destroy(members); throw error
                }
            }
            return try collection(Int32(GEOS_MULTIPOLYGON.rawValue), members)
        case .geometryCollection(let geometries):
            var members = [OpaquePointer]()
            members.reserveCapacity(geometries.count)
            for (i, member) in geometries.enumerated() where !member.isEmpty {
                do { members.append(try build(member, path: "\(path)member \(i) ")) } catch {
                    destroy(members); throw error
                }
            }
            return try collection(Int32(GEOS_GEOMETRYCOLLECTION.rawValue), members)
        }
    }

    private func line(_ ps: [Position], path: String) throws(GeoError) -> OpaquePointer {
        if ps.isEmpty {
            guard let g = GEOSGeom_createEmptyLineString_r(raw) else {
                throw error("GEOSGeom_createEmptyLineString_r")
            }
            return g
        }
        guard ps.count >= 2 else {
            throw GeoError(
                .invalidArgument, "\(path) has 1 position; a line string needs at least 2")
        }
        let seq = try sequence(ps)
        // GEOSGeom_createLineString_r takes ownership of the sequence.
        guard let g = GEOSGeom_createLineString_r(raw, seq) else {
            throw error("GEOSGeom_createLineString_r")
        }
        return g
    }

    private func ring(_ ps: [Position], index: Int, path: String) throws(GeoError) -> OpaquePointer
    {
        if let problem = WKTParser.ringProblem(ps, index: index, minimumCount: 4) {
            throw GeoError(.invalidArgument, "\(path) \(problem)")
        }
        let seq = try sequence(ps)
        // GEOSGeom_createLinearRing_r takes ownership of the sequence.
        guard let g = GEOSGeom_createLinearRing_r(raw, seq) else {
            throw error("GEOSGeom_createLinearRing_r")
        }
        return g
    }

    private func polygon(_ rings: [[Position]], path: String) throws(GeoError) -> OpaquePointer {
        guard let exterior = rings.first else {
            guard let g = GEOSGeom_createEmptyPolygon_r(raw) else {
                throw error("GEOSGeom_createEmptyPolygon_r")
            }
            return g
        }
        let shell = try ring(exterior, index: 0, path: path)
        var holes = [OpaquePointer?]()
        holes.reserveCapacity(rings.count - 1)
        for (i, hole) in rings.dropFirst().enumerated() {
            do {
                holes.append(try ring(hole, index: i + 1, path: path))
            } catch {
                destroy(holes.compactMap { $0 } + [shell])
                throw error
            }
        }
        // GEOSGeom_createPolygon_r takes ownership of the shell and the holes (not of the array); it
        // checks its arguments before taking them, so on failure they are still ours to free.
        guard let count = UInt32(exactly: holes.count) else {
            destroy(holes.compactMap { $0 } + [shell])
            throw GeoError(
                .invalidArgument,
                "\(path) has \(holes.count) holes; GEOS takes at most \(UInt32.max)")
        }
        let result = holes.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createPolygon_r(raw, shell, buffer.baseAddress, count)
        }
        guard let result else {
            let failure = error("GEOSGeom_createPolygon_r")
            destroy(holes.compactMap { $0 } + [shell])
            throw failure
        }
        return result
    }

    private func collection(
        _ type: Int32, _ members: [OpaquePointer]
    ) throws(GeoError) -> OpaquePointer {
        if members.isEmpty {
            guard let g = GEOSGeom_createEmptyCollection_r(raw, type) else {
                throw error("GEOSGeom_createEmptyCollection_r")
            }
            return g
        }
        var pointers = members.map { Optional($0) }
        guard let count = UInt32(exactly: pointers.count) else {
            destroy(members)
            throw GeoError(
                .invalidArgument, "\(members.count) members; GEOS takes at most \(UInt32.max)")
        }
        // GEOSGeom_createCollection_r takes ownership of the members (not of the array).
        let result = pointers.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createCollection_r(raw, type, buffer.baseAddress, count)
        }
        guard let result else {
            let failure = error("GEOSGeom_createCollection_r")
            destroy(members)
            throw failure
        }
        return result
    }

    /// A coordinate sequence with the positions, 3-dimensional if any has a height (NaN for the
    /// others, which GEOS reads as "no height"). The caller owns it until a constructor takes it.
    private func sequence(_ ps: [Position]) throws(GeoError) -> OpaquePointer {
        let hasZ = ps.contains { $0.z != nil }
        guard let size = UInt32(exactly: ps.count) else {
            throw GeoError(
                .invalidArgument,
                "\(ps.count) positions in one line; GEOS takes at most \(UInt32.max)")
        }
        let stride = hasZ ? 3 : 2
        var buffer = [Double](repeating: 0, count: ps.count * stride)
        for (i, p) in ps.enumerated() {
            buffer[i * stride] = p.x
            buffer[i * stride + 1] = p.y
            if hasZ { buffer[i * stride + 2] = p.z ?? .nan }
        }
        let seq = buffer.withUnsafeBufferPointer { b in
            GEOSCoordSeq_copyFromBuffer_r(raw, b.baseAddress, size, hasZ ? 1 : 0, 0)
        }
        guard let seq else { throw error("GEOSCoordSeq_copyFromBuffer_r") }
        return seq
    }

    private func destroy(_ geometries: [OpaquePointer]) {
        for g in geometries { GEOSGeom_destroy_r(raw, g) }
    }
}

// MARK: - GEOS to Geometry

extension GEOSContext {
    /// The Swift value of a GEOS geometry (which stays owned by the caller).
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/geos`` if GEOS reports an error while it is read.
    func geometry(from g: OpaquePointer) throws(GeoError) -> Geometry {
        let type = GEOSGeomTypeId_r(raw, g)
        let empty = try bool(GEOSisEmpty_r(raw, g), "GEOSisEmpty_r")
        switch type {
        case Int32(GEOS_POINT.rawValue):
            if empty { return .point(nil) }
            return .point(try positions(of: g).first)
        case Int32(GEOS_LINESTRING.rawValue), Int32(GEOS_LINEARRING.rawValue):
            return .lineString(empty ? [] : try positions(of: g))
        case Int32(GEOS_POLYGON.rawValue):
            return .polygon(empty ? [] : try rings(of: g))
        case Int32(GEOS_MULTIPOINT.rawValue):
            var points = [Position]()
            for member in try members(of: g)
            where !(try bool(GEOSisEmpty_r(raw, member), "GEOSisEmpty_r")) {
                if let p = try positions(of: member).first { points.append(p) }
            }
            return .multiPoint(points)
        case Int32(GEOS_MULTILINESTRING.rawValue):
            return .multiLineString(
                try members(of: g).map { (member) throws(GeoError) in try positions(of: member) })
        case Int32(GEOS_MULTIPOLYGON.rawValue):
            return .multiPolygon(
                try members(of: g).map { (member) throws(GeoError) in
                    try bool(GEOSisEmpty_r(raw, member), "GEOSisEmpty_r")
                        ? [] : try rings(of: member)
                })
        case Int32(GEOS_GEOMETRYCOLLECTION.rawValue):
            return .geometryCollection(
                try members(of: g).map { (member) throws(GeoError) in try geometry(from: member) })
        default:
            throw error("GEOSGeomTypeId_r")
        }
    }

    private func members(of g: OpaquePointer) throws(GeoError) -> [OpaquePointer] {
        let count = GEOSGetNumGeometries_r(raw, g)
        guard count >= 0 else { throw error("GEOSGetNumGeometries_r") }
        var result = [OpaquePointer]()
        result.reserveCapacity(Int(count))
        for i in 0..<count {
            guard let member = GEOSGetGeometryN_r(raw, g, i) else {
                throw error("GEOSGetGeometryN_r")
            }
            result.append(member)
        }
        return result
    }

    private func rings(of polygon: OpaquePointer) throws(GeoError) -> [[Position]] {
        guard let exterior = GEOSGetExteriorRing_r(raw, polygon) else {
            throw error("GEOSGetExteriorRing_r")
        }
        var result = [try positions(of: exterior)]
        let holes = GEOSGetNumInteriorRings_r(raw, polygon)
        guard holes >= 0 else { throw error("GEOSGetNumInteriorRings_r") }
        for i in 0..<holes {
            guard let hole = GEOSGetInteriorRingN_r(raw, polygon, i) else {
                throw error("GEOSGetInteriorRingN_r")
            }
            result.append(try positions(of: hole))
        }
        return result
    }

    /// The positions of a point, line string or ring.
    private func positions(of g: OpaquePointer) throws(GeoError) -> [Position] {
        guard let seq = GEOSGeom_getCoordSeq_r(raw, g) else {
            throw error("GEOSGeom_getCoordSeq_r")
        }
        return try positions(ofSequence: seq, hasZ: try bool(GEOSHasZ_r(raw, g), "GEOSHasZ_r"))
    }

    /// The positions of a coordinate sequence (which stays owned by the caller).
    func positions(ofSequence seq: OpaquePointer, hasZ: Bool) throws(GeoError) -> [Position] {
        var size: UInt32 = 0
        guard GEOSCoordSeq_getSize_r(raw, seq, &size) != 0 else {
            throw error("GEOSCoordSeq_getSize_r")
        }
        let count = Int(size)
        if count == 0 { return [] }
        let stride = hasZ ? 3 : 2
        var buffer = [Double](repeating: 0, count: count * stride)
        let ok = buffer.withUnsafeMutableBufferPointer { b in
            GEOSCoordSeq_copyToBuffer_r(raw, seq, b.baseAddress, hasZ ? 1 : 0, 0)
        }
        guard ok != 0 else { throw error("GEOSCoordSeq_copyToBuffer_r") }
        var result = [Position]()
        result.reserveCapacity(count)
        for i in 0..<count {
            let z = hasZ ? buffer[i * stride + 2] : Double.nan
            result.append(
                Position(x: buffer[i * stride], y: buffer[i * stride + 1], z: z.isNaN ? nil : z))
        }
        return result
    }
}

// MARK: - Running operations

extension Geometry {
    /// Runs `body` with a pooled GEOS context and a GEOS copy of this geometry.
    func withGEOS<R: Sendable>(
        _ body: (GEOSContext, GEOSGeometryRef) throws(GeoError) -> R
    ) throws(GeoError) -> R {
        try GEOS.with { (context) throws(GeoError) -> R in
            let g = try context.make(self)
            return try withExtendedLifetime(g) { () throws(GeoError) -> R in try body(context, g) }
        }
    }

    /// Runs `body` with a pooled GEOS context and GEOS copies of this geometry and another.
    func withGEOS<R: Sendable>(
        _ other: Geometry,
        _ body: (GEOSContext, GEOSGeometryRef, GEOSGeometryRef) throws(GeoError) -> R
    ) throws(GeoError) -> R {
        try GEOS.with { (context) throws(GeoError) -> R in
            let a = try context.make(self)
            let b = try context.make(other)
            return try withExtendedLifetime((a, b)) { () throws(GeoError) -> R in
                try body(context, a, b)
            }
        }
    }

    /// A unary GEOS operation that returns a new geometry.
    func geosUnary(
        _ function: String, _ call: (GEOSContextHandle_t, OpaquePointer) -> OpaquePointer?
    ) throws(GeoError) -> Geometry {
        try withGEOS { (context, g) throws(GeoError) -> Geometry in
            try context.own(call(context.raw, g.raw), function).geometry()
        }
    }

    /// A binary GEOS operation that returns a new geometry.
    func geosBinary(
        _ other: Geometry, _ function: String,
        _ call: (GEOSContextHandle_t, OpaquePointer, OpaquePointer) -> OpaquePointer?
    ) throws(GeoError) -> Geometry {
        try withGEOS(other) { (context, a, b) throws(GeoError) -> Geometry in
            try context.own(call(context.raw, a.raw, b.raw), function).geometry()
        }
    }

    /// A binary GEOS predicate.
    func geosPredicate(
        _ other: Geometry, _ function: String,
        _ call: (GEOSContextHandle_t, OpaquePointer, OpaquePointer) -> CChar
    ) throws(GeoError) -> Bool {
        try withGEOS(other) { (context, a, b) throws(GeoError) -> Bool in
            try context.bool(call(context.raw, a.raw, b.raw), function)
        }
    }
}
