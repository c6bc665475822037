import ArgumentParser
import DSP
import Engine

/// The one validation of every number on the command line: read as `DecimalText` reads it (plain decimal
/// digits: `0x10`, ` 1`, `nan`, `inf` are refused), within the option's range, which the message gives. Used
/// as an option's `transform`, with `parsing: .unconditional` so that a negative value reaches it (`--voices
/// -1` is then "must be a whole number from 1 to 4096", not "Missing value"); the parser's message names the
/// option and quotes the value: `The value '-1' is invalid for '--voices <voices>': must be ...` (exit 64).
enum NumberArgument {
    /// A whole number in `range` (a power of two too, with `powerOfTwo`).
    static func whole(_ range: ClosedRange<Int>, powerOfTwo: Bool = false) -> @Sendable (String) throws -> Int {
        { text in
            guard let value = DecimalText.integer(text), range.contains(value), !powerOfTwo || value & (value - 1) == 0 else {
                throw ValidationError(powerOfTwo ? "must be a power of two from \(range.lowerBound) to \(range.upperBound)"
                                      : "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
    }

    /// A built-in patch (`--patch`): its number, read as every number is (`whole`), or its name in any case
    /// ("soft pad", "soft-pad"). The message lists them all.
    static let patch: @Sendable (String) throws -> Int = { text in
        if let index = SynthPatch.index(named: text) { return index }
        let problem = "must be a built-in patch, its number (0 to \(SynthPatch.builtIn.count - 1)) or its name: "
            + SynthPatch.numberedNames + "; --program N chooses by General MIDI program (0 to 127)"
        do { return try whole(0...SynthPatch.builtIn.count - 1)(text) } catch { throw ValidationError(problem) }
    }

    /// A decimal number in `range`; `unit` follows the range in the message ("seconds").
    static func decimal(_ range: ClosedRange<Double>, unit: String) -> @Sendable (String) throws -> Double {
        { text in
            guard let value = DecimalText.decimal(text), range.contains(value) else {
                throw ValidationError("must be a number from \(shown(range.lowerBound)) to \(shown(range.upperBound)) (\(unit))")
            }
            return value
        }
    }

    /// `0.02`, `600`: a bound as a person writes it.
    private static func shown(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
