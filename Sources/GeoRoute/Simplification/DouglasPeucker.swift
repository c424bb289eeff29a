import Foundation
import GeoCore

/// Douglas–Peucker line simplification (Ramer 1972; Douglas & Peucker 1973) with the tolerance in
/// meters on the WGS84 ellipsoid.
///
/// A stretch of the line from vertex `a` to vertex `b` is replaced by its end points if every vertex
/// in between lies within the tolerance of the geodesic from `a` to `b`; otherwise the vertex
/// farthest from it is kept and both halves are simplified in turn. Distances are from a vertex to
/// the geodesic *segment* (not the infinite line), so a vertex beyond an end is measured to that end.
///
/// ### Speed without giving up the meter
/// Solving every vertex-to-segment distance on the ellipsoid would cost microseconds each. Instead
/// each stretch is measured in a local plane at its mean latitude (longitudes scaled by the
/// parallel's radius N cos φ, latitudes by the meridian radius M, both of WGS84), which needs no
/// trigonometry per vertex. The plane's error grows with the square of the stretch's size D
/// (its length plus the largest offset): it is below `D²(1 + |tan φ|) / (2R)`. Only when the largest
/// planar distance falls within that band around the tolerance is the decision checked with exact
/// geodesic distances (`GeodesicLine.closestPoint(to:)`) for the vertices in the band. So
/// whether a stretch is kept whole or split is decided as the exact ellipsoidal test would decide
/// it, every dropped vertex lies within the tolerance of its geodesic, and long stretches, whose
/// planar distances are far from the tolerance, never need the exact solution. Where a stretch is
/// split, it is split at the vertex farthest in its plane; on a stretch of hundreds of kilometers
/// at high latitude, whose plane errs by tens of kilometers, the exact farthest vertex can be
/// another one within that error, and the vertices kept then differ from those of Douglas–Peucker
/// measured exactly throughout (still within the tolerance, as above).
///
/// ### Two threads on long lines
/// Once a stretch is split, its halves never look at each other again. Lines of 20 000 vertices or
/// more are therefore split on the calling thread until there are about sixteen stretches, which
/// are then shared between two threads by size; the kept vertices are exactly those of one thread.
enum DouglasPeucker {
    /// The indices of the vertices that Douglas–Peucker keeps, in increasing order (always the first
    /// and the last).
    ///
    /// - Parameters:
    ///   - coordinates: Valid coordinates.
    ///   - tolerance: Meters, not negative (may be infinite).
    ///   - maximumWorkers: Threads a long line may use (the result does not depend on it). Lines of
    ///     20 000 vertices or more are split into independent stretches that two threads finish.
    /// - Complexity: O(n log n) typically, O(n²) in the worst case; no allocation per vertex.
    static func keptIndices(
        _ coordinates: [Coordinate], tolerance: Double, maximumWorkers: Int = 2
    ) -> [Int] {
        let n = coordinates.count
        guard n > 2 else { return Array(0..<n) }
        // Latitudes and longitudes unrolled along the line, so a stretch across the 180th meridian
        // is measured the short way (most lines never cross it and keep their own longitudes).
        let ys = [Double](unsafeUninitializedCapacity: n) { y, count in
            for i in 0..<n { y.initializeElement(at: i, to: coordinates[i].latitude) }
            count = n
        }
        var crosses = false
        let xs = [Double](unsafeUninitializedCapacity: n) { x, count in
            var unrolled = coordinates[0].longitude
            x.initializeElement(at: 0, to: unrolled)
            for i in 1..<n {
                let longitude = coordinates[i].longitude
                var step = longitude - coordinates[i - 1].longitude
                if step > 180 {
                    step -= 360; crosses = true
                } else if step < -180 {
                    step += 360; crosses = true
                }
                unrolled += step
                x.initializeElement(at: i, to: crosses ? unrolled : longitude)
            }
            count = n
        }
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true
        keep[n - 1] = true
        Context(coordinates: coordinates, tolerance: tolerance, xs: xs, ys: ys).run(
            keep: &keep, maximumWorkers: maximumWorkers)
        var count = 0
        for k in keep where k { count += 1 }
        var result = [Int]()
        result.reserveCapacity(count)
        for i in 0..<n where keep[i] { result.append(i) }
        return result
    }

