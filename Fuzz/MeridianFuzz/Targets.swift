import Foundation
import GeoCluster
import GeoCore
import GeoFence
import GeoRender
import GeoRoute
import GeoSearch

/// The fuzz targets: each takes untrusted bytes, must never crash, hang or leak, and where a writer
/// exists checks that what it reads, written and read again, is the same value.
///
/// A failed check is a finding: it stops the process (`Finding.report`), so libFuzzer saves the
/// input. Typed errors are the expected answer to bad input and are ignored.
enum Targets {
    static let all: [String: @Sendable (Data) -> Void] = [
        "wkt": wkt, "wkb": wkb, "geojson": geojson, "polyline": polyline, "gpx": gpx, "csv": csv,
        "fences": fences, "tracks": tracks, "points": points, "store": store, "proj": proj,
        "render": render, "lines": lines, "live": live, "places": places,
    ]

    /// Place lists (GeoNames layouts, GeoJSON points) into a place index: the nearest places equal
    /// a brute-force geodesic scan, and text search and completions run on the names.
    static func places(_ data: Data) {
        guard data.count <= 1 << 16, let places = try? PlaceFile.read(data), places.count <= 2_000,
            let index = try? PlaceIndex(places, coordinate: \.coordinate, name: \.name)
        else { return }
        let queries =
            [
                Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 89.9, longitude: 179.9),
                Coordinate(latitude: -90, longitude: 0),
            ] + places.prefix(2).map(\.coordinate)
        for q in queries {
            var expected = [(index: Int, distance: Double)]()
            for (i, place) in places.enumerated() {
                expected.append((i, Geodesic.distance(from: q, to: place.coordinate)))
            }
            expected.sort { a, b in
                a.distance < b.distance || (a.distance == b.distance && a.index < b.index)
            }
            let found = index.nearest(3, to: q)
            // Equal within the chord formula's 0.1 µm: an index may differ only among near-ties.
            for (f, e) in zip(found, expected) {
                Finding.check(
                    f.index == e.index || abs(f.distance - e.distance) < 1e-6, "nearest place", data
                )
            }
            Finding.check(found.count == min(3, places.count), "nearest count", data)
        }
        if let name = places.first?.name {
            _ = index.search(
                name,
                in: CoordinateRegion(
                    center: queries[0], latitudinalMeters: 1e6, longitudinalMeters: 1e6))
            _ = index.completions(for: String(name.prefix(2)))
        }
    }

    /// WKT in; its written form reads back as the same geometry.
    static func wkt(_ data: Data) {
        guard data.count <= 1 << 16, let text = String(data: data, encoding: .utf8),
            let geometry = try? Geometry(wkt: text)
        else { return }
        // NaN is never equal to itself, and heights are written only when every position has one.
        let positions = geometry.positions
        guard positions.allSatisfy({ !$0.x.isNaN && !$0.y.isNaN && !($0.z?.isNaN ?? false) }),
            Set(positions.map { $0.z == nil }).count <= 1
        else { return }
        Finding.check((try? Geometry(wkt: geometry.wkt)) == geometry, "WKT round trip", data)
    }

    /// WKB and EWKB in; its written form reads back as the same geometry.
    static func wkb(_ data: Data) {
        guard let geometry = try? Geometry(wkb: data) else { return }
        let positions = geometry.positions
        if positions.allSatisfy({ !$0.x.isNaN && !$0.y.isNaN && !($0.z?.isNaN ?? false) }),
            Set(positions.map { $0.z == nil }).count <= 1
        {
            Finding.check((try? Geometry(wkb: geometry.wkb())) == geometry, "WKB round trip", data)
        }
        _ = try? Geometry(wkbHex: String(decoding: data, as: UTF8.self))
    }

    /// GeoJSON in; its written form reads back as the same document; its documents, line by line.
    static func geojson(_ data: Data) {
        _ = try? GeoJSON.documents(in: data)
        guard let document = try? GeoJSON(data: data) else { return }
        let again = try? GeoJSON(parsing: document.jsonText)
        Finding.check(again?.jsonText == document.jsonText, "GeoJSON round trip", data)
    }

    /// Encoded polylines in; a decoded line encodes and decodes to the same coordinates.
    static func polyline(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        for precision in [5, 6] {
            // Beyond 2⁵⁰ units a decoded value no longer holds its integer exactly as a Double.
            let exact = 0x1p50 / pow(10, Double(precision))
            guard let coordinates = try? EncodedPolyline.decode(text, precision: precision),
                coordinates.allSatisfy({ abs($0.latitude) < exact && abs($0.longitude) < exact }),
                let encoded = try? EncodedPolyline.encode(coordinates, precision: precision)
            else { continue }
            let again = try? EncodedPolyline.decode(encoded, precision: precision)
            Finding.check(again == coordinates, "polyline round trip", data)
        }
    }

    /// GPX in; once written, the document reads back to one that writes the same text (the first
    /// write normalizes numbers and times, so the second must change nothing).
    static func gpx(_ data: Data) {
        guard let document = try? GPX.read(data), let xml = try? GPX.write(document) else { return }
        let again = (try? GPX.read(Data(xml.utf8))).flatMap { try? GPX.write($0) }
        Finding.check(again == xml, "GPX round trip", data)
    }

    /// Every CSV reader on the same bytes.
    static func csv(_ data: Data) {
        let text = DelimitedText(data)
        _ = text.rows
        _ = try? CoordinateCSV.read(data)
        _ = try? CoordinateCSV.read(data, order: .longitudeFirst)
        _ = try? LocationCSV.read(data)
    }

    static func fences(_ data: Data) {
        _ = try? FenceFile.read(data, format: .csv)
        _ = try? FenceFile.read(data, format: .geojson)
    }

    static func tracks(_ data: Data) {
        _ = try? TrackFile.readCSV(data)
        _ = try? TrackFile.readGeoJSON(data)
        _ = try? TrackFile.readEncoded(data)
    }

    /// Cluster input: points from CSV or GeoJSON, and an index over them.
    static func points(_ data: Data) {
        guard let features = try? PointFeature.read(data), features.count <= 5_000 else { return }
        let index = try? ClusterIndex(features, coordinate: { $0.coordinate })
        _ = index?.clusters(in: BoundingBox.world, zoom: 3)
    }

    /// The geofence store's file format: a file that decodes encodes to one that decodes the same.
    static func store(_ data: Data) {
        guard let snapshot = try? GeofenceStoreFormat.decode(Array(data)) else { return }
        let again = (try? GeofenceStoreFormat.encode(snapshot)).flatMap {
            try? GeofenceStoreFormat.decode($0)
        }
        Finding.check(again == snapshot, "store round trip", data)
    }

    /// PROJ definitions as a configuration file would give them.
    static func proj(_ data: Data) {
        guard data.count <= 512, let text = String(data: data, encoding: .utf8) else { return }
        if let transformer = try? CoordinateTransformer(pipeline: text) {
            _ = try? transformer.transform(Position(x: 12, y: 55))
        }
        let parts = text.split(separator: "\n", maxSplits: 1).map(String.init)
        if parts.count == 2,
            let pair = try? CoordinateTransformer(source: parts[0], target: parts[1])
        {
            _ = try? pair.transform(Position(x: 12, y: 55))
        }
    }

    /// The batch commands' line handling, which the CLI leaves to the library: the split into
    /// lines (one answer per line: as many lines as terminators, plus an unterminated last one),
    /// fields split at whitespace, commas or semicolons (quotes allowed), and numbers.
    static func lines(_ data: Data) {
        guard data.count <= 1 << 16 else { return }
        let text = DelimitedText.decode(data)
        let lines = DelimitedText.lines(of: text)
        var terminators = 0
        var previousCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                if !previousCR { terminators += 1 }
            } else if scalar == "\r" {
                terminators += 1
            }
            previousCR = scalar == "\r"
        }
        let last = text.unicodeScalars.last
        let expected = terminators + (last == nil || last == "\n" || last == "\r" ? 0 : 1)
        Finding.check(lines.count == expected, "one line per terminator", data)
        for line in lines.prefix(200) {
            for separator in [DelimitedText.Separator.whitespace, .comma, .semicolon, .tab] {
                guard let fields = try? DelimitedText.split(String(line), separator: separator)
                else { continue }
                for field in fields.prefix(20) { _ = DelimitedText.number(field) }
            }
        }
    }

    /// A live clustering stream (`meridian cluster --live`): every batch leaves the index
    /// consistent (each record filed once, in its cell) and its greedy decisions those of a
    /// brute-force pass; a refused batch changes nothing; at the end every zoom holds every
    /// element once.
    static func live(_ data: Data) {
        guard data.count <= 1 << 13 else { return }
        let text = DelimitedText.decode(data)
        guard
            var index = try? LiveClusterIndex<String>(
                options: ClusterOptions(radius: 80, maxZoom: 8))
        else { return }
        var batch = [LiveClusterChange<String>]()
        func commit() {
            let version = index.snapshot.version, count = index.count
            do {
                try index.apply(batch)
            } catch {
                Finding.check(
                    index.snapshot.version == version && index.count == count,
                    "a refused batch changes nothing", data)
            }
            batch.removeAll()
            Finding.check(index.consistencyProblems.isEmpty, "live index consistent", data)
            Finding.check(index.greedyProblems.isEmpty, "live greedy decisions", data)
        }
        for line in DelimitedText.lines(of: text).prefix(300) {
            switch try? LiveClusterCommand(line: line) {
            case .change(let change)?: batch.append(change)
            case .commit?, .view?: commit()
            case nil: break
            }
        }
        commit()
        for zoom in 0...9 {
            let total = index.snapshot.clusters(in: BoundingBox.world, zoom: Double(zoom))
                .reduce(0) { $0 + $1.pointCount }
            Finding.check(total == index.count, "every element once at zoom \(zoom)", data)
        }
    }

    /// GeoJSON to SVG: the renderer never fails on what the reader accepts.
    static func render(_ data: Data) {
        guard data.count <= 1 << 14, let documents = try? GeoJSON.documents(in: data) else {
            return
        }
        let features = documents.flatMap(\.features)
        guard let map = try? SVGMap(fitting: features, size: MapSize(width: 300, height: 200))
        else { return }
        _ = try? map.render()
    }
}

/// Stops the process on a failed check, so that the fuzzer keeps the input.
enum Finding {
    static func check(_ condition: Bool, _ what: String, _ data: Data) {
        guard !condition else { return }
        FileHandle.standardError.write(
            Data("finding: \(what) failed on \(data.count) bytes\n".utf8))
        abort()
    }
}
