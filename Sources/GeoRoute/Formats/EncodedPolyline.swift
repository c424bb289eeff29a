import Foundation
import GeoCore

/// Google's Encoded Polyline Algorithm Format at any precision: the compact text form in which
/// directions services (Google, OSRM, Valhalla, Mapbox) send route geometry.
///
/// Each latitude and longitude is multiplied by 10^precision, rounded half away from zero (as
/// Google's reference encoder and the common libraries do), and written as the signed difference
/// from the previous point: zig-zag coded (`v << 1`, inverted when negative), split into 5-bit
/// chunks from the least significant, each chunk ORed with 0x20 when another follows and offset by 63
/// into the printable range `?`…`~`. Precision 5 (Google) and 6 (OSRM, Valhalla) are the common
/// ones; the order is latitude, longitude.
///
/// ```swift
/// let text = try EncodedPolyline.encode([
///     Coordinate(latitude: 38.5, longitude: -120.2),
///     Coordinate(latitude: 40.7, longitude: -120.95),
///     Coordinate(latitude: 43.252, longitude: -126.453),
/// ])                                                   // "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
/// let points = try EncodedPolyline.decode(text)        // the three points again
/// ```
///
/// Decoding never traps on bad input. A character outside the alphabet, a value cut off at the end
/// of the text, a value too large for 64 bits, a running sum that overflows and a latitude with no
/// longitude each throw a `GeoError` of kind
/// `GeoError.Kind.malformedInput` whose `GeoError.offset` is the
/// zero-based character offset of the offending character or value. Values are not range-checked
/// as coordinates: the format carries any numbers (some services encode elevations or times with
/// it), so validate decoded coordinates where they must be positions. Decoding and encoding again
/// gives the same coordinates for every value below 2⁵⁰ units of 10^-precision (about 1.1 × 10¹⁰
/// at precision 5); beyond that a `Double` cannot hold the decoded integer exactly.
public enum EncodedPolyline {
    /// The precisions accepted: 10^precision must be an exact `Double`, which holds up to 22.
    public static let precisionRange = 0...22

    // MARK: - Encoding

    /// Encodes coordinates as one encoded polyline.
    ///
    /// - Parameters:
    ///   - coordinates: The points, latitude first in the output; not range-checked.
    ///   - precision: Decimal digits kept, in ``precisionRange``; 5 by default.
    /// - Returns: The encoded text (empty for no coordinates).
    /// - Throws: `GeoError.Kind.invalidArgument` for a precision outside
    ///   ``precisionRange``; `GeoError.Kind.invalidCoordinate` naming the
    ///   index of a coordinate that is NaN or infinite or whose scaled value or difference from the
    ///   previous point does not fit in 63 bits.
    /// - Complexity: O(n); the result is written in place, with no other allocation.
    public static func encode(
        _ coordinates: [Coordinate], precision: Int = 5
    ) throws(GeoError) -> String {
        let factor = try scale(precision)
        var failedIndex = -1
        let text = coordinates.withUnsafeBufferPointer { points in
            String(
                unsafeUninitializedCapacity: max(1, points.count &* 2 &* maximumCharactersPerValue)
            ) { buffer in
                var writer = ChunkWriter(buffer: buffer)
                var previousLatitude: Int64 = 0, previousLongitude: Int64 = 0
                for index in 0..<points.count {
                    let c = points[index]
                    guard let latitude = scaled(c.latitude, factor),
                        let longitude = scaled(c.longitude, factor),
                        writer.write(latitude &- previousLatitude),
                        writer.write(longitude &- previousLongitude)
                    else {
                        failedIndex = index
                        return 0
                    }
                    previousLatitude = latitude
                    previousLongitude = longitude
                }
                return writer.count
            }
        }
        if failedIndex >= 0 {
            let c = coordinates[failedIndex]
            throw GeoError(
                .invalidCoordinate,
                "coordinate \(failedIndex) (\(c.latitude), \(c.longitude)) cannot be encoded at precision \(precision): "
                    + "it is not finite or too large")
        }
        return text
    }

    /// Encodes one signed number on its own, as the format encodes each latitude or longitude
    /// difference (Google's documentation encodes −179.9832104 as a backtick followed by `~oia@`).
    ///
    /// - Throws: `GeoError.Kind.invalidArgument` for a precision outside
    ///   ``precisionRange``, or a value that is not finite or does not fit in 62 bits once scaled.
    public static func encode(value: Double, precision: Int = 5) throws(GeoError) -> String {
        let factor = try scale(precision)
        guard let scaledValue = scaled(value, factor) else {
            throw GeoError(
                .invalidArgument, "value \(value) cannot be encoded at precision \(precision)")
        }
        return String(unsafeUninitializedCapacity: maximumCharactersPerValue) { buffer in
            var writer = ChunkWriter(buffer: buffer)
            _ = writer.write(scaledValue)
            return writer.count
        }
    }

    // MARK: - Decoding