    /// Below this many vertices a line is simplified on the calling thread alone.
    static let parallelThreshold = 20_000

    /// What every stretch of one simplification shares.
    private struct Context {
        let coordinates: [Coordinate]
        let tolerance: Double
        let xs: [Double]
        let ys: [Double]
        let geodesic = Geodesic.wgs84
        let halfInverseRadius = 0.5 / WGS84.meanRadius  // 1/(2R), for the error bound only

        /// Simplifies the whole line, marking kept vertices in `keep`. Long lines are first split on
        /// this thread into independent stretches, which two workers then finish; the stretches do
        /// not overlap, so the result is the same as on one thread.
        func run(keep: inout [Bool], maximumWorkers: Int) {
            let n = coordinates.count
            let workers =
                n >= DouglasPeucker.parallelThreshold
                ? max(1, min(maximumWorkers, ProcessInfo.processInfo.activeProcessorCount)) : 1
            if workers == 1 {
                for i in simplify([(0, n - 1)]) { keep[i] = true }
                return
            }
            // Split the longest stretch until there are enough to share out evenly.
            var pending = [(0, n - 1)]
            var kept = [Int]()
            withBuffers { x, y, scratch in
                while pending.count < 16,
                    let longest = pending.indices.max(by: {
                        pending[$0].1 - pending[$0].0 < pending[$1].1 - pending[$1].0
                    }),
                    pending[longest].1 - pending[longest].0 > n / 16
                {
                    let (a, b) = pending.remove(at: longest)
                    split(
                        a, b, x, y, scratch, keep: { kept.append($0) }, push: { pending.append($0) }
                    )
                }
            }
            for i in kept { keep[i] = true }
            // Longest first, each to the worker with the least work so far.
            pending.sort { $0.1 - $0.0 > $1.1 - $1.0 }
            var shares = [[(Int, Int)]](repeating: [], count: workers)
            var loads = [Int](repeating: 0, count: workers)
            for stretch in pending {
                let worker = loads.indices.min(by: { loads[$0] < loads[$1] }) ?? 0
                shares[worker].append(stretch)
                loads[worker] += stretch.1 - stretch.0
            }
            let work = shares
            let lists = WorkerSlots<[Int]>.collect(parts: workers) { worker in
                simplify(work[worker])
            }
            for list in lists { for i in list { keep[i] = true } }
        }

        /// Finishes a set of stretches depth-first and returns the vertices it keeps.
        func simplify(_ stretches: [(Int, Int)]) -> [Int] {
            var kept = [Int]()
            var stack = stretches
            stack.reserveCapacity(64)
            withBuffers { x, y, scratch in
                while let (a, b) = stack.popLast() {
                    split(
                        a, b, x, y, scratch, keep: { kept.append($0) }, push: { stack.append($0) })
                }
            }
            return kept
        }

        /// The coordinates as buffers and a scratch buffer of one slot per vertex (written by
        /// `farthest` before it is read).
        private func withBuffers(
            _ body: (
                UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>,
                UnsafeMutablePointer<Double>
            ) -> Void
        ) {
            let n = coordinates.count
            withUnsafeTemporaryAllocation(of: Double.self, capacity: n) { scratch in
                guard let base = scratch.baseAddress else { return }
                xs.withUnsafeBufferPointer { x in
                    ys.withUnsafeBufferPointer { y in body(x, y, base) }
                }
            }
        }

