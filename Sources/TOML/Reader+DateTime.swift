// Dates and times (RFC 3339, as TOML 1.0 takes them: seconds required, `T`, `t` or a space between date and
// time, `Z`, `z` or ±HH:MM as offset).

extension Reader {
    /// Whether a date starts at `pos`: four digits and a `-`.
    func startsDate() -> Bool { digitsAhead(4) && peek(4) == UInt8(ascii: "-") }

    /// Whether a time starts at `pos`: two digits and a `:`.
    func startsTime() -> Bool { digitsAhead(2) && peek(2) == UInt8(ascii: ":") }

    private func digitsAhead(_ count: Int) -> Bool {
        guard end - pos >= count else { return false }
        for offset in pos..<pos + count where !base[offset].isDecimalDigit { return false }
        return true
    }

    /// Parses a local date, a local date-time or an offset date-time.
    mutating func parseDateOrDateTime() throws(ParseFailure) -> TOMLDateTime {
        let date = try parseDate()
        let separator = peek()
        let hasTime = separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
            || (separator == UInt8(ascii: " ") && peek(1)?.isDecimalDigit == true)
        guard hasTime else {
            try checkScalarEnd("a date")
            return TOMLDateTime(date: date)
        }
        pos += 1
        let time = try parseTime()
        let offset = try parseOffset()
        try checkScalarEnd("a date-time")
        return TOMLDateTime(date: date, time: time, offsetMinutes: offset)
    }

    /// Parses a local time.
    mutating func parseLocalTime() throws(ParseFailure) -> TOMLDateTime {
        let time = try parseTime()
        try checkScalarEnd("a time")
        return TOMLDateTime(time: time)
    }

    private mutating func parseDate() throws(ParseFailure) -> TOMLDate {
        let year = try field("year", digits: 4, 0...9999)
        try skip("-", after: "the year")
        let month = try field("month", digits: 2, 1...12)
        try skip("-", after: "the month")
        let day = try field("day", digits: 2, 1...Reader.days(inMonth: month, year: year))
        return TOMLDate(year: year, month: month, day: day)
    }

    private mutating func parseTime() throws(ParseFailure) -> TOMLTime {
        let hour = try field("hour", digits: 2, 0...23)
        try skip(":", after: "the hour")
        let minute = try field("minute", digits: 2, 0...59)
        guard peek() == UInt8(ascii: ":") else {
            throw fail("expected ':' and seconds after the minutes, found \(describe(pos)) (TOML 1.0 requires seconds)")
        }
        pos += 1
        let second = try field("second", digits: 2, 0...60)
        return TOMLTime(hour: hour, minute: minute, second: second, nanosecond: try parseFraction())
    }

    /// Parses the fraction of a second, if any, as nanoseconds (digits past nanoseconds are truncated).
    private mutating func parseFraction() throws(ParseFailure) -> Int {
        guard peek() == UInt8(ascii: ".") else { return 0 }
        pos += 1
        guard peek()?.isDecimalDigit == true else {
            throw fail("expected a digit after the decimal point of the seconds, found \(describe(pos))")
        }
        var nanosecond = 0
        var digits = 0
        while let byte = peek(), byte.isDecimalDigit {
            if digits < 9 {
                nanosecond = nanosecond * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            }
            pos += 1
        }
        while digits < 9 {
            nanosecond *= 10
            digits += 1
        }
        return nanosecond
    }

    /// Parses `Z`, `z` or ±HH:MM as minutes from UTC, or nil if there is no offset.
    private mutating func parseOffset() throws(ParseFailure) -> Int? {
        guard let sign = peek() else { return nil }
        if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
            pos += 1
            return 0
        }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        pos += 1
        let hours = try field("offset hour", digits: 2, 0...23)
        try skip(":", after: "the offset hours")
        let minutes = try field("offset minute", digits: 2, 0...59)
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
    }

    /// Parses exactly `digits` decimal digits whose value must be in `range`.
    private mutating func field(_ name: String, digits: Int, _ range: ClosedRange<Int>) throws(ParseFailure) -> Int {
        let start = pos
        var value = 0
        for _ in 0..<digits {
            guard let byte = peek(), byte.isDecimalDigit else {
                throw fail("expected a \(digits)-digit \(name), found \(describe(pos))")
            }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            pos += 1
        }
        guard range.contains(value) else {
            throw fail("\(name) \(string(start..<pos)) is out of range (\(range.lowerBound) to \(range.upperBound))", at: start)
        }
        return value
    }

    private mutating func skip(_ separator: Unicode.Scalar, after what: String) throws(ParseFailure) {
        guard peek() == UInt8(ascii: separator) else {
            throw fail("expected '\(separator)' after \(what), found \(describe(pos))")
        }
        pos += 1
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