    /// Decodes one encoded polyline.
    ///
    /// - Parameters:
    ///   - encoded: The encoded text, without surrounding whitespace.
    ///   - precision: The precision it was encoded with, in ``precisionRange``; 5 by default.
    ///   - limits: What the decoder accepts: the length of the text and the number of positions.
    /// - Returns: The points in order (empty for empty text), each the decoded integer divided by
    ///   10^precision.
    /// - Throws: `GeoError.Kind.invalidArgument` for a precision outside
    ///   ``precisionRange``; `GeoError.Kind.malformedInput` with the offset of
    ///   the first problem: a character outside `?`…`~`, a value the text ends inside of, a value over
    ///   64 bits, a running sum that overflows, or a final latitude with no longitude;
    ///   `GeoError.Kind.limitExceeded` naming the limit.
    /// - Complexity: O(n) in the length of the text; one allocation, for the result.
    public static func decode(
        _ encoded: some StringProtocol, precision: Int = 5, limits: InputLimits = .standard
    ) throws(GeoError) -> [Coordinate] {
        let factor = try scale(precision)
        try limits.checkSize(encoded.utf8.count, format: "encoded polyline")
        var failure = Failure()
        var result = encoded.utf8.withContiguousStorageIfAvailable { bytes in
            decode(bytes: bytes, factor: factor, failure: &failure)
        }
        if result == nil {
            let bytes = Array(encoded.utf8)
            result = bytes.withUnsafeBufferPointer {
                decode(bytes: $0, factor: factor, failure: &failure)
            }
        }
        if failure.problem != .none {
            var bytes = [UInt8]()
            bytes.reserveCapacity(4)
            let utf8 = encoded.utf8
            var index =
                utf8.index(utf8.startIndex, offsetBy: failure.offset, limitedBy: utf8.endIndex)
                ?? utf8.endIndex
            while index < utf8.endIndex && bytes.count < 4 {
                bytes.append(utf8[index])
                index = utf8.index(after: index)
            }
            throw failure.error(bytesAtOffset: bytes, length: utf8.count)
        }
        let coordinates = result ?? []
        guard coordinates.count <= limits.maximumPositions else {
            throw GeoError(
                .limitExceeded,
                "encoded polyline has more positions than InputLimits.maximumPositions (\(limits.maximumPositions))"
            )
        }
        return coordinates
    }

    /// What went wrong while decoding, and where; turned into a `GeoError` only once.
    struct Failure {
        enum Problem { case none, character, truncated, tooLarge, oddCount, sumOverflow }
        var problem = Problem.none
        var offset = 0

        func error(bytesAtOffset bytes: [UInt8], length: Int) -> GeoError {
            let message: String
            switch problem {
            case .character:
                let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first
                // Quoted as every error quotes input: control characters (C1 included) spelled out.
                let shown =
                    scalar.map {
                        "\(GeoError.quoted(String($0))) (U+\(String($0.value, radix: 16, uppercase: true)))"
                    } ?? "byte \(bytes.first ?? 0)"
                message =
                    "character \(shown) at offset \(offset) is outside the encoded polyline alphabet '?'...'~'"
            case .truncated:
                message =
                    "the value at offset \(offset) is cut off: the text ends at offset \(length) while it continues"
            case .tooLarge:
                message = "the value at offset \(offset) does not fit in 64 bits"
            case .oddCount:
                message =
                    "the latitude at offset \(offset) has no longitude: the text ends after an odd number of values"
            case .sumOverflow:
                message = "the running sum overflows 64 bits at the value at offset \(offset)"
            case .none:
                message = "no error"
            }
            return GeoError(.malformedInput, message, offset: offset)
        }
    }

    private static func decode(
        bytes: UnsafeBufferPointer<UInt8>, factor: Double, failure: inout Failure
    ) -> [Coordinate] {
        let n = bytes.count
        guard n > 0, let base = bytes.baseAddress else { return [] }
        // Every value ends with a byte whose continuation bit is clear: count them to size the result.
        var terminators = 0
        for b in bytes { terminators &+= Int(((b &- 63) >> 5) & 1 ^ 1) }
        return [Coordinate](unsafeUninitializedCapacity: terminators / 2 + 1) {
            buffer, initialized in
            initialized = 0
            guard let out = buffer.baseAddress else { return }
            var i = 0
            var latitude: Int64 = 0, longitude: Int64 = 0
            var count = 0
            while i < n {
                let latitudeStart = i
                guard let dLatitude = readValue(base, n, &i, &failure) else { break }
                guard i < n else {
                    failure = Failure(problem: .oddCount, offset: latitudeStart)
                    break
                }
                let longitudeStart = i
                guard let dLongitude = readValue(base, n, &i, &failure) else { break }
                let (lat, latOverflow) = latitude.addingReportingOverflow(dLatitude)
                let (lon, lonOverflow) = longitude.addingReportingOverflow(dLongitude)
                guard !latOverflow && !lonOverflow, count < buffer.count else {
                    failure = Failure(
                        problem: .sumOverflow, offset: latOverflow ? latitudeStart : longitudeStart)
                    break
                }
                latitude = lat
                longitude = lon
                (out + count).initialize(
                    to: Coordinate(latitude: Double(lat) / factor, longitude: Double(lon) / factor))
                count &+= 1
            }
            initialized = count
        }
    }