        /// Decides one stretch: keeps its farthest vertex and hands on the two halves when that vertex
        /// is beyond the tolerance; otherwise drops the whole inside of the stretch.
        @inline(__always)
        func split(
            _ a: Int, _ b: Int, _ x: UnsafeBufferPointer<Double>, _ y: UnsafeBufferPointer<Double>,
            _ scratch: UnsafeMutablePointer<Double>, keep: (Int) -> Void, push: ((Int, Int)) -> Void
        ) {
            guard b - a > 1 else { return }
            let plane = StretchPlane(x, y, a, b)
            let (farthest, scaled) = plane.farthest(x, y, in: (a + 1)..<b, scratch: scratch)
            let planar = plane.squaredDistance(fromScaled: scaled).squareRoot()
            let size = plane.lengthSquared.squareRoot() + planar
            // The band is size²(1 + |tan φ|)/(2R); compared multiplied by cos φ, which is not
            // negative, so that no division is needed.
            let scaledBand =
                size * size * (plane.cosine + abs(plane.sine)) * halfInverseRadius + 1e-7
                * plane.cosine
            if (planar - tolerance) * plane.cosine > scaledBand {
                keep(farthest)
                push((farthest, b))
                push((a, farthest))
                return
            }
            if (tolerance - planar) * plane.cosine > scaledBand { return }
            // Too close to call in the plane. The plane's farthest vertex first: beyond the
            // tolerance exactly, it splits the stretch (one geodesic for a long stretch whose
            // band is wide, rather than one for every vertex in it).
            let inverse = geodesic.inverse(from: coordinates[a], to: coordinates[b])
            func exactDistance(_ i: Int) -> Double {
                SegmentIndex.foot(
                    onSegmentFrom: coordinates[a], azimuth: inverse.initialAzimuth,
                    length: inverse.distance,
                    to: coordinates[b], nearest: coordinates[i],
                    startingAt: plane.fractionAlong(x, y, i) * inverse.distance
                ).distance
            }
            if exactDistance(farthest) > tolerance {
                keep(farthest)
                push((farthest, b))
                push((a, farthest))
                return
            }
            // Otherwise each vertex whose planar distance is within the band of the tolerance is
            // measured exactly.
            var exactLargest = -1.0
            var exactFarthest = -1
            let threshold = plane.cosine > 0 ? max(0, tolerance - scaledBand / plane.cosine) : 0
            for i in (a + 1)..<b
            where plane.squaredDistance(fromScaled: plane.scaledSquaredDistance(x, y, i))
                .squareRoot() >= threshold
            {
                let exact = exactDistance(i)
                if exact > exactLargest {
                    exactLargest = exact
                    exactFarthest = i
                }
            }
            if exactLargest > tolerance && exactFarthest > a {
                keep(exactFarthest)
                push((exactFarthest, b))
                push((a, exactFarthest))
            }
        }
    }

    /// The local plane of one stretch from vertex `a` to vertex `b`, set up so that a vertex's offset
    /// along and across the stretch are two fused linear forms of its raw latitude and longitude.
    struct StretchPlane {
        /// The stretch's squared length in the plane, m².
        let lengthSquared: Double
        /// sin φ and cos φ of the mean latitude, for the error bound.
        let sine: Double, cosine: Double
        // Offsets along and across the stretch, both multiplied by its length (so that no division
        // is needed to set them up): along·L = x·alongX + y·alongY + alongC, likewise across·L.
        private let alongX: Double, alongY: Double, alongC: Double
        private let acrossX: Double, acrossY: Double, acrossC: Double

