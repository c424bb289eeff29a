internal import CPROJ
import Foundation

// One PROJ context and the operation made in it, owned together: the PJ is destroyed before its
// context, both in `deinit`. Not `Sendable`: a `CoordinateTransformer` keeps each `ProjState` in a
// slot behind a lock, and only positions and errors leave it.

/// Collects what PROJ logs on one context, so an error can carry PROJ's own words.
final class ProjLog {
    var lastMessage: String?
}

/// The C callback PROJ calls with log messages; `appData` is the context's `ProjLog`.
private let projLogHandler: PJ_LOG_FUNCTION = { appData, _, message in
    guard let appData, let message else { return }
    let log = Unmanaged<ProjLog>.fromOpaque(appData).takeUnretainedValue()
    log.lastMessage = String(cString: message)
}

extension GeoError.Kind {
    /// PROJ's database `proj.db` could not be found or opened; the message lists the paths searched.
    public static let projDatabaseNotFound = GeoError.Kind("projDatabaseNotFound")
}

/// A PROJ context with one coordinate operation.
final class ProjState {
    private let context: OpaquePointer
    private let pj: OpaquePointer
    private let log: ProjLog
    /// Whether the operation takes / gives radians, per direction (index 0 forward, 1 inverse), so
    /// that callers can always use degrees, as `cct` does.
    private let angularInput: (Bool, Bool)
    private let angularOutput: (Bool, Bool)
    /// Whether the caller's input and output are angles in degrees, per direction.
    let degreesIn: (Bool, Bool)
    let degreesOut: (Bool, Bool)
    /// Whether PROJ can run the operation backwards (`proj_pj_info`'s `has_inverse` for a
    /// pipeline; always for an operation between two CRSs).
    let hasInverse: Bool
    /// The axes of the source and target CRS in the authority's order (before normalization).
    let sourceAxes: [CRSAxis]?
    let targetAxes: [CRSAxis]?

    init(
        _ definition: CoordinateTransformer.Definition,
        _ configuration: CoordinateTransformer.Configuration
    ) throws(GeoError) {
        guard let context = proj_context_create() else {
            throw GeoError(.proj, "proj_context_create failed")
        }
        let log = ProjLog()
        proj_log_level(context, PJ_LOG_ERROR)
        proj_log_func(context, Unmanaged.passUnretained(log).toOpaque(), projLogHandler)
        if let paths = configuration.searchPaths {
            Self.withCStrings(paths) { pointers in
                proj_context_set_search_paths(
                    context, Int32(clamping: pointers.count), pointers.baseAddress)
            }
        }
        _ = proj_context_set_enable_network(context, configuration.networkEnabled ? 1 : 0)
        if configuration.useProj4InitRules { proj_context_use_proj4_init_rules(context, 1) }

        let made: OpaquePointer?
        var axes: ([CRSAxis]?, [CRSAxis]?) = (nil, nil)
        switch definition {
        case .crsToCRS(let sourceText, let targetText):
            let source: String, target: String
            do throws(GeoError) {
                source = try Self.resolveCRS(context, sourceText, role: "source")
                target = try Self.resolveCRS(context, targetText, role: "target")
            } catch {
                proj_context_destroy(context)
                throw error
            }
            if let raw = proj_create_crs_to_crs(context, source, target, nil) {
                axes = (
                    Self.axes(context, proj_get_source_crs(context, raw)),
                    Self.axes(context, proj_get_target_crs(context, raw))
                )
                // Axis order is the library's job: geographic CRSs become (longitude, latitude).
                made = proj_normalize_for_visualization(context, raw)
                proj_destroy(raw)
            } else {
                made = nil
            }
        case .pipeline(let text):
            // PROJ 9.1 reads AUTHORITY:CODE as a CRS only; an operation's code (EPSG:1314) is
            // found through its URN.
            let operationURN = Self.operationURN(text)
            made =
                operationURN.flatMap { urn in
                    Self.quietly(log) { proj_create(context, urn) }
                } ?? proj_create(context, text)
            // A CRS (EPSG:32633, "+proj=utm +zone=33 +type=crs") is not an operation: PROJ
            // accepts it here and then fails every point, so it is refused now.
            if let pj = made, proj_is_crs(pj) != 0 {
                proj_destroy(pj)
                proj_context_destroy(context)
                throw GeoError(
                    .proj,
                    "\(definition) is a CRS, not a coordinate operation: transform between two CRSs (source and target) instead"
                )
            }
        }
        guard let pj = made else {
            let error = Self.creationError(context, log, definition, configuration)
            proj_context_destroy(context)
            throw error
        }
        self.context = context
        self.pj = pj
        self.log = log
        angularInput = (proj_angular_input(pj, PJ_FWD) != 0, proj_angular_input(pj, PJ_INV) != 0)
        angularOutput = (proj_angular_output(pj, PJ_FWD) != 0, proj_angular_output(pj, PJ_INV) != 0)
        degreesIn = (
            angularInput.0 || proj_degree_input(pj, PJ_FWD) != 0,
            angularInput.1 || proj_degree_input(pj, PJ_INV) != 0
        )
        degreesOut = (
            angularOutput.0 || proj_degree_output(pj, PJ_FWD) != 0,
            angularOutput.1 || proj_degree_output(pj, PJ_INV) != 0
        )
        // Between two CRSs PROJ may hold several candidate operations, picked per point, and
        // `proj_pj_info` knows none of them before the first point (it reports no inverse):
        // such a transformer is taken to run both ways, and a point it cannot take back fails
        // on its own. A single operation or pipeline says what it can do.
        switch definition {
        case .crsToCRS: hasInverse = true
        case .pipeline: hasInverse = proj_pj_info(pj).has_inverse != 0
        }
        sourceAxes = axes.0
        targetAxes = axes.1
    }

