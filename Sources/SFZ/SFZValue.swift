/// An opcode's name split into its pattern and numbers, as the SFZ reference writes them: `amplitude_oncc7` is
/// `amplitude_onccN` with 7, `lfo2_freq` is `lfoN_freq` with 2, `ampeg_vel2attack` is `ampeg_velNattack`
/// with 2. Each run of digits becomes `N`; a run too long for a number leaves the name unknown.
struct SFZOpcodeName: Sendable, Equatable {
    var pattern: String
    var numbers: [Int]

    init(_ name: String) {
        var pattern = ""
        var numbers: [Int] = []
        var digits: Int?
        var length = 0
        for c in name {
            if let d = c.wholeNumberValue, c.isASCII {
                length += 1
                digits = (digits ?? 0) &* 10 &+ d
                continue
            }
            if let value = digits { pattern += length > 6 ? "#" : "N"; numbers.append(value); digits = nil; length = 0 }
            pattern.append(c)
        }
        if let value = digits { pattern += length > 6 ? "#" : "N"; numbers.append(value) }
        (self.pattern, self.numbers) = (pattern, numbers)
    }

    /// The first number (the CC, the LFO, the velocity point), or 0.
    var number: Int { numbers.first ?? 0 }
}

/// Why a value was not taken: what the opcode accepts.
struct SFZBadValue: Error, Sendable {
    var accepted: String
}

/// Reading opcode values: numbers within the reference's ranges, MIDI notes as numbers or names, words from
/// a list. Every failure says what is accepted; nothing traps (NaN, infinity, huge numbers and garbage are
/// refused).
enum SFZValue {
    /// A finite number (`-6`, `0.5`, `1e3`) within `range`.
    static func number(_ text: String, _ range: ClosedRange<Double>) throws(SFZBadValue) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw SFZBadValue(accepted: "a number from \(format(range.lowerBound)) to \(format(range.upperBound))")
        }
        return value
    }

    /// A whole number within `range` (a fraction is cut toward zero, as sfizz reads integer opcodes).
    static func integer(_ text: String, _ range: ClosedRange<Int>) throws(SFZBadValue) -> Int {
        guard let value = Double(text), value.isFinite, value >= Double(range.lowerBound), value < Double(range.upperBound) + 1 else {
            throw SFZBadValue(accepted: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(value.rounded(.towardZero))
    }

    /// A MIDI note 0 to 127 (`lowest` lets -1 through: "no key"), as a number or a name: `c4` is 60, `c#4` and
    /// `db4` are 61, octaves -1 to 9.
    static func note(_ text: String, lowest: Int = 0) throws(SFZBadValue) -> Int {
        let accepted = "a MIDI note from \(lowest) to 127, as a number or a name such as c4 (60), c#4 or db4"
        if let value = Double(text) {
            guard value.isFinite, value >= Double(lowest), value < 128 else { throw SFZBadValue(accepted: accepted) }
            return Int(value.rounded(.towardZero))
        }
        guard let note = noteName(text), note >= 0, note <= 127 else { throw SFZBadValue(accepted: accepted) }
        return note
    }

    /// The MIDI note a name such as `c4`, `C#4`, `db-1` or `b♭3` stands for (c4 = 60), or nil.
    static func noteName(_ text: String) -> Int? {
        var scalars = Substring(text).unicodeScalars[...]
        guard let letter = scalars.popFirst() else { return nil }
        let semitones: [Character: Int] = ["c": 0, "d": 2, "e": 4, "f": 5, "g": 7, "a": 9, "b": 11]
        guard let base = semitones[Character(String(letter).lowercased())] else { return nil }
        var note = base
        if let sign = scalars.first, sign == "#" || sign == "\u{266F}" { note += 1; scalars.removeFirst() } else if let sign = scalars.first, sign == "b" || sign == "\u{266D}" {
            note -= 1
            scalars.removeFirst()
        }
        let octaveText = String(String.UnicodeScalarView(scalars))
        guard octaveText.count <= 3, let octave = Int(octaveText), octave >= -1, octave <= 9 else { return nil }
        return (octave + 1) * 12 + note
    }

    /// One of `words` (ASCII letters compared without case).
    static func word<Value>(_ text: String, _ words: KeyValuePairs<String, Value>) throws(SFZBadValue) -> Value {
        let lower = text.lowercased()
        for (word, value) in words where word == lower { return value }
        throw SFZBadValue(accepted: "one of " + words.map(\.key).joined(separator: ", "))
    }

    /// A number without a needless ".0": "100", "0.5", "-144".
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// MIDI notes as SFZ names them.
public enum SFZNote {
    /// "c4" for 60, "c#4" for 61, "a0" for 21, "c-1" for 0 (sharps, lowercase, as the SFZ reference writes).
    public static func name(_ key: Int) -> String {
        let names = ["c", "c#", "d", "d#", "e", "f", "f#", "g", "g#", "a", "a#", "b"]
        guard key >= 0 && key <= 127 else { return String(key) }
        return names[key % 12] + String(key / 12 - 1)
    }
}
