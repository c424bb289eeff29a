import Testing

@testable import GeoFence

@Suite("CRC32")
struct CRC32Tests {
    /// The standard CRC-32 check value (ISO 3309 / zlib's `crc32(0, "123456789", 9)`), and the
    /// checksum of nothing.
    @Test func checkValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        // zlib: crc32("The quick brown fox jumps over the lazy dog") = 0x414FA339.
        #expect(
            CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339
        )
    }
}
