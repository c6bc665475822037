import MIDI

// What the built-in synth plays in place of a sound it has not, said once per channel as a font's preset
// substitution is (`PresetSubstitution`, published at the channel's next note by `publishSubstitution`):
// - a melodic program after a bank select other than 0 (GS variations, XG's and GM2's banks by MSB): the
//   built-in patches have no variations, so the program's own patch plays;
// - a drum part's program that numbers no kit of its own: the kit below it in its group of eight plays
//   (`DrumKit.index(program:)`).

extension Synth {
    /// After a program change on `ch` in the built-in synth: a substitution to say at the next note, or none.
    @_noLocks
    func noteBuiltInSubstitution(channel ch: Int, program: UInt8, drum: Bool) {
        let bank = Int(controls.channels[ch].bank)
        var substitution = 0
        if drum {
            let kit = Int(controls.channels[ch].drumKit)
            if DrumKit.programs[kit] != Int(program) {
                substitution = PresetSubstitution.packed(bank: 128, program: Int(program), preset: kit) // 128: `SoundFont.percussionBank`
            }
        } else if bank != 0 && bank != 121 {
            substitution = PresetSubstitution.packed(bank: bank, program: Int(program), preset: builtIn.channelPatches[ch].load(ordering: .relaxed))
        }
        controls.midi.substitution[ch] = substitution
    }
}

extension DrumKit {
    /// Each kit's program number, in the order of `kits`: for the real-time thread, which reads no Swift array.
    static var programs: InlineArray<9, Int> { @_noLocks get { [0, 8, 16, 24, 25, 32, 40, 48, 56] } }
}

extension PresetSubstitution {
    /// The line that says a built-in substitution (`font` nil): "channel 1: the built-in synth has no bank 8
    /// variation of program 73; playing patch 12 flute instead", or for a drum part "channel 10: the built-in
    /// synth has no drum kit 26; playing kit 25 TR-808 instead". `preset` is the patch, or the kit's index.
    func builtInMessage() -> String {
        let played = preset ?? 0
        if bank >= SoundFont.percussionBank {
            let kit = DrumKit.kits[min(max(played, 0), DrumKit.kits.count - 1)]
            return "channel \(channel + 1): the built-in synth has no drum kit \(program); playing kit \(kit.program) \(kit.name) instead"
        }
        let patch = SynthPatch.builtIn[min(max(played, 0), SynthPatch.builtIn.count - 1)]
        return "channel \(channel + 1): the built-in synth has no bank \(bank) variation of program \(program); playing patch \(played) \(patch.name) instead"
    }
}
