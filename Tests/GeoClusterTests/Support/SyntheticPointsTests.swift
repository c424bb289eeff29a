import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport
import Testing

@Suite("SyntheticPoints")
struct SyntheticPointsTests {
    /// FIPS 180-2 appendix B.1 and the empty message.
    @Test func sha256KnownAnswers() {
        #expect(
            SHA256.hex(Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex([UInt8]())
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// The port prints byte for byte what `gen_points.py` printed for the shared 10k files, whose
    /// checksums `datasets.sha256` records.
    @Test(
        arguments: [
            ("points-10k.csv", SyntheticPoints.Kind.uniform),
            ("clustered-10k.csv", SyntheticPoints.Kind.clustered(centers: 50)),
        ])
    func reproducesTheReferenceDataSets(_ file: String, _ kind: SyntheticPoints.Kind) throws {
        let sums = try ReferenceData.text(Fixtures.directory + "datasets.sha256")
        let line = try #require(sums.split(separator: "\n").first { $0.hasSuffix("  " + file) })
        let expected = String(line.prefix(64))
        let text = SyntheticPoints.csv(kind, count: 10_000, seed: 7)
        #expect(SHA256.hex(Array(text.utf8)) == expected)
        #expect(SHA256.hex(Array(try ReferenceData.data(Fixtures.directory + file))) == expected)
        let coordinates = SyntheticPoints.coordinates(kind, count: 10_000, seed: 7)
        #expect(coordinates == (try Fixtures.csvPoints(file)))
    }

    @Test func uniformStaysInItsBox() {
        let points = SyntheticPoints.coordinates(.uniform, count: 2000, seed: 1)
        #expect(points.count == 2000)
        #expect(
            points.allSatisfy {
                abs($0.latitude) <= 80 && $0.longitude >= -180 && $0.longitude <= 180
            })
        #expect(
            SyntheticPoints.coordinates(.uniform, count: 10, seed: 1) == Array(points.prefix(10)))
    }
}
