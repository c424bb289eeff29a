import Foundation

/// Seconds since 1970 of an ISO 8601 time as the reference CSVs write it, parsed by splitting the
/// text (a different route from the reader's byte parser): `YYYY-MM-DDThh:mm:ss[.f…](Z|±hh:mm)?`.
public func referenceTime(_ text: String) -> Double? {
    var body = Substring(text)
    var zone = 0.0
    if body.hasSuffix("Z") {
        body = body.dropLast()
    } else if body.count > 6, let sign = body.dropLast(5).last, sign == "+" || sign == "-",
        body.dropLast(2).last == ":"
    {
        let hours = Double(body.suffix(5).prefix(2)) ?? 0, minutes = Double(body.suffix(2)) ?? 0
        zone = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        body = body.dropLast(6)
    }
    let halves = body.split(separator: "T")
    guard halves.count == 2 else { return nil }
    let date = halves[0].split(separator: "-").compactMap { Int($0) }
    let clock = halves[1].split(separator: ":")
    guard date.count == 3, clock.count == 3, let h = Double(clock[0]), let m = Double(clock[1]),
        let s = Double(clock[2])
    else { return nil }
    var components = DateComponents()
    components.year = date[0]
    components.month = date[1]
    components.day = date[2]
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    guard let midnight = calendar.date(from: components) else { return nil }
    return midnight.timeIntervalSince1970 + h * 3600 + m * 60 + s - zone
}