        init(_ x: UnsafeBufferPointer<Double>, _ y: UnsafeBufferPointer<Double>, _ a: Int, _ b: Int)
        {
            let (sine, cosine) = StretchPlane.sineAndCosine(degrees: (y[a] + y[b]) * 0.5)
            let (m, n) = StretchPlane.radiiOfCurvature(sineSquared: sine * sine)
            let kx = n * cosine * (.pi / 180), ky = m * (.pi / 180)
            var bx = (x[b] - x[a]) * kx, by = (y[b] - y[a]) * ky
            var lengthSquared = bx * bx + by * by
            if !(lengthSquared > 0) {
                // A stretch that starts and ends at the same place measures distances to that place.
                (bx, by, lengthSquared) = (1, 0, 0)
            }
            self.lengthSquared = lengthSquared
            self.sine = sine
            self.cosine = cosine
            alongX = kx * bx
            alongY = ky * by
            alongC = -(x[a] * alongX + y[a] * alongY)
            acrossX = kx * by
            acrossY = -ky * bx
            acrossC = -(x[a] * acrossX + y[a] * acrossY)
        }

        /// How far along the stretch the foot of vertex `i` lies in the plane, as a fraction of its
        /// length (a first guess for the exact foot).
        func fractionAlong(
            _ x: UnsafeBufferPointer<Double>, _ y: UnsafeBufferPointer<Double>, _ i: Int
        ) -> Double {
            guard lengthSquared > 0 else { return 0 }
            return min(max((x[i] * alongX + y[i] * alongY + alongC) / lengthSquared, 0), 1)
        }

        /// The squared planar distance from the largest value ``farthest(_:_:in:)`` found.
        func squaredDistance(fromScaled scaled: Double) -> Double {
            lengthSquared > 0 ? scaled / lengthSquared : scaled
        }

        /// The WGS84 meridional radius M and prime-vertical radius N in meters from sin²φ, by the
        /// binomial series of N = a(1 − e² sin²φ)^(−1/2) and M = a(1 − e²)(1 − e² sin²φ)^(−3/2) to
        /// the fifth power of e² sin²φ (relative error below 3e-12; no square root or division).
        /// The kernel's closed form (`WGS84.radiiOfCurvature`) gives the same to 3e-12 but costs a
        /// square root and two divisions per stretch, which this hot loop avoids.
        @inline(__always)
        static func radiiOfCurvature(
            sineSquared s2: Double
        ) -> (meridional: Double, primeVertical: Double) {
            let a = WGS84.equatorialRadius, e2 = WGS84.eccentricitySquared
            let u = e2 * s2
            // (1 − u)^(−1/2) and (1 − u)^(−3/2).
            let n = 1 + u * (0.5 + u * (0.375 + u * (0.3125 + u * (0.2734375 + u * 0.24609375))))
            let m = 1 + u * (1.5 + u * (1.875 + u * (2.1875 + u * (2.4609375 + u * 2.70703125))))
            return (a * (1 - e2) * m, a * n)
        }

        /// sin and cos of the whole degrees −90…90, for ``sineAndCosine(degrees:)``.
        static let wholeDegrees: [(sine: Double, cosine: Double)] = (-90...90).map {
            let radians = Double($0) * (.pi / 180)
            return (sin(radians), cos(radians))
        }

        /// sin φ and cos φ of a latitude in degrees, from the nearest whole degree A in a table and
        /// the angle-sum formulas with the Taylor series of the remaining |b| ≤ 0.5° (truncation
        /// error below 1e-18). A stretch needs them once and a simplification sets up tens of
        /// thousands of stretches; this is several times faster than two library calls.
        @inline(__always)
        static func sineAndCosine(degrees: Double) -> (Double, Double) {
            // NaN gives -90, never a trap
            let clamped = degrees >= -90 ? (degrees <= 90 ? degrees : 90) : -90
            let whole = clamped.rounded()
            let b = (clamped - whole) * (.pi / 180)
            let b2 = b * b
            let sinB = b * (1 - b2 * (1.0 / 6 - b2 * (1.0 / 120)))
            let cosB = 1 - b2 * (0.5 - b2 * (1.0 / 24 - b2 * (1.0 / 720)))
            let table = wholeDegrees[Int(whole) + 90]
            let sine = table.sine * cosB + table.cosine * sinB
            let cosine = table.cosine * cosB - table.sine * sinB
            return (sine, max(cosine, 0))
        }

