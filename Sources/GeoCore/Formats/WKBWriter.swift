extension Geometry {
    /// The geometry as ISO Well-Known Binary (types 1–7, +1000 when every position has a height).
    ///
    /// `POINT EMPTY` is written as a point with NaN coordinates, as GEOS and PostGIS do.
    /// - Parameter byteOrder: The byte order of every number; little-endian by default.
    /// - Complexity: O(n).
    public func wkb(byteOrder: WKBByteOrder = .littleEndian) -> [UInt8] {
        var writer = WKBWriter(bigEndian: byteOrder == .bigEndian, extended: false)
        writer.write(self, withZ: hasZ, srid: nil)
        return writer.bytes
    }

    /// The geometry as PostGIS Extended WKB: the Z flag (`0x80000000`) for heights and, when an SRID is
    /// given, the SRID flag (`0x20000000`) and the SRID after the top-level type.
    public func ewkb(srid: Int32?, byteOrder: WKBByteOrder = .littleEndian) -> [UInt8] {
        var writer = WKBWriter(bigEndian: byteOrder == .bigEndian, extended: true)
        writer.write(self, withZ: hasZ, srid: srid)
        return writer.bytes
    }

    /// ISO WKB as upper-case hexadecimal text.
    public func wkbHex(byteOrder: WKBByteOrder = .littleEndian) -> String {
        Self.hex(wkb(byteOrder: byteOrder))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Appends WKB for geometries to a byte array.
struct WKBWriter {
    let bigEndian: Bool
    let extended: Bool
    private(set) var bytes: [UInt8] = []

    init(bigEndian: Bool, extended: Bool) {
        self.bigEndian = bigEndian
        self.extended = extended
    }

    mutating func write(_ geometry: Geometry, withZ: Bool, srid: Int32?) {
        bytes.append(bigEndian ? 0 : 1)
        var type = UInt32(geometry.type.rawValue)
        if extended {
            if withZ { type |= 0x8000_0000 }
            if srid != nil { type |= 0x2000_0000 }
        } else if withZ {
            type += 1000
        }
        uint32(type)
        if extended, let srid { uint32(UInt32(bitPattern: srid)) }
        switch geometry {
        case .point(let p):
            if let p {
                position(p, withZ)
            } else {
                double(.nan); double(.nan)
                if withZ { double(.nan) }
            }
        case .lineString(let ps):
            positions(ps, withZ)
        case .polygon(let rings):
            uint32(UInt32(truncatingIfNeeded: rings.count))
            for ring in rings { positions(ring, withZ) }
        case .multiPoint(let ps):
            uint32(UInt32(truncatingIfNeeded: ps.count))
            for p in ps { write(.point(p), withZ: withZ, srid: nil) }
        case .multiLineString(let lines):
            uint32(UInt32(truncatingIfNeeded: lines.count))
            for line in lines { write(.lineString(line), withZ: withZ, srid: nil) }
        case .multiPolygon(let polygons):
            uint32(UInt32(truncatingIfNeeded: polygons.count))
            for polygon in polygons { write(.polygon(polygon), withZ: withZ, srid: nil) }
        case .geometryCollection(let members):
            uint32(UInt32(truncatingIfNeeded: members.count))
            for member in members { write(member, withZ: withZ, srid: nil) }
        }
    }

    private mutating func positions(_ ps: [Position], _ withZ: Bool) {
        uint32(UInt32(truncatingIfNeeded: ps.count))
        for p in ps { position(p, withZ) }
    }

    private mutating func position(_ p: Position, _ withZ: Bool) {
        double(p.x)
        double(p.y)
        if withZ { double(p.z ?? .nan) }
    }

    private mutating func uint32(_ value: UInt32) {
        let v = bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: v) { bytes.append(contentsOf: $0) }
    }

    private mutating func double(_ value: Double) {
        let bits = value.bitPattern
        let v = bigEndian ? bits.bigEndian : bits.littleEndian
        withUnsafeBytes(of: v) { bytes.append(contentsOf: $0) }
    }
}
