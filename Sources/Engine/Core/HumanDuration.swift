// Durations as a person types and reads them: `3h`, `90m`, `45s`, `1h30m`, or plain seconds.
import Foundation

/// A length of time written with hour, minute and second units (`--max-duration`).
public enum HumanDuration {
    /// The longest duration accepted: far beyond any render, short enough that frame counts never overflow.
    public static let limit = 100_000.0 * 3600

    /// The shortest duration accepted: a tenth of a second, what `format` shows.
    public static let minimum = 0.1

    /// Seconds in `text`: plain seconds (`90`, `2.5`, `DecimalText`'s digits: no `0x10`, no spaces) or
    /// numbers with units in the order h, m, s, each at most once (`3h`, `90m`, `45s`, `1h30m`, `1.5h`).
    /// Nil for anything else, below `minimum` and past `limit`.
    public static func parse(_ text: String) -> Double? {
        let lowered = text.lowercased()
        if let seconds = DecimalText.decimal(lowered) { return valid(seconds) }
        var total = 0.0
        var number = ""
        var units: [Character] = ["h", "m", "s"]
        var sawUnit = false
        for character in lowered {
            if character.isASCII && (character.isNumber || character == ".") {
                number.append(character)
                continue
            }
            guard let index = units.firstIndex(of: character), let value = Double(number), value.isFinite, value >= 0 else {
                return nil
            }
            total += value * (character == "h" ? 3600 : character == "m" ? 60 : 1)
            units.removeFirst(index + 1)  // later units only: "30m1h" and "1h1h" are refused
            number = ""
            sawUnit = true
        }
        guard sawUnit, number.isEmpty else { return nil }
        return valid(total)
    }

    private static func valid(_ seconds: Double) -> Double? {
        seconds.isFinite && seconds >= minimum && seconds <= limit ? seconds : nil
    }

    /// `seconds` in the same notation, to a tenth of a second: `1h30m`, `45s`, `2h0m0.5s`.
    public static func format(_ seconds: Double) -> String {
        guard seconds.isFinite else { return seconds > 0 ? "forever" : "?" }
        let tenths = (max(seconds, 0) * 10).rounded()
        guard tenths < 1e17 else { return String(format: "%.3gs", seconds) }
        let whole = Int(tenths) / 10, fraction = Int(tenths) % 10
        let hours = whole / 3600, minutes = whole / 60 % 60, secs = whole % 60
        let secondsText = fraction == 0 ? "\(secs)s" : "\(secs).\(fraction)s"
        if hours > 0 { return minutes == 0 && secs == 0 && fraction == 0 ? "\(hours)h" : "\(hours)h\(minutes)m" + (secs == 0 && fraction == 0 ? "" : secondsText) }
        if minutes > 0 { return secs == 0 && fraction == 0 ? "\(minutes)m" : "\(minutes)m" + secondsText }
        return secondsText
    }
}
