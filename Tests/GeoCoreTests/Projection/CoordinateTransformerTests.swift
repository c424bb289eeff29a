import Foundation
import GeoCore
import Testing

@Suite("CoordinateTransformer: published values and behavior (always run)")
struct CoordinateTransformerTests {
    /// IOGP Guidance Note 7-2, Popular Visualisation Pseudo-Mercator worked example:
    /// 24°22′54.433″N, 100°20′00.000″W → E −11 169 055.58 m, N 2 800 000.00 m.
    @Test func pseudoMercatorWorkedExample() throws {
        let t = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:3857")
        let lat = 24 + 22 / 60.0 + 54.433 / 3600, lon = -(100 + 20 / 60.0)
        let p = try t.transform(Position(x: lon, y: lat))  // longitude first, whatever EPSG says
        #expect(abs(p.x - -11_169_055.58) < 0.01)
        #expect(abs(p.y - 2_800_000.00) < 0.01)
        let back = try t.transform(p, direction: .inverse)
        #expect(abs(back.x - lon) < 1e-9 && abs(back.y - lat) < 1e-9)
        // EPSG:4326 is latitude first in the registry
        #expect(t.sourceAxes?.first?.direction == "north")
        #expect(t.takesAngles() && !t.givesAngles())
    }

    /// IOGP Guidance Note 7-2, Transverse Mercator worked example (OSGB 1936 / British National Grid):
    /// 50°30′N, 0°30′E → E 577 274.99 m, N 69 740.50 m.
    @Test func transverseMercatorWorkedExample() throws {
        let t = try CoordinateTransformer(
            pipeline:
                "+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy"
        )
        // degrees in, although tmerc takes radians
        let p = try t.transform(Position(x: 0.5, y: 50.5))
        #expect(abs(p.x - 577_274.99) < 0.01)
        #expect(abs(p.y - 69_740.50) < 0.01)
        let crs = try CoordinateTransformer(source: "EPSG:4277", target: "EPSG:27700")
        let q = try crs.transform(Position(x: 0.5, y: 50.5))
        #expect(abs(q.x - 577_274.99) < 0.01 && abs(q.y - 69_740.50) < 0.01)
    }

