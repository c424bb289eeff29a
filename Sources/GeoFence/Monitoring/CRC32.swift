/// CRC-32 as in ISO 3309, ITU-T V.42, zlib and PNG (reflected polynomial 0xEDB88320, initial value
/// and final XOR 0xFFFFFFFF); the check value of `"123456789"` is `0xCBF43926`.
///
/// The geofence store uses it to tell a corrupt or truncated state file from a good one. It catches
/// every burst error of up to 32 bits and all but one in 2³² of the others; it is not a defence
/// against deliberate tampering.
enum CRC32 {
    /// The checksum of some bytes.
    ///
    /// - Complexity: O(n), a table look-up per byte.
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
