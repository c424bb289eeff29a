import GeoCore
import Testing

@Suite("Validity and repair")
struct ValidityTests {
    /// The classic bow-tie: invalid at its self-intersection (5, 5); repaired into two triangles of
    /// area 25 each.
    @Test func bowTie() throws {
        let bowTie = try Geometry(wkt: "POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))")
        #expect(try !bowTie.isValid())
        let report = try bowTie.validity()
        #expect(!report.isValid)
        #expect(report.reason?.contains("Self-intersection") == true)
        #expect(report.location == Position(x: 5, y: 5))
        for method in [MakeValidMethod.linework, .structure] {
            let repaired = try bowTie.makeValid(method: method)
            #expect(try repaired.isValid())
            #expect(repaired.type == .multiPolygon)
            #expect(abs(repaired.planarArea - 50) < 1e-9)
        }
        let fine = try Geometry(wkt: "POLYGON ((0 0, 10 0, 10 10, 0 0))")
        #expect(try fine.validity() == ValidityReport(isValid: true, reason: nil, location: nil))
        #expect(try fine.makeValid() == fine)
    }

    @Test func holeOutsideShellAndSimplicity() throws {
        let g = try Geometry(
            wkt: "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (20 20, 21 20, 21 21, 20 20))")
        #expect(try g.validity().reason?.contains("Hole lies outside shell") == true)
        #expect(try !Geometry(wkt: "LINESTRING (0 0, 10 10, 10 0, 0 10)").isSimple())
        #expect(try Geometry(wkt: "LINESTRING (0 0, 10 10, 20 0)").isSimple())
    }
}
