import MIDI
import TextOutput
// Preset selection for a channel, with FluidSynth's fallbacks (fluid_synth_program_change and the GS bank
// style it uses by default).

extension SoundFont {
    /// The bank that percussion channels play.
    public static var percussionBank: Int { 128 }

    /// The index in `presets` of what a channel plays after its bank select and program change, or nil when
    /// the font has nothing to offer (the channel is then silent). Real-time safe: it searches `presetKeys`.
    ///
    /// This is FluidSynth's program-change fallback (fluid_synth_program_change, default bank-select style
    /// GS):
    /// - a percussion channel (General MIDI channel 10) selects in the drum banks: a bank below 128 (what CC0
    ///   selected) is taken as 128 + bank, so bank 0 means bank 128; it then tries (128, program) and finally
    ///   (128, 0), the standard drum kit;
    /// - a melodic channel tries (bank, program), then (0, program), then (0, 0), usually the piano.
    /// Like FluidSynth, nothing further is tried: a font with neither (e.g. drums only, asked for a melodic
    /// program) gives nil. `program` is taken modulo 128; a bank outside 0...65535 matches no preset.
    @_noLocks
    public func preferredPreset(bank: Int, program: Int, percussion: Bool) -> Int? {
        let program = program & 0x7F
        if percussion {
            // 128 is `percussionBank` (a static member here would need the class's metadata at run time).
            let drumBank = bank < 128 ? 128 + bank : bank
            if let found = validPreset(bank: drumBank, program: program) { return found }
            if let found = validPreset(bank: 128, program: program) { return found }
            return validPreset(bank: 128, program: 0)
        }
        if let found = validPreset(bank: bank, program: program) { return found }
        if let found = validPreset(bank: 0, program: program) { return found }
        return validPreset(bank: 0, program: 0)
    }

    /// `exactPreset` for a bank that a preset can have (0...65535); nil otherwise, so that a huge or negative
    /// bank never aliases another bank's key.
    @_noLocks
    func validPreset(bank: Int, program: Int) -> Int? {
        if bank < 0 || bank > 0xFFFF { return nil }
        return exactPreset(bank: bank, program: program)
    }
}

/// A channel that plays another preset than the bank and program it selected, because no font (no layer of a
/// stack) has that one: FluidSynth's GS-style fallback (`SoundFont.preferredPreset`) chose `preset`, or
/// nothing (the channel is silent). Backbeat says so once per channel, at the first note it plays that way.
public struct PresetSubstitution: Equatable, Sendable {
    /// 0...15.
    public var channel: Int
    /// The bank and program asked for (a percussion channel's bank is a drum bank, 128 and up).
    public var bank: Int
    public var program: Int
    /// The preset played instead (index into the font's `presets`), or nil: none, silence.
    public var preset: Int?

    public init(channel: Int, bank: Int, program: Int, preset: Int?) {
        self.channel = channel
        self.bank = bank
        self.program = program
        self.preset = preset
    }

    /// One word for an atomic: a marker bit, the bank (16 bits), the program (7) and preset + 1 (32 bits).
    @_noLocks
    static func packed(bank: Int, program: Int, preset: Int) -> Int {
        1 << 60 | (bank & 0xFFFF) << 40 | (program & 0x7F) << 32 | ((preset + 1) & 0xFFFF_FFFF)
    }

    init?(channel: Int, packed: Int) {
        guard packed != 0 else { return nil }
        let index = packed & 0xFFFF_FFFF
        self.init(channel: channel, bank: packed >> 40 & 0xFFFF, program: packed >> 32 & 0x7F,
                  preset: index > 0 ? index - 1 : nil)
    }

    /// The line that says it, e.g. "channel 1: the font has no bank 8 program 73; playing 000:073 Flute
    /// (FluidR3_GM.sf2) instead", or with a stack "no font of the stack has bank 8 program 73; ...".
    public func message(_ font: SoundFont?) -> String {
        guard let font else { return builtInMessage() }
        let fonts = font.layers.isEmpty ? "the font has no" : "no font of the stack has"
        let asked = bank >= SoundFont.percussionBank ? "drum kit \(bank):\(program)" : "bank \(bank) program \(program)"
        guard let preset, font.presets.indices.contains(preset) else {
            return "channel \(channel + 1): \(fonts) \(asked), nor a preset to fall back on (bank 0, program 0 or the standard kit): the channel is silent"
        }
        let p = font.presets[preset]
        let label = String(Int(p.bank)).leftPadded(3) + ":" + String(Int(p.program)).leftPadded(3) + " " + TerminalText.sanitized(p.name)
        return "channel \(channel + 1): \(fonts) \(asked); playing \(label) (\(TerminalText.sanitized(font.source(ofPreset: preset).displayLabel))) instead"
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(width - count, 0)) + self }
}
