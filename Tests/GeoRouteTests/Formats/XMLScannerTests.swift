import Foundation
import GeoCore
import Testing

@testable import GeoRoute

@Suite("XMLScanner")
struct XMLScannerTests {
    private func events(_ text: String) throws(GeoError) -> [XMLScanner.Event] {
        try events(Data(text.utf8))
    }

    private func events(
        _ data: Data, limits: InputLimits = .standard
    ) throws(GeoError) -> [XMLScanner.Event] {
        var scanner = try XMLScanner(data, limits: limits)
        var events: [XMLScanner.Event] = []
        while let event = try scanner.next() { events.append(event) }
        return events
    }

    @Test func elementsAttributesAndText() throws {
        let got = try events(
            """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [ <!ENTITY x "y"> ]>
            <!-- a comment -->
            <g:gpx xmlns:g="urn:x" a='1' b = "x &amp; &lt;&#65;&#x42;&quot;&apos;&gt;">\
            <n>t&#233;<![CDATA[<raw> & ]]></n><e/></g:gpx>
            """)
        #expect(
            got == [
                .start(
                    name: "gpx", attributes: ["xmlns:g": "urn:x", "a": "1", "b": "x & <AB\"'>"]),
                .start(name: "n", attributes: [:]), .text("té"), .text("<raw> & "),
                .end(name: "n"), .start(name: "e", attributes: [:]), .end(name: "e"),
                .end(name: "gpx"),
            ])
    }

    @Test func lineEndingsAndWhiteSpaceInAttributes() throws {
        var scanner = try XMLScanner(Data("<a\r\nb=\"1\r\n2\tx\">\r\n\r<c/>x\ry</a>".utf8))
        #expect(try scanner.next() == .start(name: "a", attributes: ["b": "1 2 x"]))
        #expect(scanner.line == 3)
        #expect(try scanner.next() == .text("\n\n"))
        #expect(try scanner.next() == .start(name: "c", attributes: [:]))
        #expect(scanner.line == 5)
        _ = try scanner.next()
        #expect(try scanner.next() == .text("x\ny"))
        #expect(scanner.line == 6)
    }

    /// Each fault is refused with the line and column where it was found and a reason in words.
    @Test(arguments: [
        ("<a><b></a>", 1, "does not match"),
        ("<a>\n<b>", 2, "<b> opened on line 2 is never closed"),
        ("<a></a><b/>", 1, "content after the root element"),
        ("<a></a>text", 1, "content after the root element"),
        ("text<a/>", 1, "text before the root element"),
        ("<a b=1/>", 1, "values need quotes"),
        ("<a b=\"1\" b=\"2\"/>", 1, "given twice"),
        ("<a b=\"1\"c=\"2\"/>", 1, "'>' is missing"),
        ("<a b=\"<\"/>", 1, "'<' in an attribute"),
        ("<a>&nbsp;</a>", 1, "undefined entity"),
        ("<a>&amp</a>", 1, "malformed character or entity reference"),
        ("<a>&#0;</a>", 1, "malformed character reference"),
        ("<a>&#xD800;</a>", 1, "malformed character reference"),
        ("<a>&#x110000;</a>", 1, "malformed character reference"),
        ("<a>\u{1}</a>", 1, "character XML does not allow"),
        ("<a><!-- x </a>", 1, "comment that is not closed"),
        ("<a><![CDATA[x</a>", 1, "CDATA section that is not closed"),
        ("<![CDATA[x]]><a/>", 1, "CDATA section outside"),
        ("<a b=\"1", 1, "attribute value that is not closed"),
        ("<a", 1, "tag that is not finished"),
        ("<a></a", 1, "tag that is not finished"),
        ("<a>< b/></a>", 1, "a name is missing"),
        ("</a>", 1, "closing tag with no element open"),
        ("", 1, "the document is empty"),
        ("<!-- only a comment -->\n", 2, "the document is empty"),
        ("<?xml version=\"1.0\" encoding=\"UTF-7\"?><a/>", 1, "encoding \"UTF-7\""),
        ("<a/>\n<!DOCTYPE a>", 2, "document type declaration after"),
    ])
    func faults(text: String, line: Int, reason: String) {
        do {
            _ = try events(text)
            Issue.record("accepted \(GeoError.quoted(text))")
        } catch {
            #expect(error.kind == .malformedInput)
            #expect(error.line == line, "\(error.message)")
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func encodings() throws {
        let expected: [XMLScanner.Event] = [
            .start(name: "a", attributes: ["n": "Zürich"]), .end(name: "a"),
        ]
        #expect(try events("\u{FEFF}<a n=\"Zürich\"/>") == expected)
        let latin1 =
            Array("<?xml version='1.0' encoding='ISO-8859-1'?><a n=\"Z".utf8) + [0xFC]
            + Array("rich\"/>".utf8)
        #expect(try events(Data(latin1)) == expected)
        let cp1252 =
            Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?><a n=\"".utf8) + [0x80]
            + Array("\"/>".utf8)
        #expect(
            try events(Data(cp1252)) == [
                .start(name: "a", attributes: ["n": "€"]), .end(name: "a"),
            ])
        for (bom, encoding) in [
            ([0xFF, 0xFE] as [UInt8], String.Encoding.utf16LittleEndian),
            ([0xFE, 0xFF], .utf16BigEndian),
        ] {
            let body = try #require("<a n=\"Zürich\"/>".data(using: encoding))
            #expect(try events(Data(bom) + body) == expected)
        }
        #expect(throws: GeoError.self) { try events(Data([0xFF, 0xFE, 0x3C])) }
        // Not UTF-8: the first bad byte by offset and line.
        let bad = Array("<a>\n<b>".utf8) + [0xC3, 0x28] + Array("</b></a>".utf8)
        do {
            _ = try events(Data(bad))
            Issue.record("accepted bytes that are not UTF-8")
        } catch {
            #expect(error.line == 2)
            #expect(
                error.message.contains("byte 0xC3 at offset 7 is not valid UTF-8"),
                "\(error.message)")
        }
    }

    /// Deep nesting, many attributes and long runs of references cost linear time and no recursion.
    @Test func adversarialInputs() throws {
        let depth = 200_000
        let nested =
            String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(try events(Data(nested.utf8), limits: .unlimited).count == 2 * depth)
        let unclosed = String(repeating: "<a>", count: depth)
        #expect(throws: GeoError.self) { try events(Data(unclosed.utf8), limits: .unlimited) }
        // The standard limits stop at 128 levels, naming the limit.
        do {
            _ = try events(nested)
            Issue.record("200,000 levels within the standard limits")
        } catch {
            #expect(error.kind == .limitExceeded)
            #expect(error.message.contains("InputLimits.maximumDepth (128 levels)"))
        }
        let references = "<a>" + String(repeating: "&amp;", count: 500_000) + "</a>"
        #expect(try events(references)[1] == .text(String(repeating: "&", count: 500_000)))
        // A billion-laughs DTD defines entities that are never expanded.
        let laughs = """
            <!DOCTYPE a [<!ENTITY l "lol"><!ENTITY l2 "&l;&l;&l;&l;&l;&l;&l;&l;&l;&l;">]><a>&l2;</a>
            """
        #expect(throws: GeoError.self) { try events(laughs) }
    }
}
