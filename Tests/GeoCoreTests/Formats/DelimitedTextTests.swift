import Foundation
import Testing

@testable import GeoCore

@Suite("DelimitedText: CSV as people have it")
struct DelimitedTextTests {
    private func fields(_ text: DelimitedText) -> [[String]] {
        text.rows.map(\.fields)
    }

    /// LF, CR LF and lone CR line ends (mixed), with or without a final line end, give the same
    /// records and line numbers.
    @Test(arguments: ["\n", "\r\n", "\r"])
    func lineEnds(_ end: String) {
        let text = DelimitedText(Data("a,b\(end)1,2\(end)\(end)3,4".utf8))
        #expect(fields(text) == [["a", "b"], ["1", "2"], ["3", "4"]])
        #expect(text.rows.map(\.line) == [1, 2, 4])
        #expect(text.records.count == 4)
        let mixed = DelimitedText(Data("1,2\r\n3,4\r5,6\n7,8\r\n".utf8))
        #expect(mixed.rows.map(\.line) == [1, 2, 3, 4])
    }

    /// A UTF-8 byte-order mark, and UTF-16 (either byte order) with its mark, as spreadsheets
    /// export "Unicode text".
    /// A NUL byte inside a field ends no number early: "47.3769\0junk" is not 47.3769.
    @Test func numbersWithANulAreNotNumbers() {
        #expect(DelimitedText.number("47.3769\u{0}junk") == nil)
        #expect(DelimitedText.number("47.3769\u{0}") == nil)
        #expect(DelimitedText.number("48\u{0},85", separator: .semicolon) == nil)
        #expect(DelimitedText.number("47.3769") == 47.3769)
        #expect(DelimitedText.number("48,85", separator: .semicolon) == 48.85)
        #expect(ISO8601Time.timestamp("1700000000\u{0}9") == nil)
        #expect((try? Geometry(wkt: "POINT (1 2\u{0}3)")) == nil)
    }