    /// Reads one zig-zag coded value starting at `i` and moves `i` past it; `nil` after recording a
    /// failure.
    @inline(__always)
    private static func readValue(
        _ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int, _ failure: inout Failure
    ) -> Int64? {
        let start = i
        var chunk = UInt64(p[i] &- 63)
        guard p[i] >= 63 && p[i] <= 126 else {
            failure = Failure(problem: .character, offset: i)
            return nil
        }
        i &+= 1
        var accumulated = chunk & 0x1F
        var shift: UInt64 = 5
        while chunk & 0x20 != 0 {
            guard i < n else {
                failure = Failure(problem: .truncated, offset: start)
                return nil
            }
            let byte = p[i]
            guard byte >= 63 && byte <= 126 else {
                failure = Failure(problem: .character, offset: i)
                return nil
            }
            chunk = UInt64(byte &- 63)
            i &+= 1
            // 13 chunks hold 65 bits: the last may only use its low 4, and must end the value.
            if shift >= 60 && (shift > 60 || chunk > 0xF) {
                failure = Failure(problem: .tooLarge, offset: start)
                return nil
            }
            accumulated |= (chunk & 0x1F) << shift
            shift &+= 5
        }
        // Zig-zag: the lowest bit is the sign; negative values were stored inverted.
        return Int64(bitPattern: (accumulated >> 1) ^ (0 &- (accumulated & 1)))
    }

    // MARK: - Scaling and writing values

    /// 64 bits in 5-bit chunks.
    static let maximumCharactersPerValue = 13

    private static func scale(_ precision: Int) throws(GeoError) -> Double {
        guard precisionRange.contains(precision) else {
            throw GeoError(
                .invalidArgument,
                "precision \(precision) is outside \(precisionRange.lowerBound)...\(precisionRange.upperBound)"
            )
        }
        var factor = 1.0
        for _ in 0..<precision { factor *= 10 }  // exact up to 10^22
        return factor
    }

    /// A number times the factor, rounded half away from zero (`floor(|x| + 0.5)` with the sign, as
    /// Google's reference encoder and the `polyline` packages round); `nil` if it is not finite or
    /// 2⁶¹ or more in magnitude, so that differences of two such values always fit the zig-zag code.
    @inline(__always)
    private static func scaled(_ value: Double, _ factor: Double) -> Int64? {
        let x = value * factor
        let rounded = (x.magnitude + 0.5).rounded(.down)
        guard rounded < 2_305_843_009_213_693_952 else { return nil }
        let magnitude = Int64(rounded)
        return x < 0 ? -magnitude : magnitude
    }

    /// Appends zig-zag coded values to a byte buffer.
    private struct ChunkWriter {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

        /// Writes one value (|value| < 2⁶²); `false`, writing nothing, if the buffer could not hold it.
        @inline(__always)
        mutating func write(_ value: Int64) -> Bool {
            var v = UInt64(bitPattern: value < 0 ? ~(value << 1) : value << 1)
            guard count &+ EncodedPolyline.maximumCharactersPerValue <= buffer.count else {
                return false
            }
            while v >= 0x20 {
                buffer[count] = UInt8(truncatingIfNeeded: (0x20 | (v & 0x1F)) + 63)
                count &+= 1
                v >>= 5
            }
            buffer[count] = UInt8(truncatingIfNeeded: v + 63)
            count &+= 1
            return true
        }
    }
}

// MARK: - Polyline

extension Polyline {
    /// Creates a polyline from an encoded polyline.
    ///
    /// - Parameters:
    ///   - encoded: Google's Encoded Polyline Algorithm Format text.
    ///   - precision: The precision it was encoded with; 5 by default (6 for OSRM and Valhalla).
    /// - Throws: The errors of ``EncodedPolyline/decode(_:precision:limits:)``;
    ///   `GeoError.Kind.notFound` for empty text;
    ///   `GeoError.Kind.invalidCoordinate` for a decoded point out of range.
    public init(encoded: some StringProtocol, precision: Int = 5) throws(GeoError) {
        try self.init(EncodedPolyline.decode(encoded, precision: precision))
    }

    /// The line as an encoded polyline.
    ///
    /// - Parameter precision: Decimal digits kept, in ``EncodedPolyline/precisionRange``; 5 by
    ///   default.
    /// - Throws: `GeoError.Kind.invalidArgument` for a precision outside the
    ///   range; `GeoError.Kind.invalidCoordinate` if a scaled value does not
    ///   fit in 63 bits (only possible above precision 16).
    public func encoded(precision: Int = 5) throws(GeoError) -> String {
        try EncodedPolyline.encode(coordinates, precision: precision)
    }
}
