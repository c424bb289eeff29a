internal import CGEOS
internal import CPROJ

/// A library version `major.minor.patch`.
public struct LibraryVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The major version.
    public var major: Int
    /// The minor version.
    public var minor: Int
    /// The patch level.
    public var patch: Int

    /// Creates a version.
    public init(_ major: Int, _ minor: Int, _ patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses the leading `major.minor[.patch]` of a version string such as `"3.11.1-CAPI-1.17.1"`.
    ///
    /// - Returns: `nil` if the text does not start with at least `major.minor`.
    public init?(parsing text: String) {
        let numbers = text.prefix { $0.isNumber || $0 == "." }.split(separator: ".").compactMap {
            Int($0)
        }
        guard numbers.count >= 2 else { return nil }
        self.init(numbers[0], numbers[1], numbers.count > 2 ? numbers[2] : 0)
    }

    public static func < (lhs: LibraryVersion, rhs: LibraryVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    public var description: String { "\(major).\(minor).\(patch)" }
}

/// The C libraries Meridian runs on, their versions, and the check that they are recent enough.
///
/// Meridian needs PROJ ≥ 9.1 (coordinate operations and Karney's geodesics) and GEOS ≥ 3.11 (the
/// reentrant API with concave hulls and make-valid). Nothing is checked or printed at start-up; call
/// ``checkVersions()`` where a deployment should fail early.
public enum NativeLibraries {
    /// The oldest supported PROJ.
    public static let minimumPROJ = LibraryVersion(9, 1)
    /// The oldest supported GEOS.
    public static let minimumGEOS = LibraryVersion(3, 11)

    /// The version of the PROJ library loaded at run time (from `proj_info`).
    public static var projVersion: LibraryVersion {
        let info = proj_info()
        return LibraryVersion(Int(info.major), Int(info.minor), Int(info.patch))
    }

    /// The version of the GEOS library loaded at run time (from `GEOSversion`).
    public static var geosVersion: LibraryVersion {
        guard let text = GEOSversion() else { return LibraryVersion(0, 0) }
        return LibraryVersion(parsing: String(cString: text)) ?? LibraryVersion(0, 0)
    }

    /// Throws unless the loaded PROJ and GEOS are at least ``minimumPROJ`` and ``minimumGEOS``.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/unsupportedVersion`` naming the library, the version
    ///   found and the version needed.
    public static func checkVersions() throws(GeoError) {
        let proj = projVersion
        guard proj >= minimumPROJ else {
            throw GeoError(
                .unsupportedVersion, "PROJ \(proj) is older than the required \(minimumPROJ)")
        }
        let geos = geosVersion
        guard geos >= minimumGEOS else {
            throw GeoError(
                .unsupportedVersion, "GEOS \(geos) is older than the required \(minimumGEOS)")
        }
    }
}