    /// The OGC URN of a coordinate operation given as AUTHORITY:CODE (`EPSG:1314` →
    /// `urn:ogc:def:coordinateOperation:EPSG::1314`), or `nil` for any other text.
    static func operationURN(_ text: String) -> String? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = parts[0].first, first.isLetter,
            parts[0].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !parts[1].isEmpty,
            parts[1].allSatisfy({ $0.isLetter || $0.isNumber || "_.-".contains($0) })
        else { return nil }
        return "urn:ogc:def:coordinateOperation:\(parts[0])::\(parts[1])"
    }

    /// Runs an attempt whose failure is not the caller's error: PROJ's messages from it are
    /// dropped, so a later failure reports its own.
    private static func quietly<R>(_ log: ProjLog, _ body: () -> R?) -> R? {
        let result = body()
        if result == nil { log.lastMessage = nil }
        return result
    }

    /// A CRS as `proj_create_crs_to_crs` should see it, refusing what PROJ 9.1 would match loosely.
    ///
    /// AUTHORITY:CODE (`EPSG:4326`), URNs and URLs, WKT, PROJJSON and PROJ strings pass as they
    /// are. Anything else is taken as a CRS name or alias and must match one exactly (ignoring
    /// case): `proj_create` would otherwise turn "foo" into Amersfoort and "wgs" into WGS 72.
    /// A name several CRSs share is read as ``preferred(_:text:role:)`` says.
    /// - Throws: ``GeoError/Kind-swift.struct/proj`` naming the text and the closest CRS names, or
    ///   the CRSs an ambiguous name could mean.
    static func resolveCRS(
        _ context: OpaquePointer, _ text: String, role: String
    ) throws(GeoError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if isStructuredCRS(trimmed) { return trimmed }
        guard !trimmed.isEmpty else {
            throw GeoError(.proj, "the \(role) CRS is empty")
        }
        let exact = names(context, trimmed, approximate: false, limit: 64)
        if let match = try preferred(exact, text: trimmed, role: role) { return match }
        let close = names(context, trimmed, approximate: true, limit: 5)
        let suggestions =
            close.isEmpty
            ? ""
            : "; closest names: " + close.map { "\($0.name) (\($0.code))" }.joined(separator: ", ")
        throw GeoError(
            .proj,
            "unknown \(role) CRS \(GeoError.quoted(trimmed)): not an AUTHORITY:CODE, WKT, PROJJSON or PROJ string, and no CRS is named so\(suggestions)"
        )
    }

    /// Whether a CRS text is a definition PROJ reads without guessing: AUTHORITY:CODE, a URN or
    /// URL, WKT, PROJJSON or a PROJ string.
    static func isStructuredCRS(_ text: String) -> Bool {
        let lower = text.lowercased()
        if lower.hasPrefix("urn:") || lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            return true
        }
        if text.hasPrefix("{") || text.hasPrefix("+") || lower.hasPrefix("proj=")
            || lower.contains("+proj=")
        {
            return true
        }
        // WKT: a keyword followed by '['.
        if let open = text.firstIndex(of: "["),
            !text[..<open].isEmpty,
            text[..<open].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        {
            return true
        }
        // AUTHORITY:CODE, such as EPSG:4326, ESRI:54009, IGNF:LAMB93 or OGC:CRS84, and a
        // compound of a horizontal and a vertical CRS, EPSG:4326+5773 (PROJ's own shorthand).
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, let first = parts[0].first, first.isLetter,
            parts[0].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        {
            let codes = parts[1].split(separator: "+", omittingEmptySubsequences: false)
            return codes.count <= 2
                && codes.allSatisfy { code in
                    !code.isEmpty
                        && code.allSatisfy { $0.isLetter || $0.isNumber || "_.-".contains($0) }
                }
        }
        return false
    }

    /// The CRS a name means among those it matches exactly, `nil` when it matches none.
    ///
    /// Many names belong to several CRSs of one datum: "GDA2020" is EPSG:7842 (Earth-centered),
    /// EPSG:7843 (3D) and EPSG:7844 (latitude and longitude), and "WGS 84" is EPSG:4978, 4979 and
    /// 4326. As PROJ reads such a name: the first kind present of geographic 2D, projected,
    /// compound, vertical, geographic 3D, Earth-centered, then any other; of that kind, the CRSs
    /// named so rather than those with it as an alias ("ETRS89" is EPSG:4258's name and an alias
    /// of IRENET95, EPSG:4173); of those, the one CRS of EPSG if there is one, else the only one.
    /// (Of the 2,031 names several CRSs share in PROJ 9.1.1's database, this picks the CRS that
    /// PROJ's `proj_create` gives for each of the 1,623 that it reads.)
    /// - Throws: ``GeoError/Kind-swift.struct/proj`` listing the CRSs when that still leaves
    ///   several: the caller gives the AUTHORITY:CODE it means.
    private static func preferred(
        _ matches: [(name: String, code: String, type: PJ_TYPE)], text: String, role: String
    ) throws(GeoError) -> String? {
        guard matches.count > 1 else { return matches.first?.code }
        let kinds: [PJ_TYPE] = [
            PJ_TYPE_GEOGRAPHIC_2D_CRS, PJ_TYPE_PROJECTED_CRS, PJ_TYPE_COMPOUND_CRS,
            PJ_TYPE_VERTICAL_CRS, PJ_TYPE_GEOGRAPHIC_3D_CRS, PJ_TYPE_GEOCENTRIC_CRS,
        ]
        let rank = { (type: PJ_TYPE) in kinds.firstIndex(of: type) ?? kinds.count }
        let best = matches.map { rank($0.type) }.min() ?? kinds.count
        let ofKind = matches.filter { rank($0.type) == best }
        let named = ofKind.filter { $0.name.lowercased() == text.lowercased() }
        let candidates = named.isEmpty ? ofKind : named
        let epsg = candidates.filter { $0.code.uppercased().hasPrefix("EPSG:") }
        if candidates.count == 1 { return candidates[0].code }
        if epsg.count == 1 { return epsg[0].code }
        let listed = candidates.prefix(8).map { "\($0.code) (\($0.name))" }.joined(separator: ", ")
        throw GeoError(
            .proj,
            "the \(role) CRS name \(GeoError.quoted(text)) names several CRSs: \(listed)\(candidates.count > 8 ? ", …" : ""); give the AUTHORITY:CODE meant"
        )
    }

    /// CRSs whose name or alias matches a text (exactly, ignoring case, or approximately), as
    /// (name, AUTHORITY:CODE, type).
    private static func names(
        _ context: OpaquePointer, _ text: String, approximate: Bool, limit: Int
    ) -> [(name: String, code: String, type: PJ_TYPE)] {
        let types: [PJ_TYPE] = [
            PJ_TYPE_GEOGRAPHIC_2D_CRS, PJ_TYPE_GEOGRAPHIC_3D_CRS, PJ_TYPE_GEOCENTRIC_CRS,
            PJ_TYPE_PROJECTED_CRS, PJ_TYPE_COMPOUND_CRS, PJ_TYPE_VERTICAL_CRS,
            PJ_TYPE_ENGINEERING_CRS, PJ_TYPE_BOUND_CRS, PJ_TYPE_OTHER_CRS,
        ]
        guard
            let list = types.withUnsafeBufferPointer({ buffer in
                proj_create_from_name(
                    context, nil, text, buffer.baseAddress, buffer.count, approximate ? 1 : 0,
                    limit, nil)
            })
        else { return [] }
        defer { proj_list_destroy(list) }
        var result = [(name: String, code: String, type: PJ_TYPE)]()
        for i in 0..<proj_list_get_count(list) {
            guard let object = proj_list_get(context, list, i) else { continue }
            defer { proj_destroy(object) }
            guard let authority = proj_get_id_auth_name(object, 0),
                let code = proj_get_id_code(object, 0)
            else { continue }
            result.append(
                (
                    proj_get_name(object).map { String(cString: $0) } ?? "",
                    String(cString: authority) + ":" + String(cString: code),
                    proj_get_type(object)
                ))
        }
        return result
    }

    /// The axes of a CRS (which this call destroys): its coordinate system's; a compound CRS's
    /// horizontal axes then its vertical one (EPSG:4326+5773: longitude, latitude, height); a
    /// bound CRS's base CRS's. `nil` when they cannot be told.
    private static func axes(_ context: OpaquePointer, _ crs: OpaquePointer?) -> [CRSAxis]? {
        guard let crs else { return nil }
        defer { proj_destroy(crs) }
        switch proj_get_type(crs) {
        case PJ_TYPE_COMPOUND_CRS:
            var result = [CRSAxis]()
            for index in 0..<2 {
                guard let part = axes(context, proj_crs_get_sub_crs(context, crs, Int32(index)))
                else { return nil }
                result += part
            }
            return result
        case PJ_TYPE_BOUND_CRS:
            return axes(context, proj_get_source_crs(context, crs))
        default:
            return coordinateSystemAxes(context, crs)
        }
    }

    /// The axes of a single CRS's coordinate system (the CRS stays the caller's).
    private static func coordinateSystemAxes(
        _ context: OpaquePointer, _ crs: OpaquePointer
    ) -> [CRSAxis]? {
        guard let cs = proj_crs_get_coordinate_system(context, crs) else { return nil }
        defer { proj_destroy(cs) }
        let count = proj_cs_get_axis_count(context, cs)
        guard count > 0 else { return nil }
        var result = [CRSAxis]()
        for i in 0..<count {
            var name: UnsafePointer<CChar>?, abbreviation: UnsafePointer<CChar>?,
                direction: UnsafePointer<CChar>?
            var unitName: UnsafePointer<CChar>?
            var factor = 0.0
            guard
                proj_cs_get_axis_info(
                    context, cs, i, &name, &abbreviation, &direction, &factor, &unitName, nil, nil)
                    != 0
            else {
                return nil
            }
            result.append(
                CRSAxis(
                    name: name.map { String(cString: $0) } ?? "",
                    abbreviation: abbreviation.map { String(cString: $0) } ?? "",
                    direction: direction.map { String(cString: $0) } ?? "",
                    unitName: unitName.map { String(cString: $0) } ?? "",
                    unitToSI: factor))
        }
        return result
    }

    deinit {
        proj_destroy(pj)
        proj_context_destroy(context)
    }

    // MARK: One point

    /// Transforms one 4D coordinate in degrees (for angular axes) and meters.
    func transform(
        _ x: Double, _ y: Double, _ z: Double, _ t: Double,
        _ direction: CoordinateTransformer.Direction
    ) throws(GeoError) -> (Double, Double, Double, Double) {
        let dir = direction == .forward ? PJ_FWD : PJ_INV
        let inputScale =
            (direction == .forward ? angularInput.0 : angularInput.1) ? Double.pi / 180 : 1
        let outputScale =
            (direction == .forward ? angularOutput.0 : angularOutput.1) ? 180 / Double.pi : 1
        proj_errno_reset(pj)
        log.lastMessage = nil
        let input = PJ_COORD(v: (x * inputScale, y * inputScale, z, t))
        let output = proj_trans(pj, dir, input)
        let errno = proj_errno(pj)
        let v = output.v
        guard errno == 0, v.0 != .infinity, v.1 != .infinity, !v.0.isNaN, !v.1.isNaN else {
            throw pointError(errno, x, y)
        }
        return (v.0 * outputScale, v.1 * outputScale, v.2, v.3)
    }

    // MARK: Batches

    /// How many points are transformed per `proj_trans_generic` call; the inputs of one chunk are kept
    /// on the stack so that a failed point can be re-run alone to learn why it failed.
    static let chunkSize = 512

    /// Transforms points in place in strided storage through `proj_trans_generic`, chunk by chunk.
    ///
    /// Failed points are set to NaN and reported with their index and PROJ's reason; `HUGE_VAL` never
    /// reaches the caller. `z` may be `nil` (heights taken as 0, as `proj_trans_generic` does).
    func transformBatch(
        x: UnsafeMutablePointer<Double>, y: UnsafeMutablePointer<Double>,
        z: UnsafeMutablePointer<Double>?,
        stride: Int, count: Int, time: Double?, times: UnsafeMutablePointer<Double>? = nil,
        direction: CoordinateTransformer.Direction,
        indexOffset: Int = 0, failures: inout [CoordinateTransformer.PointFailure]
    ) {
        let dir = direction == .forward ? PJ_FWD : PJ_INV
        let toRadians = direction == .forward ? angularInput.0 : angularInput.1
        let toDegrees = direction == .forward ? angularOutput.0 : angularOutput.1
        let elementStride = stride / MemoryLayout<Double>.stride
        var timeValue = time ?? .infinity
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 * Self.chunkSize) { saved in
            var start = 0
            while start < count {
                let n = min(Self.chunkSize, count - start)
                let xs = x + start * elementStride, ys = y + start * elementStride
                let zs = z.map { $0 + start * elementStride }
                let ts = times.map { $0 + start * elementStride }
                for i in 0..<n {
                    saved[4 * i] = xs[i * elementStride]
                    saved[4 * i + 1] = ys[i * elementStride]
                    saved[4 * i + 2] = zs?[i * elementStride] ?? 0
                    saved[4 * i + 3] = ts?[i * elementStride] ?? time ?? .infinity
                }
                if toRadians {
                    for i in 0..<n {
                        xs[i * elementStride] *= .pi / 180
                        ys[i * elementStride] *= .pi / 180
                    }
                }
                proj_errno_reset(pj)
                if let ts {
                    _ = proj_trans_generic(
                        pj, dir, xs, stride, n, ys, stride, n, zs, zs == nil ? 0 : stride,
                        zs == nil ? 0 : n, ts, stride, n)
                } else {
                    _ = proj_trans_generic(
                        pj, dir, xs, stride, n, ys, stride, n, zs, zs == nil ? 0 : stride,
                        zs == nil ? 0 : n, &timeValue, 0, time == nil ? 0 : 1)
                }
                for i in 0..<n {
                    let xi = xs[i * elementStride], yi = ys[i * elementStride]
                    if xi == .infinity || yi == .infinity || xi.isNaN || yi.isNaN {
                        failures.append(
                            failure(
                                at: indexOffset + start + i, saved[4 * i], saved[4 * i + 1],
                                saved[4 * i + 2], saved[4 * i + 3], direction))
                        xs[i * elementStride] = .nan
                        ys[i * elementStride] = .nan
                        if let zs { zs[i * elementStride] = .nan }
                        if let ts { ts[i * elementStride] = .nan }
                    } else if toDegrees {
                        xs[i * elementStride] = xi * (180 / .pi)
                        ys[i * elementStride] = yi * (180 / .pi)
                    }
                }
                start += n
            }
        }
    }

    /// Transforms positions in place, chunk by chunk: x and y are transformed where they are (they are
    /// doubles at fixed offsets of each element); a chunk in which some position has a height goes
    /// through a small 3D scratch buffer instead. Failed points become NaN and are reported.
    func transformPositions(
        _ base: UnsafeMutablePointer<Position>, count: Int,
        direction: CoordinateTransformer.Direction,
        failures: inout [CoordinateTransformer.PointFailure]
    ) {
        let stride = MemoryLayout<Position>.stride
        let xOffset = MemoryLayout<Position>.offset(of: \Position.x) ?? 0
        let yOffset = MemoryLayout<Position>.offset(of: \Position.y) ?? MemoryLayout<Double>.stride
        let raw = UnsafeMutableRawPointer(base)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * Self.chunkSize) { scratch in
            guard let scratchBase = scratch.baseAddress else { return }
            var start = 0
            while start < count {
                let n = min(Self.chunkSize, count - start)
                var hasZ = false
                for i in start..<(start + n) where base[i].z != nil {
                    hasZ = true
                    break
                }
                if !hasZ {
                    let x = (raw + start * stride + xOffset).assumingMemoryBound(to: Double.self)
                    let y = (raw + start * stride + yOffset).assumingMemoryBound(to: Double.self)
                    transformBatch(
                        x: x, y: y, z: nil, stride: stride, count: n, time: nil,
                        direction: direction, indexOffset: start,
                        failures: &failures)
                } else {
                    let xs = scratchBase, ys = scratchBase + Self.chunkSize,
                        zs = scratchBase + 2 * Self.chunkSize
                    for i in 0..<n {
                        xs[i] = base[start + i].x
                        ys[i] = base[start + i].y
                        zs[i] = base[start + i].z ?? 0
                    }
                    transformBatch(
                        x: xs, y: ys, z: zs, stride: MemoryLayout<Double>.stride, count: n,
                        time: nil, direction: direction,
                        indexOffset: start, failures: &failures)
                    for i in 0..<n {
                        let z = base[start + i].z == nil ? nil : Optional(zs[i])
                        base[start + i] = Position(x: xs[i], y: ys[i], z: z)
                    }
                }
                start += n
            }
        }
    }

    /// Re-runs one failed point alone to get PROJ's reason.
    private func failure(
        at index: Int, _ x: Double, _ y: Double, _ z: Double, _ time: Double,
        _ direction: CoordinateTransformer.Direction
    ) -> CoordinateTransformer.PointFailure {
        do {
            _ = try transform(x, y, z, time, direction)
            // Succeeded alone: PROJ failed it in the batch for a reason it no longer reports.
            return .init(
                index: index, error: GeoError(.proj, "(\(x), \(y)) could not be transformed"))
        } catch {
            return .init(index: index, error: error)
        }
    }

    // MARK: Errors

    private func pointError(_ errno: Int32, _ x: Double, _ y: Double) -> GeoError {
        let code = errno == 0 ? Int(PROJ_ERR_COORD_TRANSFM) : Int(errno)
        let reason =
            proj_context_errno_string(context, Int32(clamping: code)).map { String(cString: $0) }
            ?? "transformation failed"
        var message = "(\(x), \(y)) could not be transformed: \(reason)"
        if let detail = log.lastMessage, !detail.isEmpty, detail != reason {
            message += " (\(detail))"
        }
        return GeoError(.proj, message, code: code)
    }

    private static func creationError(
        _ context: OpaquePointer, _ log: ProjLog, _ definition: CoordinateTransformer.Definition,
        _ configuration: CoordinateTransformer.Configuration
    ) -> GeoError {
        let errno = proj_context_errno(context)
        let reason =
            proj_context_errno_string(context, errno).map { String(cString: $0) } ?? "unknown error"
        let detail = log.lastMessage
        // A CRS that needs the database fails when proj.db cannot be opened: say where we looked.
        if proj_context_get_database_path(context) == nil {
            let paths = searchedPaths(configuration)
            return GeoError(
                .projDatabaseNotFound,
                "PROJ's database proj.db was not found or could not be opened (searched: \(paths.joined(separator: ", "))); set PROJ_DATA or CoordinateTransformer.Configuration.searchPaths. \(definition): \(detail ?? reason)",
                code: Int(errno))
        }
        var message = "\(definition): \(reason)"
        if let detail, !detail.isEmpty, detail != reason {
            // PROJ 9.1 has no text for some error numbers ("Unknown error (code 4096)"): leave it out.
            message =
                reason.hasPrefix("Unknown error")
                ? "\(definition): \(detail)" : "\(definition): \(detail) (\(reason))"
        }
        return GeoError(.proj, message, code: Int(errno))
    }

    /// Where PROJ looks for `proj.db` with a configuration: the configured paths, or `PROJ_DATA` /
    /// `PROJ_LIB` and PROJ's built-in search path.
    static func searchedPaths(_ configuration: CoordinateTransformer.Configuration) -> [String] {
        if let paths = configuration.searchPaths { return paths }
        var result = [String]()
        let environment = ProcessInfo.processInfo.environment
        for name in ["PROJ_DATA", "PROJ_LIB"] {
            if let value = environment[name] {
                result += value.split(separator: ":").map { "\(name)=\($0)" }
            }
        }
        if let builtIn = proj_info().searchpath {
            result += String(cString: builtIn).split(separator: ":").map(String.init)
        }
        return result
    }

    private static func withCStrings<R>(
        _ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R
    ) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer(body)
    }
}
