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