        @inline(__always)
        private static func larger(_ p: Double, _ q: Double) -> Double { p > q ? p : q }

        /// The squared planar distance from vertex `i` to the stretch's segment times the squared
        /// length (m⁴), or the squared distance itself (m²) for a stretch of length 0.
        @inline(__always)
        func scaledSquaredDistance(
            _ x: UnsafeBufferPointer<Double>, _ y: UnsafeBufferPointer<Double>, _ i: Int
        ) -> Double {
            let along = x[i] * alongX + y[i] * alongY + alongC
            let across = x[i] * acrossX + y[i] * acrossY + acrossC
            var beyond = along - lengthSquared
            let before = -along
            if before > beyond { beyond = before }
            if 0 > beyond { beyond = 0 }
            return across * across + beyond * beyond
        }

        /// The vertex of a range farthest from the segment and its scaled squared distance (see
        /// ``scaledSquaredDistance(_:_:_:)``; the first of equals).
        ///
        /// Two vertices at a time with two independent running maxima, which keeps the processor's
        /// pipelines full; each distance is also written to `scratch` (one slot per vertex), and the
        /// index of the maximum is then found there with a plain comparison, which is cheaper than
        /// carrying indices through the vectorised loop.
        func farthest(
            _ x: UnsafeBufferPointer<Double>, _ y: UnsafeBufferPointer<Double>,
            in range: Range<Int>,
            scratch: UnsafeMutablePointer<Double>
        ) -> (Int, Double) {
            typealias Pair = SIMD2<Double>
            guard let xBase = x.baseAddress, let yBase = y.baseAddress else {
                return (range.lowerBound, -1)
            }
            let xRaw = UnsafeRawPointer(xBase), yRaw = UnsafeRawPointer(yBase)
            let ax = Pair(repeating: alongX), ay = Pair(repeating: alongY),
                ac = Pair(repeating: alongC)
            let cx = Pair(repeating: acrossX), cy = Pair(repeating: acrossY),
                cc = Pair(repeating: acrossC)
            let stretch = Pair(repeating: lengthSquared), zero = Pair(repeating: 0)
            /// Two vertices at once; the same operations in the same order as ``scaledSquaredDistance``.
            @inline(__always) func pair(_ i: Int) -> Pair {
                let px = xRaw.loadUnaligned(fromByteOffset: i &* 8, as: Pair.self)
                let py = yRaw.loadUnaligned(fromByteOffset: i &* 8, as: Pair.self)
                let along = px * ax + py * ay + ac
                let across = px * cx + py * cy + cc
                var beyond = along - stretch
                let before = -along
                beyond.replace(with: before, where: before .> beyond)
                beyond.replace(with: zero, where: zero .> beyond)
                return across * across + beyond * beyond
            }
            var m0 = Pair(repeating: -1), m1 = Pair(repeating: -1)
            var i = range.lowerBound
            while i + 4 <= range.upperBound {
                let d0 = pair(i), d1 = pair(i + 2)
                scratch[i] = d0[0]
                scratch[i + 1] = d0[1]
                scratch[i + 2] = d1[0]
                scratch[i + 3] = d1[1]
                m0.replace(with: d0, where: d0 .> m0)
                m1.replace(with: d1, where: d1 .> m1)
                i += 4
            }
            m0.replace(with: m1, where: m1 .> m0)
            var largest = m0[0] > m0[1] ? m0[0] : m0[1]
            while i < range.upperBound {
                let d = scaledSquaredDistance(x, y, i)
                scratch[i] = d
                if d > largest { largest = d }
                i += 1
            }
            var index = range.lowerBound
            while index < range.upperBound - 1 && scratch[index] != largest { index += 1 }
            return (index, largest)
        }
    }
}
