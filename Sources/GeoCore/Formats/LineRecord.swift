/// A value read from one record of line-based input, or why it could not be read, with the line it
/// came from: what Meridian's lenient readers return, so that one bad line is reported in its place
/// and never stops the others.
public struct LineRecord<Value> {
    /// The one-based line of the input the record starts on.
    public var line: Int
    /// The value, or the error (located at ``line``) that kept it from being read.
    public var value: Result<Value, GeoError>

    /// Creates a record.
    public init(line: Int, value: Result<Value, GeoError>) {
        self.line = line
        self.value = value
    }
}

extension LineRecord: Sendable where Value: Sendable {}
extension LineRecord: Equatable where Value: Equatable {}
extension LineRecord: Hashable where Value: Hashable {}

extension Array {
    /// The values of records that were read, dropping the failed ones.
    public func values<Value>() -> [Value] where Element == LineRecord<Value> {
        compactMap { try? $0.value.get() }
    }

    /// The first error of records, or `nil` when every record was read.
    public func firstError<Value>() -> GeoError? where Element == LineRecord<Value> {
        for record in self {
            if case .failure(let error) = record.value { return error }
        }
        return nil
    }
}
