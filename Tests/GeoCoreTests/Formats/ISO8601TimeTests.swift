import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("ISO 8601 times")
struct ISO8601TimeTests {
    @Test func parsesTheForms() {
        let base = referenceTime("2010-08-05T14:23:59Z") ?? 0
        #expect(ISO8601Time.parse("2010-08-05T14:23:59Z")?.timeIntervalSince1970 == base)
        #expect(ISO8601Time.parse("2010-08-05T14:23:59")?.timeIntervalSince1970 == base)
        #expect(ISO8601Time.parse("2010-08-05 14:23:59")?.timeIntervalSince1970 == base)
        #expect(ISO8601Time.parse("2010-08-05T16:23:59+02:00")?.timeIntervalSince1970 == base)
        #expect(ISO8601Time.parse("2010-08-05T12:23:59-0200")?.timeIntervalSince1970 == base)
        #expect(
            abs(
                (ISO8601Time.parse("2010-08-05T14:23:59.2073437Z")?.timeIntervalSince1970 ?? 0)
                    - base - 0.2073437) < 1e-6)
        for bad in [
            "", "2010-08-05", "2010-13-05T00:00:00Z", "2010-02-30T00:00:00Z",
            "2010-08-05T14:23:59.Z", "2010-08-05T14:23:59Q", "x",
        ] {
            #expect(ISO8601Time.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func formatRoundTrips() {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<500 {
            let t = (rng.uniform(-4e9, 4e9) * 1e6).rounded() / 1e6
            let date = Date(timeIntervalSince1970: t)
            let text = ISO8601Time.format(date)
            #expect(
                abs((ISO8601Time.parse(text)?.timeIntervalSince1970 ?? .nan) - t) < 2e-6, "\(text)")
        }
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: 1.5)) == "1970-01-01T00:00:01.5Z")
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }
}
