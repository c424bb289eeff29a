import Foundation
import Testing

@testable import GeoCore

@Suite("CoordinateCSV and LocationCSV")
struct CoordinateCSVTests {
    private func describe(_ records: [LineRecord<Coordinate>]) -> [String] {
        records.map { record in
            switch record.value {
            case .success(let c): "\(record.line): \(c.latitude) \(c.longitude)"
            case .failure(let e): "\(record.line):\(e.column ?? 0) \(e.message)"
            }
        }
    }

    /// The same coordinates whatever the line ends, byte-order mark, separator and header.
    @Test(arguments: [
        "47.378,8.540\n46.948,7.447\n",
        "\u{FEFF}lat,lon\r\n47.378,8.540\r\n46.948,7.447\r\n",
        "Latitude;Longitude\r47,378;8,540\r46,948;7,447\r",
        "name\tLON\tLAT\nZürich\t8.540\t47.378\nBern\t7.447\t46.948\n",
        "# sites\n\n\"47.378\", \"8.540\"\n46.948 , 7.447\n",
    ])
    func readsWhatPeopleWrite(_ text: String) throws {
        let table = try CoordinateCSV.read(Data(text.utf8))
        #expect(
            table.records.values() == [
                Coordinate(latitude: 47.378, longitude: 8.540),
                Coordinate(latitude: 46.948, longitude: 7.447),
            ])
    }

    /// Without a header the order is chosen; a header decides it.
    @Test func order() throws {
        let data = Data("8.5,47.3\n".utf8)
        #expect(
            try CoordinateCSV.read(data, order: .longitudeFirst).records.values()
                == [Coordinate(latitude: 47.3, longitude: 8.5)])
        let extras = try CoordinateCSV.read(Data("id,x,y,kind\n7,8.5,47.3,bike\n".utf8))
        #expect(extras.records.values() == [Coordinate(latitude: 47.3, longitude: 8.5)])
        #expect(extras.extras == [["7", "bike"]] && extras.header?.count == 4)
    }

    /// Every bad record fails in its place with its line, column and what is wrong with it, and
    /// the others are read.
    @Test func badRecordsStayInPlace() throws {
        let text = "1,2\nabc,2\n1,nan\n91,0\n1\n\n3,4\n1,\"x\n"
        let records = try CoordinateCSV.read(Data(text.utf8)).records
        #expect(
            describe(records) == [
                "1: 1.0 2.0",
                "2:1 latitude \"abc\" is not a number",
                "3:2 longitude \"nan\" is not finite",
                "4:1 latitude 91.0 is outside [-90, 90]",
                "5:2 expected a latitude and a longitude, found 1 field",
                "7: 3.0 4.0",
                "8:2 the quote opening column 2 is never closed",
            ])
        // A control character in a field is escaped in the message.
        let escape = try CoordinateCSV.read(Data("1,\u{1B}[31m\n".utf8)).records
        let message = try #require(escape.firstError()?.message)
        #expect(!message.contains("\u{1B}") && message.contains("\\u{1B}"))
    }

    /// A header that names only one coordinate column is an error for the whole file; a header
    /// alone or an empty file has no records.
    @Test func headers() throws {
        #expect(throws: GeoError.self) { try CoordinateCSV.read(Data("lat,height\n1,2\n".utf8)) }
        let headerOnly = try CoordinateCSV.read(Data("lat,lon\r\n".utf8))
        #expect(headerOnly.header == ["lat", "lon"] && headerOnly.records.isEmpty)
        #expect(try CoordinateCSV.read(Data()).records.isEmpty)
    }

    /// Location logs: the default column order, headers in any order with more columns, ISO 8601
    /// and epoch times, and times that are no times.
    @Test func locations() throws {
        let plain = try LocationCSV.read(
            Data("2024-05-01T08:30:00Z,47.3,8.5,12\n1714552260,47.4,8.6\n".utf8))
        let fixes = plain.records.values()
        #expect(fixes.count == 2)
        #expect(fixes[0].timestamp.timeIntervalSince1970 == 1_714_552_200)
        #expect(fixes[0].horizontalAccuracy == 12 && fixes[1].horizontalAccuracy == 0)
        #expect(fixes[1].coordinate == Coordinate(latitude: 47.4, longitude: 8.6))
        let named = try LocationCSV.read(
            Data(
                "Latitude;Longitude;Time;Speed (m/s);Altitude\r\n47,3;8,5;2024-05-01 08:30:00+02:00;3,5;410\r\n"
                    .utf8))
        let fix = try #require(named.records.values().first)
        #expect(fix.timestamp.timeIntervalSince1970 == 1_714_545_000)
        #expect(fix.speed == 3.5 && fix.altitude == 410 && fix.verticalAccuracy == 0)
        let bad = try LocationCSV.read(
            Data("1e300,1,2\nyesterday,1,2\n2024-05-01T08:30:00Z,x,2\n".utf8))
        let messages = bad.records.map { (try? $0.value.get()) == nil ? ($0.line, $0.value) : nil }
        #expect(messages.compactMap { $0 }.count == 3)
        #expect(bad.records[0].value.errorMessage?.contains("1e300") == true)
        #expect(
            bad.records[2].value.errorMessage?.contains("latitude \"x\" is not a number") == true)
        #expect(throws: GeoError.self) { try LocationCSV.read(Data("time,lat,height\n".utf8)) }
    }
}

extension Result where Failure == GeoError {
    fileprivate var errorMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }
}
