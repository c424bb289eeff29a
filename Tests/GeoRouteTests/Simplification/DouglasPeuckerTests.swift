import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

/// Douglas–Peucker with every distance solved exactly on the ellipsoid
/// (`GeodesicLine.closestPoint`), written the textbook recursive way: the oracle.
private func exactDouglasPeucker(_ points: [Coordinate], tolerance: Double) -> [Int] {
    var keep = Set([0, points.count - 1])
    func recurse(_ a: Int, _ b: Int) {
        guard b > a + 1 else { return }
        let segment = Geodesic.wgs84.line(from: points[a], to: points[b])
        var farthest = a, largest = -1.0
        for i in (a + 1)..<b {
            let d = segment.closestPoint(to: points[i]).distance
            if d > largest { (largest, farthest) = (d, i) }
        }
        if largest > tolerance {
            keep.insert(farthest)
            recurse(a, farthest)
            recurse(farthest, b)
        }
    }
    recurse(0, points.count - 1)
    return keep.sorted()
}

@Suite("Douglas-Peucker")
struct DouglasPeuckerTests {
    /// Same vertices as the exact ellipsoidal algorithm on seeded noisy walks at several latitudes
    /// and tolerances, including walks across the 180th meridian and near a pole.
    @Test(arguments: [
        (Coordinate(latitude: 46.0, longitude: 14.5), 1.0),
        (Coordinate(latitude: -33.9, longitude: 179.95), 2.0),
        (Coordinate(latitude: 81.0, longitude: -40.0), 3.0),
    ])
    func matchesTheExactAlgorithm(start: Coordinate, seed: Double) throws {
        var rng = SplitMix64(seed: UInt64(seed) * 7)
        for tolerance in [0.5, 3.0, 10.0, 40.0] {
            let points = TestLines.randomWalk(
                count: 120, start: start, minimumStep: 2, maximumStep: 60, maximumTurn: 25,
                rng: &rng)
            let line = try Polyline(points)
            let fast = try line.simplifiedIndices(tolerance: tolerance)
            #expect(
                fast == exactDouglasPeucker(points, tolerance: tolerance), "tolerance \(tolerance)")
        }
    }

    /// Long lines are finished by two threads; the kept vertices are the same as on one thread, and
    /// (checked on a sample of stretches) as the exact algorithm's.
    @Test func twoThreadsKeepTheSameVertices() throws {
        var rng = SplitMix64(seed: 23)
        let points = TestLines.randomWalk(
            count: 60_000, start: Coordinate(latitude: 46.05, longitude: 14.5), minimumStep: 5,
            maximumStep: 15,
            maximumTurn: 40, rng: &rng)
        for tolerance in [2.0, 10.0] {
            let one = DouglasPeucker.keptIndices(points, tolerance: tolerance, maximumWorkers: 1)
            let two = DouglasPeucker.keptIndices(points, tolerance: tolerance, maximumWorkers: 2)
            #expect(one == two)
            #expect(one.count > 100 && one.first == 0 && one.last == points.count - 1)
        }
    }

    /// Every dropped vertex is within the tolerance of the geodesic that replaced it.
    @Test func droppedVerticesAreWithinTolerance() throws {
        var rng = SplitMix64(seed: 17)
        let points = TestLines.randomWalk(
            count: 2_000, start: Coordinate(latitude: 59.3, longitude: 18.1), minimumStep: 1,
            maximumStep: 30, maximumTurn: 40, rng: &rng)
        let line = try Polyline(points)
        let tolerance = 8.0
        let kept = try line.simplifiedIndices(tolerance: tolerance)
        #expect(kept.first == 0 && kept.last == points.count - 1)
        #expect(kept.count < points.count / 3)
        for (a, b) in zip(kept, kept.dropFirst()) {
            let segment = Geodesic.wgs84.line(from: points[a], to: points[b])
            for i in (a + 1)..<b {
                #expect(segment.closestPoint(to: points[i]).distance <= tolerance + 1e-9)
            }
        }
    }

    @Test func straightLinesCollapseAndCornersStay() throws {
        let a = Coordinate(latitude: 0, longitude: 0)
        let line = try Polyline(
            (0...10).map { a.coordinate(atDistance: Double($0) * 100, bearing: 90) })
        #expect(try line.simplifiedIndices(tolerance: 0.01) == [0, 10])
        let corner = line.end.coordinate(atDistance: 500, bearing: 0)
        let bent = try Polyline(line.coordinates + [corner])
        #expect(try bent.simplifiedIndices(tolerance: 1) == [0, 10, 11])
        #expect(try bent.simplifiedIndices(tolerance: .infinity) == [0, 11])
        // Tolerance 0 keeps every vertex off the line, however close.
        let wiggle = try Polyline([
            a, Coordinate(latitude: 1e-7, longitude: 0.001),
            Coordinate(latitude: 0, longitude: 0.002),
        ])
        #expect(try wiggle.simplifiedIndices(tolerance: 0) == [0, 1, 2])
    }
}

@Suite("Douglas-Peucker: the local plane's arithmetic")
struct DouglasPeuckerPlaneTests {
    /// The series for sine, cosine and the radii of curvature agree with the library functions and
    /// GeoCore's closed form to 1e-11 relative, far inside the error band they feed.
    @Test func seriesAgreeWithClosedForms() {
        for k in -360...360 {
            let degrees = Double(k) / 4 + 0.123
            let phi = min(max(degrees, -90), 90) * .pi / 180
            let (s, c) = DouglasPeucker.StretchPlane.sineAndCosine(degrees: degrees)
            #expect(abs(s - sin(phi)) < 1e-15 && abs(c - max(0, cos(phi))) < 1e-15)
            let (m, n) = DouglasPeucker.StretchPlane.radiiOfCurvature(
                sineSquared: sin(phi) * sin(phi))
            let exact = LocalPlane.radiiOfCurvature(atLatitudeRadians: phi)
            #expect(
                abs(m / exact.meridional - 1) < 1e-11 && abs(n / exact.primeVertical - 1) < 1e-11)
        }
    }
}
