import Foundation

/// The world's country outlines shipped with the package: Natural Earth's 1:110m Admin 0
/// countries (public domain, naturalearthdata.com), read once per process.
///
/// One copy for every module that needs them: the renderer draws them as its basemap, place search
/// answers which country a point is in. Their properties carry `name` and `iso_a3` (ISO 3166-1
/// alpha-3, `-99` where Natural Earth has none). At 1:110m the outlines are off by kilometers at
/// coastlines and borders.
package enum NaturalEarthCountries {
    /// The attribution a picture or answer made from these outlines carries.
    package static let attribution = "Countries: Natural Earth (public domain)"

    private static let loaded: Result<[Feature], GeoError> = {
        guard
            let url = Bundle.module.url(forResource: "ne_110m_countries", withExtension: "geojson"),
            let data = try? Data(contentsOf: url)
        else {
            return .failure(
                GeoError(.io, "the package's copy of Natural Earth's countries is missing"))
        }
        do throws(GeoError) {
            switch try GeoJSON(data: data) {
            case .featureCollection(let collection): return .success(collection.features)
            case .feature(let feature): return .success([feature])
            case .geometry(let geometry):
                return .success([Feature(geometry: geometry, properties: .null)])
            }
        } catch {
            return .failure(error)
        }
    }()

    /// The countries as GeoJSON features.
    ///
    /// - Throws: `GeoError.Kind.io` when the package's copy cannot be read.
    package static func features() throws(GeoError) -> [Feature] {
        try loaded.get()
    }
}
