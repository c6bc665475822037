// TOML's four date and time values: offset date-time, local date-time, local date, local time.

/// A calendar date: year 0...9999, month 1...12, day 1...31 (valid for the month and year when parsed).
public struct TOMLDate: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) { (self.year, self.month, self.day) = (year, month, day) }
}

/// A time of day: hour 0...23, minute 0...59, second 0...60 (60 for a leap second) and nanosecond
/// 0...999_999_999 (digits of a fraction past nanoseconds are truncated when parsed, as TOML asks).
public struct TOMLTime: Sendable, Hashable {
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var nanosecond: Int

    public init(hour: Int, minute: Int, second: Int, nanosecond: Int = 0) {
        (self.hour, self.minute, self.second, self.nanosecond) = (hour, minute, second, nanosecond)
    }
}

/// A TOML date-time value, one of four kinds told apart by which parts are present:
/// - offset date-time (`1979-05-27T07:32:00Z`): date, time and offset;
/// - local date-time (`1979-05-27T07:32:00`): date and time;
/// - local date (`1979-05-27`): date only;
/// - local time (`07:32:00`): time only.
public struct TOMLDateTime: Sendable, Hashable, CustomStringConvertible {
    public var date: TOMLDate?
    public var time: TOMLTime?
    /// Offset from UTC in minutes (`-07:00` is -420, `Z` is 0); nil for the local kinds.
    public var offsetMinutes: Int?

    public init(date: TOMLDate? = nil, time: TOMLTime? = nil, offsetMinutes: Int? = nil) {
        self.date = date
        self.time = time
        self.offsetMinutes = offsetMinutes
    }

    /// The value as TOML (RFC 3339) writes it: `1979-05-27T07:32:00.5-07:00`, `1979-05-27`, `07:32:00`.
    /// A zero offset is written `Z`; the fraction has no trailing zeros.
    public var description: String {
        var text = ""
        if let date {
            text += "\(padded(date.year, 4))-\(padded(date.month, 2))-\(padded(date.day, 2))"
        }
        if let time {
            if date != nil { text += "T" }
            text += "\(padded(time.hour, 2)):\(padded(time.minute, 2)):\(padded(time.second, 2))"
            if time.nanosecond != 0 {
                var fraction = padded(time.nanosecond, 9)
                while fraction.last == "0" { fraction.removeLast() }
                text += "." + fraction
            }
        }
        if let offsetMinutes {
            if offsetMinutes == 0 {
                text += "Z"
            } else {
                let magnitude = offsetMinutes.magnitude
                text += (offsetMinutes < 0 ? "-" : "+") + "\(padded(Int(magnitude / 60), 2)):\(padded(Int(magnitude % 60), 2))"
            }
        }
        return text
    }
}

/// `value` in decimal with leading zeros up to `width` digits.
private func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
