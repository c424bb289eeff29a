import Foundation

/// Reading and writing the ISO 8601 date-times of GPX (`xsd:dateTime`), without the cost and the
/// strictness of a date formatter: fractional seconds of any length and any or no time zone are
/// accepted. GPX, location logs and track files use it.
package enum ISO8601Time {
    /// The dates a reader accepts: the years 0001 to 9999 of ISO 8601's basic range, as seconds
    /// since 1970. Anything outside (say 1e300 s) is a mistake in the data, not a time.
    package static let validRange: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// A timestamp field as location logs write it: ISO 8601 (see ``parse(_:)``) or seconds since
    /// 1970 (a decimal number), within ``validRange``; `nil` otherwise.
    package static func timestamp(_ text: some StringProtocol) -> Date? {
        let date: Date
        if let seconds = NumberParsing.decimal(text) {
            date = Date(timeIntervalSince1970: seconds)
        } else if let parsed = parse(text) {
            date = parsed
        } else {
            return nil
        }
        return validRange.contains(date.timeIntervalSince1970) ? date : nil
    }

    /// Parses `YYYY-MM-DDThh:mm:ss[.f…][Z|±hh:mm|±hhmm|±hh]` (a space may replace the `T`; no zone
    /// means UTC). Returns `nil` for anything else, including out-of-range fields.
    package static func parse(_ text: some StringProtocol) -> Date? {
        let bytes = Array(text.utf8)
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<count {
                let b = bytes[i]
                guard b >= 48 && b <= 57 else { return nil }
                value = value * 10 + Int(b - 48)
                i += 1
            }
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard i < bytes.count && bytes[i] == character else { return false }
            i += 1
            return true
        }
        var sign = 1
        if i < bytes.count && (bytes[i] == 45 || bytes[i] == 43) {  // a signed year
            sign = bytes[i] == 45 ? -1 : 1
            i += 1
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45),
            let day = digits(2)
        else { return nil }
        guard i < bytes.count && (bytes[i] == 84 || bytes[i] == 116 || bytes[i] == 32) else {
            return nil
        }  // T t space
        i += 1
        guard let hour = digits(2), expect(58), let minute = digits(2), expect(58),
            let second = digits(2)
        else { return nil }
        var fraction = 0.0
        if i < bytes.count && (bytes[i] == 46 || bytes[i] == 44) {  // . or ,
            i += 1
            var numerator = 0, denominator = 1.0
            let start = i
            while i < bytes.count && bytes[i] >= 48 && bytes[i] <= 57 {
                if i - start < 15 {  // beyond femtoseconds nothing is representable
                    numerator = numerator * 10 + Int(bytes[i] - 48)
                    denominator *= 10
                }
                i += 1
            }
            guard i > start else { return nil }
            fraction = Double(numerator) / denominator
        }
        var offset = 0
        if i < bytes.count {
            switch bytes[i] {
            case 90, 122:  // Z z
                i += 1
            case 43, 45:  // + -
                let zoneSign = bytes[i] == 45 ? -1 : 1
                i += 1
                guard let hours = digits(2) else { return nil }
                var minutes = 0
                if i < bytes.count {
                    _ = expect(58)
                    guard let m = digits(2) else { return nil }
                    minutes = m
                }
                guard hours <= 23 && minutes <= 59 else { return nil }
                offset = zoneSign * (hours * 3600 + minutes * 60)
            default:
                return nil
            }
        }
        guard i == bytes.count else { return nil }
        guard
            month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month: month, year: sign * year)
                && hour <= 24 && minute <= 59 && second <= 60
        else { return nil }
        let days = daysFromCivil(year: sign * year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Formats a date as `YYYY-MM-DDThh:mm:ss[.ffffff]Z` in UTC, with as many fractional digits as
    /// needed (up to microseconds).
    package static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite && abs(interval) < 1e14 else { return "1970-01-01T00:00:00Z" }
        let micro = (interval * 1_000_000).rounded()
        let totalSeconds = (micro / 1_000_000).rounded(.down)
        var microseconds = Int(micro - totalSeconds * 1_000_000)
        let whole = Int(totalSeconds)
        let days = Int((Double(whole) / 86_400).rounded(.down))
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civilFromDays(days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width
                ? text : String(repeating: "0", count: width - text.count) + text
        }
        var text = "\(year < 0 ? "-" : "")\(pad(abs(year), 4))-\(pad(month, 2))-\(pad(day, 2))T"
        text +=
            "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if microseconds > 0 {
            var digits = 6
            while microseconds % 10 == 0 {
                microseconds /= 10
                digits -= 1
            }
            text += "." + pad(microseconds, digits)
        }
        return text + "Z"
    }

    private static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
