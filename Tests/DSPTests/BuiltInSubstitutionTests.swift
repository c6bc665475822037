// What the built-in synth plays in place of a bank variation or a drum kit it has not, said once per channel
// at the channel's next note (Synth+BuiltInSubstitution.swift), as a font's preset substitution is.
import MIDI
import Testing
@testable import DSP

@Suite struct BuiltInSubstitutionTests {
    static func synth() -> Synth {
        let synth = Synth(voices: 8)
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        return synth
    }

    @Test func aBankVariationPlaysTheProgramsPatchAndIsSaidOnce() {
        let synth = Self.synth()
        synth.handle(cc(0, 8))
        synth.handle(ShortMessage(status: 0xC0, data1: 73, data2: 0))
        #expect(synth.takePresetSubstitutions().isEmpty, "said at the note, not at the program change")
        synth.handle(noteOn(69))
        let said = synth.takePresetSubstitutions()
        #expect(said.map { $0.message(nil) } == ["channel 1: the built-in synth has no bank 8 variation of program 73; playing patch 86 flute instead"])
        synth.handle(noteOn(71))
        #expect(synth.takePresetSubstitutions().isEmpty, "once per channel")
    }

    @Test func bank0AndGM2sMelodicBankAreNoSubstitution() {
        for bank: UInt8 in [0, 121] {
            let synth = Self.synth()
            synth.handle(cc(0, bank, channel: 2))
            synth.handle(ShortMessage(status: 0xC2, data1: 40, data2: 0))
            synth.handle(noteOn(69, channel: 2))
            #expect(synth.takePresetSubstitutions().isEmpty, "bank \(bank)")
        }
    }

    @Test func aKitNumberWithoutAKitPlaysTheOneBelowAndSaysSo() {
        let synth = Self.synth()
        synth.handle(ShortMessage(status: 0xC9, data1: 26, data2: 0))
        synth.handle(noteOn(36, channel: 9))
        #expect(synth.takePresetSubstitutions().map { $0.message(nil) }
                == ["channel 10: the built-in synth has no drum kit 26; playing kit 25 TR-808 instead"])
        let exact = Self.synth()
        exact.handle(ShortMessage(status: 0xC9, data1: 25, data2: 0))
        exact.handle(noteOn(36, channel: 9))
        #expect(exact.takePresetSubstitutions().isEmpty)
        #expect(DrumKit.kits.map(\.program) == (0..<9).map { DrumKit.programs[$0] }, "the real-time copy of the kits' programs")
    }
}
