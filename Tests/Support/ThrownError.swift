import GeoCore

/// What a throwing call threw, for tests that check an error's kind and message: `nil` when it
/// returned, and the kind "other" (with the error's description) for an error that is not a
/// `GeoError`.
public func thrownGeoError(_ body: () throws -> Void) -> (kind: GeoError.Kind, message: String)? {
    do {
        try body()
        return nil
    } catch let error as GeoError {
        return (error.kind, error.message)
    } catch {
        return (GeoError.Kind("other"), "\(error)")
    }
}
