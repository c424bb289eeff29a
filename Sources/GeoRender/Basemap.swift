import Foundation
import GeoCore

/// The world's country outlines shipped with the package: Natural Earth's 1:110m Admin 0
/// countries (public domain), read once.
enum Basemap {
    static let attribution = "Countries: Natural Earth (public domain)"

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

    /// The countries as GeoJSON features (their `name` property is the country's name).
    ///
    /// - Throws: `GeoError.Kind.io` when the package's copy cannot be read.
    static func countries() throws(GeoError) -> [Feature] {
        try loaded.get()
    }
}
