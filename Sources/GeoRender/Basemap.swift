import GeoCore

/// The world's country outlines the renderer draws: GeoCore's copy of Natural Earth's 1:110m
/// Admin 0 countries (public domain).
enum Basemap {
    static let attribution = NaturalEarthCountries.attribution

    /// The countries as GeoJSON features (their `name` property is the country's name).
    ///
    /// - Throws: `GeoError.Kind.io` when the package's copy cannot be read.
    static func countries() throws(GeoError) -> [Feature] {
        try NaturalEarthCountries.features()
    }
}