    @Test func batchesReportFailedPointsByIndex() throws {
        let t = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:3857")
        var batch = (0..<1_500).map {
            Position(x: Double($0 % 360) - 180, y: Double($0 % 170) - 85)
        }
        batch[3] = Position(x: 10, y: 95)  // latitudes beyond the poles
        batch[1_200] = Position(x: 10, y: -100)
        let expected = try batch.enumerated().map { (i, p) in
            i == 3 || i == 1_200 ? p : try t.transform(p)
        }
        let failures = try t.transform(&batch)
        #expect(failures.map(\.index) == [3, 1_200])
        #expect(
            failures.allSatisfy {
                $0.error.kind == .proj && $0.error.code != nil && !$0.error.message.isEmpty
            })
        #expect(batch[3].x.isNaN && batch[3].y.isNaN)  // never HUGE_VAL
        for i in batch.indices where i != 3 && i != 1_200 {
            #expect(batch[i] == expected[i])
        }
        var x = [10.0, 10], y = [91.0, 45]
        let soa = try t.transform(x: &x, y: &y)
        #expect(soa.map(\.index) == [0] && x[0].isNaN && abs(y[1] - 5_621_521.486) < 0.001)
        #expect(throws: GeoError.self) { try t.transform(Position(x: 0, y: 90.5)) }
        let ortho = try CoordinateTransformer(
            pipeline: "+proj=ortho +lat_0=0 +lon_0=0 +ellps=WGS84")
        // the second is out of sight
        var hemisphere = [Position(x: 10, y: 10), Position(x: 120, y: 10)]
        let hidden = try ortho.transform(&hemisphere)
        #expect(hidden.map(\.index) == [1])
        #expect(
            hidden.first?.error.message.contains("(120.0, 10.0) could not be transformed") == true,
            "\(hidden)")
    }

    @Test func heightsAndTimes() throws {
        let t = try CoordinateTransformer(source: "EPSG:4979", target: "EPSG:4978")
        var ps = [Position(x: 0, y: 0, z: 100), Position(x: 90, y: 0)]
        #expect(try t.transform(&ps).isEmpty)
        #expect(abs(ps[0].x - 6_378_237) < 1e-6 && abs(ps[0].y) < 1e-6)
        #expect(ps[1].z == nil && abs(ps[1].y - 6_378_137) < 1e-6)
        let helmert = try CoordinateTransformer(pipeline: "+proj=helmert +x=0 +dx=1 +t_epoch=2000")
        let moved = try helmert.transform(Position(x: 0, y: 0, z: 0), time: 2010)
        #expect(abs(moved.position.x - 10) < 1e-9 && moved.time == 2010)
    }

    @Test func errorsCarryPROJsMessage() throws {
        do {
            _ = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:999999")
            Issue.record("created")
        } catch {
            #expect(error.kind == .proj)
            #expect(error.message.contains("999999"), "\(error.message)")
        }
        do {
            _ = try CoordinateTransformer(pipeline: "+proj=nosuchprojection")
            Issue.record("created")
        } catch {
            #expect(error.kind == .proj)
            #expect(
                error.message.lowercased().contains("unknown")
                    || error.message.contains("nosuchprojection"), "\(error.message)")
        }
        // A CRS is not an operation: refused when made, not point by point afterwards.
        for crs in ["EPSG:32633", "+proj=utm +zone=33 +ellps=GRS80 +type=crs", "EPSG:4326"] {
            do {
                _ = try CoordinateTransformer(pipeline: crs)
                Issue.record("created from \(crs)")
            } catch {
                #expect(error.kind == .proj)
                #expect(error.message.contains("is a CRS, not a coordinate operation"))
            }
        }
        // The operation itself is taken.
        let utm = try CoordinateTransformer(pipeline: "+proj=utm +zone=33 +ellps=GRS80")
        #expect(abs(try utm.transform(Position(x: 15, y: 0)).x - 500_000) < 1e-6)
    }

    @Test func missingDatabaseNamesTheSearchedPaths() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent(
            "meridian-no-proj-db-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        do {
            _ = try CoordinateTransformer(
                source: "EPSG:4326", target: "EPSG:3857",
                configuration: .init(searchPaths: [empty.path]))
            Issue.record("created without proj.db")
        } catch {
            #expect(error.kind == .projDatabaseNotFound)
            #expect(error.message.contains(empty.path), "\(error.message)")
        }
        // An operation that needs no database still works there.
        let utm = try CoordinateTransformer(
            pipeline: "+proj=utm +zone=32 +ellps=GRS80",
            configuration: .init(searchPaths: [empty.path]))
        let p = try utm.transform(Position(x: 12, y: 56))
        #expect(abs(p.x - 687_071.43910944) < 1e-4)
    }

    @Test func geometriesAndInversion() throws {
        let t = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:32633")
        let line = Geometry.lineString([Position(x: 15, y: 52), Position(x: 16, y: 53)])
        let projected = try t.transform(line)
        let inverse = t.inverted()
        #expect(
            inverse.isInverted && inverse.sourceAxes == t.targetAxes && inverse.givesAngles()
                && !inverse.takesAngles())
        let pipeline = try CoordinateTransformer(
            pipeline:
                "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step +proj=utm +zone=33 +ellps=WGS84"
        )
        let back = try pipeline.inverted().transform(pipeline.transform(Position(x: 16, y: 53)))
        #expect(abs(back.x - 16) < 1e-9 && abs(back.y - 53) < 1e-9)
        guard case .lineString(let ps) = try inverse.transform(projected) else {
            Issue.record("not a line string")
            return
        }
        #expect(abs(ps[1].x - 16) < 1e-9 && abs(ps[1].y - 53) < 1e-9)
        #expect(throws: GeoError.self) { try t.transform(Geometry.point(x: 0, y: 95)) }
    }
}
