import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

/// The GPX, encoded-polyline and track-file readers stop at their limits with `limitExceeded`.
@Suite("InputLimits: GPX, polylines and track files")
struct RouteInputLimitsTests {
    private func kind(_ body: () throws -> Void) -> (GeoError.Kind?, String) {
        let error = thrownGeoError(body)
        return (error?.kind, error?.message ?? "")
    }

    @Test func gpx() throws {
        let points = (0..<5).map { "<trkpt lat=\"\($0)\" lon=\"1\"/>" }.joined()
        let gpx = Data("<gpx><trk><trkseg>\(points)</trkseg></trk></gpx>".utf8)
        #expect(try GPX.read(gpx, limits: InputLimits(maximumPositions: 5)).tracks.count == 1)
        let (positions, message) = kind {
            _ = try GPX.read(gpx, limits: InputLimits(maximumPositions: 4))
        }
        #expect(positions == .limitExceeded && message.contains("InputLimits.maximumPositions (4)"))
        #expect(
            kind { _ = try GPX.read(gpx, limits: InputLimits(maximumBytes: 50)) }.0
                == .limitExceeded)
        #expect(
            kind { _ = try GPX.read(gpx, limits: InputLimits(maximumDepth: 3)) }.0 == .limitExceeded
        )
        #expect(
            kind { _ = try GPX.read(gpx, limits: InputLimits(maximumParts: 7)) }.0 == .limitExceeded
        )
        let named = Data(
            "<gpx><trk><name>\(String(repeating: "n", count: 30))</name></trk></gpx>".utf8)
        #expect(
            kind { _ = try GPX.read(named, limits: InputLimits(maximumStringLength: 29)) }.0
                == .limitExceeded)
        #expect(try GPX.read(named, limits: InputLimits(maximumStringLength: 30)).tracks.count == 1)
    }

    @Test func polylinesAndTrackFiles() throws {
        let text = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
        #expect(
            try EncodedPolyline.decode(text, limits: InputLimits(maximumPositions: 3)).count == 3)
        #expect(
            kind { _ = try EncodedPolyline.decode(text, limits: InputLimits(maximumPositions: 2)) }
                .0
                == .limitExceeded)
        #expect(
            kind { _ = try EncodedPolyline.decode(text, limits: InputLimits(maximumBytes: 10)) }.0
                == .limitExceeded)
        let csv = Data("lat,lon\n1,2\n3,4\n".utf8)
        #expect(try TrackFile.read(csv, format: .csv).count == 1)
        #expect(
            kind { _ = try TrackFile.read(csv, format: .csv, limits: InputLimits(maximumBytes: 8)) }
                .0
                == .limitExceeded)
        #expect(
            kind {
                _ = try TrackFile.read(
                    Data(text.utf8), format: .encoded, limits: InputLimits(maximumPositions: 2))
            }.0 == .limitExceeded)
    }
}
