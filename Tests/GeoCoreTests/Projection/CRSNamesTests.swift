import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("CoordinateTransformer: CRS names and epochs")
struct CRSNamesTests {
    /// What PROJ 9.1.1 would match loosely is refused, naming the closest names; exact names and
    /// aliases in any case are accepted, as are structured definitions.
    @Test func looseNamesAreRefused() throws {
        for name in ["foo", "wgs", "bar", "EPSG 4326"] {
            do {
                _ = try CoordinateTransformer(source: "EPSG:4326", target: name)
                Issue.record("\(name) accepted")
            } catch {
                #expect(error.kind == .proj)
                #expect(
                    error.message.contains("unknown target CRS \"\(name)\""), "\(error.message)")
            }
        }
        do {
            _ = try CoordinateTransformer(source: "wgs", target: "EPSG:4326")
            Issue.record("wgs accepted")
        } catch {
            #expect(error.message.contains("closest names: WGS 72"), "\(error.message)")
        }
        let utm = try CoordinateTransformer(source: "wgs84", target: "WGS 84 / UTM zone 33N")
        let byCode = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:32633")
        let p = Position(x: 15, y: 52)
        #expect(try utm.transform(p) == byCode.transform(p))
        _ = try CoordinateTransformer(source: " EPSG:4326 ", target: "urn:ogc:def:crs:EPSG::3857")
        _ = try CoordinateTransformer(source: "OGC:CRS84", target: "+proj=merc +datum=WGS84")
        #expect(throws: GeoError.self) {
            try CoordinateTransformer(source: "", target: "EPSG:4326")
        }
    }

    /// The output axes say how to print: degrees or meters, two or three coordinates.
    @Test func outputAxes() throws {
        let geocentric = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:4978")
        #expect(geocentric.outputAxes()?.count == 3)
        #expect(geocentric.outputAxes()?.first?.unitName == "metre")
        #expect(geocentric.outputAxes(.inverse)?.first?.direction == "east")
        let etrs = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:4258")
        #expect(etrs.outputAxes()?.map(\.direction) == ["east", "north"])
        #expect(try CoordinateTransformer(pipeline: "+proj=utm +zone=32").outputAxes() == nil)
    }

    /// Every gie case with a time goes through the four-dimensional batch in one call and gives
    /// what one-point transformations give.
    @Test func timedBatchEqualsOnePointTransforms() throws {
        let cases = try #require(
            ReferenceData.json("projections/proj_gie_cases.json")["cases"]?.arrayValue)
        var groups = [String: [(x: Double, y: Double, z: Double, t: Double, inverse: Bool)]]()
        for c in cases {
            guard c["proj_9_1_1_gie"]?.stringValue != "fail",
                !(c["expect_failure"]?.boolValue ?? false),
                c["crs_src"]?.stringValue == nil, !(c["use_proj4_init_rules"]?.boolValue ?? false),
                let operation = c["operation"]?.stringValue
            else { continue }
            let accept = (c["accept"]?.arrayValue ?? []).compactMap { ReferenceData.number($0) }
            guard accept.count == 4, accept[3].isFinite else { continue }
            groups[operation, default: []].append(
                (
                    accept[0], accept[1], accept[2], accept[3],
                    c["direction"]?.stringValue == "inverse"
                ))
        }
        #expect(groups.count >= 3)
        for (operation, points) in groups {
            let transformer = try CoordinateTransformer(pipeline: operation)
            for inverse in [false, true] {
                let subset = points.filter { $0.inverse == inverse }
                guard !subset.isEmpty else { continue }
                let direction: CoordinateTransformer.Direction = inverse ? .inverse : .forward
                var x = subset.map(\.x), y = subset.map(\.y), t = subset.map(\.t)
                var z: [Double]? = subset.map(\.z)
                let failures = try transformer.transform(
                    x: &x, y: &y, z: &z, t: &t, direction: direction)
                #expect(failures.isEmpty, "\(operation): \(failures)")
                for (i, p) in subset.enumerated() {
                    let one = try transformer.transform(
                        Position(x: p.x, y: p.y, z: p.z), time: p.t, direction: direction)
                    #expect(x[i] == one.position.x && y[i] == one.position.y, "\(operation)")
                    #expect(z?[i] == one.position.z && t[i] == one.time, "\(operation)")
                }
            }
        }
        // Lengths must agree.
        let utm = try CoordinateTransformer(pipeline: "+proj=utm +zone=32")
        var x = [1.0], y = [2.0], t = [Double]()
        var z: [Double]? = nil
        #expect(throws: GeoError.self) { try utm.transform(x: &x, y: &y, z: &z, t: &t) }
    }
}