    @Test func byteOrderMarksAndUTF16() {
        let bom = DelimitedText(Data([0xEF, 0xBB, 0xBF] + Array("lat,lon\n1,2\n".utf8)))
        #expect(fields(bom) == [["lat", "lon"], ["1", "2"]])
        let text = "lat\tlon\r\n48,85\t2,35\r\n"
        let little = Data(
            [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let big = Data([0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        for data in [little, big] {
            let t = DelimitedText(data)
            #expect(t.separator == .tab)
            #expect(fields(t) == [["lat", "lon"], ["48,85", "2,35"]])
        }
    }

    /// The separator is detected: tab, then semicolon, then comma, then spaces.
    @Test func separators() {
        #expect(DelimitedText("1\t2,5\n").separator == .tab)
        #expect(DelimitedText("48,8;2,3\n").separator == .semicolon)
        #expect(DelimitedText("# comment; with, separators\n1, 2\n").separator == .comma)
        let spaces = DelimitedText("  40.6   -73.7  \n")
        #expect(spaces.separator == .whitespace)
        #expect(fields(spaces) == [["40.6", "-73.7"]])
        #expect(fields(DelimitedText("1, 2 ,,3 \n")) == [["1", "2", "", "3"]])
        #expect(fields(DelimitedText("1,2,\n")) == [["1", "2", ""]])
    }

    /// Quoted fields hold separators, doubled quotes and line breaks; the record keeps its first
    /// line and the next record its own.
    @Test func quotedFields() throws {
        let text = DelimitedText(
            Data(
                "name,lat\n\"Zürich, HB\",47.378\n\"say \"\"hi\"\"\",1\n\"two\nlines\",2\n3,4\n"
                    .utf8))
        #expect(
            fields(text) == [
                ["name", "lat"], ["Zürich, HB", "47.378"], ["say \"hi\"", "1"],
                ["two\nlines", "2"],
                ["3", "4"],
            ])
        #expect(text.rows.map(\.line) == [1, 2, 3, 4, 6])
        #expect(try DelimitedText.split(#" "a" , b"#, separator: .comma) == ["a", "b"])
    }

    /// A quote that never closes fails its own record, at its line and column (the field's
    /// number), and reading goes on with the next line.
    @Test func unterminatedQuoteFailsOneRecord() {
        let text = DelimitedText(Data("1,2\n3,\"open\n5,6\n7,8\n".utf8))
        let lines = text.records.map { record -> String in
            switch record {
            case .success(let r): "\(r.line): \(r.fields.joined(separator: "|"))"
            case .failure(let e): "\(e.line ?? -1) col \(e.column ?? -1): error"
            }
        }
        #expect(lines == ["1: 1|2", "2 col 2: error", "3: 5|6", "4: 7|8"])
        do {
            _ = try DelimitedText.split("\"a\"b", separator: .comma)
            Issue.record("text after a closing quote accepted")
        } catch {
            #expect(error.column == 1)
        }
    }

    /// Comments are skipped when asked; `nan` reads as a number (callers say "not finite"), hex
    /// does not, and a decimal comma only where the separator is not a comma.
    @Test func commentsAndNumbers() {
        #expect(fields(DelimitedText("# a\n1,2\n  # b\n")) == [["1", "2"]])
        #expect(fields(DelimitedText("# a,b\n", comments: false)) == [["# a", "b"]])
        #expect(DelimitedText.number("1e3") == 1000)
        #expect(DelimitedText.number("nan")?.isNaN == true)
        #expect(DelimitedText.number("0x10") == nil)
        #expect(DelimitedText.number("-0X1P3") == nil)
        #expect(DelimitedText.number("0x1,5", separator: .tab) == nil)
        #expect(DelimitedText.number("nan(0x1)") == nil)
        #expect(DelimitedText.number("-Infinity") == -.infinity)
        // Seconds since 1970 are decimal too.
        #expect(ISO8601Time.timestamp("0x10") == nil)
        #expect(ISO8601Time.timestamp("16.5") == Date(timeIntervalSince1970: 16.5))
        #expect(DelimitedText.number("abc") == nil)
        #expect(DelimitedText.number("48,85", separator: .semicolon) == 48.85)
        #expect(DelimitedText.number("48,85", separator: .comma) == nil)
        #expect(DelimitedText.number("1,2,3", separator: .tab) == nil)
    }

    /// Header names match whatever their case, spaces, underscores and units.
    @Test func headerColumns() {
        let names: [String: [String]] = ["lat": ["lat", "latitude"], "lon": ["lon", "longitude"]]
        #expect(
            DelimitedText.columns(in: ["ID", "Latitude (deg)", " LON_"], named: names)
                == ["lat": 1, "lon": 2])
        #expect(DelimitedText.columns(in: ["a", "b"], named: names) == nil)
    }

    /// Values as typed: blanks, one comma or one semicolon between two values; an empty value is
    /// an error naming its column (the field it would have been), never a shift of the values
    /// after it.
    @Test func splitValues() throws {
        let four = ["47.37", "8.54", "46.95", "7.45"]
        for text in [
            "47.37 8.54 46.95 7.45", "47.37,8.54 46.95,7.45", "47.37, 8.54, 46.95, 7.45",
            "47.37 ;8.54\t;  46.95;7.45", "  47.37\t8.54  46.95 7.45  ",
            "\"47.37\",8.54 46.95 7.45",
        ] {
            #expect(try DelimitedText.splitValues(text) == four, "\(text)")
        }
        #expect(try DelimitedText.splitValues("") == [])
        #expect(try DelimitedText.splitValues(" \t ") == [])
        #expect(
            try DelimitedText.splitValues(#""New York", "a ""b""" x"#) == [
                "New York", "a \"b\"", "x",
            ])
        #expect(try DelimitedText.splitValues(#"1,"",2"#) == ["1", "", "2"])
        for (text, column) in [
            ("10,,20,30,40", 2), ("10, ,20", 2), ("10;;20", 2), (",10 20", 1), ("10 20,", 3),
            ("10 20 ;", 3), ("; ", 1), ("10,;20", 2), (#""a",,b"#, 2), ("1 2 3,,", 4),
        ] {
            #expect(throws: GeoError.self, "\(text)") { try DelimitedText.splitValues(text) }
            do {
                _ = try DelimitedText.splitValues(text)
            } catch {
                #expect(error.column == column, "\(text)")
                #expect(error.message.contains("empty value in column \(column)"), "\(text)")
            }
        }
        #expect(throws: GeoError.self) { try DelimitedText.splitValues(#"1 "2"#) }
        #expect(throws: GeoError.self) { try DelimitedText.splitValues(#""1"2 3"#) }
        // A quote's errors name its field's number, as every other error of a record does.
        for (text, column) in [
            (#"1 "2"#, 2), (#""1"2 3"#, 1), (#"1,2,"é"x"#, 3), (#"a;"b;c"#, 2),
        ] {
            do {
                _ = try DelimitedText.splitValues(text)
                Issue.record("\(text) split")
            } catch {
                #expect(error.column == column, "\(text)")
                #expect(error.message.contains("column \(column)"), "\(error.message)")
            }
        }
        do {
            _ = try DelimitedText.split(#"1,"x"y,3"#, separator: .comma)
            Issue.record("text after a closing quote split")
        } catch {
            #expect(error.column == 2 && error.message.contains("\"y\" after"), "\(error.message)")
        }
        // Linear on a million values and on a million marks.
        let wide = Array(repeating: "1", count: 1_000_000).joined(separator: ", ")
        #expect(try DelimitedText.splitValues(wide).count == 1_000_000)
        #expect(throws: GeoError.self) {
            try DelimitedText.splitValues(String(repeating: ",", count: 1_000_000))
        }
    }

    /// Adversarial input stays linear: a million separators on one line, and a file of quotes.
    @Test func largeInputs() throws {
        let wide = String(repeating: ",", count: 1_000_000)
        #expect(try DelimitedText.split(wide, separator: .comma).count == 1_000_001)
        // Pairs of lines holding one quote each are one quoted line break each.
        let quotes = DelimitedText(Data(String(repeating: "\"\n", count: 20_000).utf8))
        #expect(quotes.records.count == 10_000)
        #expect(quotes.rows.allSatisfy { $0.fields == ["\n"] })
        // A quote that never closes looks ahead a bounded number of lines only.
        let open = DelimitedText(Data(("x,\"" + String(repeating: "\nline", count: 200_000)).utf8))
        #expect(open.records.count == 200_001)
        #expect(open.records.first.map { if case .failure = $0 { true } else { false } } == true)
    }
}
