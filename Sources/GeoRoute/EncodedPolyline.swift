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
/// longitude each throw a ``GeoCore/GeoError`` of kind
/// ``GeoCore/GeoError/Kind-swift.struct/malformedInput`` whose ``GeoCore/GeoError/offset`` is the
/// zero-based character offset of the offending character or value. Values are not range-checked
/// as coordinates: the format carries any numbers (some services encode elevations or times with
/// it), so validate decoded coordinates where they must be positions.
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
    /// - Throws: ``GeoCore/GeoError/Kind-swift.struct/invalidArgument`` for a precision outside
    ///   ``precisionRange``; ``GeoCore/GeoError/Kind-swift.struct/invalidCoordinate`` naming the
    ///   index of a coordinate that is NaN or infinite or whose scaled value or difference from the
    ///   previous point does not fit in 63 bits.
    /// - Complexity: O(n), no allocation beyond the result.
    public static func encode(_ coordinates: some Collection<Coordinate>, precision: Int = 5) throws(GeoError) -> String {
        let factor = try scale(precision)
        let capacity = coordinates.count &* 2 &* maximumCharactersPerValue
        var failure: GeoError?
        let text = String(unsafeUninitializedCapacity: max(capacity, 1)) { buffer in
            var writer = ChunkWriter(buffer: buffer)
            var previousLatitude: Int64 = 0, previousLongitude: Int64 = 0
            for (index, c) in coordinates.enumerated() {
                do throws(GeoError) {
                    let latitude = try scaled(c.latitude, factor, index: index, name: "latitude")
                    let longitude = try scaled(c.longitude, factor, index: index, name: "longitude")
                    let dLatitude = try difference(latitude, previousLatitude, index: index, name: "latitude")
                    let dLongitude = try difference(longitude, previousLongitude, index: index, name: "longitude")
                    guard writer.write(dLatitude) && writer.write(dLongitude) else { return writer.count }
                    previousLatitude = latitude
                    previousLongitude = longitude
                } catch {
                    failure = error
                    return 0
                }
            }
            return writer.count
        }
        if let failure { throw failure }
        return text
    }

    /// Encodes one signed number on its own, as the format encodes each latitude or longitude
    /// difference (Google's documentation encodes −179.9832104 as `` `~oia@ ``).
    ///
    /// - Throws: ``GeoCore/GeoError/Kind-swift.struct/invalidArgument`` for a precision outside
    ///   ``precisionRange``, or a value that is not finite or does not fit in 63 bits once scaled.
    public static func encode(value: Double, precision: Int = 5) throws(GeoError) -> String {
        let factor = try scale(precision)
        let scaledValue: Int64
        do throws(GeoError) {
            scaledValue = try scaled(value, factor, index: 0, name: "value")
        } catch {
            throw GeoError(.invalidArgument, error.message)
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
    /// - Returns: The points in order (empty for empty text), each the decoded integer divided by
    ///   10^precision.
    /// - Throws: ``GeoCore/GeoError/Kind-swift.struct/invalidArgument`` for a precision outside
    ///   ``precisionRange``; ``GeoCore/GeoError/Kind-swift.struct/malformedInput`` with the offset of
    ///   the first problem: a character outside `?`…`~`, a value the text ends inside of, a value over
    ///   64 bits, a running sum that overflows, or a final latitude with no longitude.
    /// - Complexity: O(n) in the length of the text; one allocation for the result.
    public static func decode(_ encoded: some StringProtocol, precision: Int = 5) throws(GeoError) -> [Coordinate] {
        let factor = try scale(precision)
        var result: Result<[Coordinate], GeoError>?
        _ = encoded.utf8.withContiguousStorageIfAvailable { bytes in
            result = decode(bytes: bytes, factor: factor)
        }
        if result == nil {
            let bytes = Array(encoded.utf8)
            result = bytes.withUnsafeBufferPointer { decode(bytes: $0, factor: factor) }
        }
        switch result {
        case .success(let coordinates): return coordinates
        case .failure(let error): throw error
        case nil: return []
        }
    }

    private static func decode(bytes: UnsafeBufferPointer<UInt8>, factor: Double) -> Result<[Coordinate], GeoError> {
        let n = bytes.count
        // Every value ends with a byte whose continuation bit is clear: count them to size the result.
        var terminators = 0
        for b in bytes where (b &- 63) & 0x20 == 0 { terminators &+= 1 }
        var coordinates = [Coordinate]()
        coordinates.reserveCapacity(terminators / 2 + 1)
        var i = 0
        var latitude: Int64 = 0, longitude: Int64 = 0
        while i < n {
            let latitudeStart = i
            let dLatitude: Int64
            switch readValue(bytes, &i) {
            case .success(let v): dLatitude = v
            case .failure(let e): return .failure(e)
            }
            guard i < n else {
                return .failure(GeoError(
                    .malformedInput,
                    "latitude at offset \(latitudeStart) has no longitude: the text ends after an odd number of values",
                    offset: latitudeStart))
            }
            let longitudeStart = i
            let dLongitude: Int64
            switch readValue(bytes, &i) {
            case .success(let v): dLongitude = v
            case .failure(let e): return .failure(e)
            }
            let (lat, latOverflow) = latitude.addingReportingOverflow(dLatitude)
            let (lon, lonOverflow) = longitude.addingReportingOverflow(dLongitude)
            guard !latOverflow && !lonOverflow else {
                let at = latOverflow ? latitudeStart : longitudeStart
                return .failure(GeoError(
                    .malformedInput, "the running sum overflows 64 bits at the value at offset \(at)", offset: at))
            }
            latitude = lat
            longitude = lon
            coordinates.append(Coordinate(latitude: Double(lat) / factor, longitude: Double(lon) / factor))
        }
        return .success(coordinates)
    }

    /// Reads one zig-zag coded value starting at `i` and moves `i` past it.
    @inline(__always)
    private static func readValue(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Result<Int64, GeoError> {
        let start = i
        var accumulated: UInt64 = 0
        var shift: UInt64 = 0
        let n = bytes.count
        while true {
            guard i < n else {
                return .failure(GeoError(
                    .malformedInput,
                    "the value at offset \(start) is cut off: the text ends at offset \(n) while it continues",
                    offset: start))
            }
            let byte = bytes[i]
            guard byte >= 63 && byte <= 126 else {
                return .failure(invalidCharacter(bytes, at: i))
            }
            let chunk = UInt64(byte &- 63)
            i &+= 1
            guard shift < 60 || (shift == 60 && chunk & 0x1F <= 0xF) else {
                return .failure(GeoError(
                    .malformedInput, "the value at offset \(start) does not fit in 64 bits", offset: start))
            }
            accumulated |= (chunk & 0x1F) << shift
            if chunk & 0x20 == 0 { break }
            shift &+= 5
            if shift > 60 {
                return .failure(GeoError(
                    .malformedInput, "the value at offset \(start) does not fit in 64 bits", offset: start))
            }
        }
        // Zig-zag: the lowest bit is the sign; negative values were stored inverted.
        return .success(Int64(bitPattern: (accumulated >> 1) ^ (0 &- (accumulated & 1))))
    }

    private static func invalidCharacter(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> GeoError {
        // All bytes before i are ASCII, so the byte offset is also the character offset.
        let rest = UnsafeBufferPointer(rebasing: bytes[i..<min(bytes.count, i + 4)])
        let scalar = String(decoding: rest, as: UTF8.self).unicodeScalars.first
        let shown = scalar.map { "'\($0.escaped(asASCII: false))' (U+\(String($0.value, radix: 16, uppercase: true)))" } ?? "byte \(bytes[i])"
        return GeoError(
            .malformedInput,
            "character \(shown) at offset \(i) is outside the encoded polyline alphabet '?'...'~'",
            offset: i)
    }

    // MARK: - Helpers

    /// 64 bits in 5-bit chunks.
    static let maximumCharactersPerValue = 13

    private static func scale(_ precision: Int) throws(GeoError) -> Double {
        guard precisionRange.contains(precision) else {
            throw GeoError(
                .invalidArgument,
                "precision \(precision) is outside \(precisionRange.lowerBound)...\(precisionRange.upperBound)")
        }
        var factor = 1.0
        for _ in 0..<precision { factor *= 10 }  // exact up to 10^22
        return factor
    }

    /// A number times the factor, rounded half away from zero (`floor(|x| + 0.5)` with the sign, as
    /// Google's reference encoder and the `polyline` packages round).
    @inline(__always)
    private static func scaled(_ value: Double, _ factor: Double, index: Int, name: String) throws(GeoError) -> Int64 {
        let x = value * factor
        let rounded = (x.magnitude + 0.5).rounded(.down)
        // 2^62: the zig-zag code of a difference needs one more bit.
        guard rounded < 4_611_686_018_427_387_904 else {
            throw GeoError(
                .invalidCoordinate,
                "\(name) \(value) of coordinate \(index) cannot be encoded: it is not finite or too large at this precision")
        }
        let magnitude = Int64(rounded)
        return x < 0 ? -magnitude : magnitude
    }

    @inline(__always)
    private static func difference(_ current: Int64, _ previous: Int64, index: Int, name: String) throws(GeoError) -> Int64 {
        let (d, overflow) = current.subtractingReportingOverflow(previous)
        guard !overflow && d < (1 << 62) && d >= -(1 << 62) else {
            throw GeoError(
                .invalidCoordinate, "\(name) difference at coordinate \(index) does not fit in the encoding's 63 bits")
        }
        return d
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
            guard count &+ EncodedPolyline.maximumCharactersPerValue <= buffer.count else { return false }
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
    /// - Throws: The errors of ``EncodedPolyline/decode(_:precision:)``;
    ///   ``GeoCore/GeoError/Kind-swift.struct/notFound`` for empty text;
    ///   ``GeoCore/GeoError/Kind-swift.struct/invalidCoordinate`` for a decoded point out of range.
    public init(encoded: some StringProtocol, precision: Int = 5) throws(GeoError) {
        try self.init(EncodedPolyline.decode(encoded, precision: precision))
    }

    /// The line as an encoded polyline.
    ///
    /// - Parameter precision: Decimal digits kept, in ``EncodedPolyline/precisionRange``; 5 by
    ///   default.
    /// - Throws: ``GeoCore/GeoError/Kind-swift.struct/invalidArgument`` for a precision outside the
    ///   range; ``GeoCore/GeoError/Kind-swift.struct/invalidCoordinate`` if a scaled value does not
    ///   fit in 63 bits (only possible above precision 16).
    public func encoded(precision: Int = 5) throws(GeoError) -> String {
        try EncodedPolyline.encode(coordinates, precision: precision)
    }
}
