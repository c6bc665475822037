// Tuning and the system messages of a whole performance, heard in both synths (the built-in sine and a
// SoundFont's looped cosine): pitch in cents from the rendered audio, levels from its RMS.
import Foundation
import MIDI
import Testing
@testable import DSP

/// The two synths under test: the built-in sine (note 69 = 440 Hz) and the cosine font (note 69 = 441 Hz).
enum TunedSynth: CaseIterable, CustomStringConvertible {
    case builtIn, soundFont
    var description: String { self == .builtIn ? "built-in" : "SoundFont" }
    func make() -> Synth { self == .builtIn ? steadySynth() : cosineFontSynth([makeZone([SoundFontGenerator.sampleModes: 1])]) }
    /// A reset's program 0 replaced the built-in synth's steady sound: back to the sine.
    func restoreSteadySound(_ synth: Synth) {
        guard self == .builtIn else { return }
        let steady = steadySynth()
        for p in SynthParameter.allCases { synth.setParameter(p, steady.value(of: p)) }
    }
        /// The untuned frequency of `note`.
    func frequency(_ note: Double) -> Double { (self == .builtIn ? 440 : 441) * pow(2, (note - 69) / 12) }
}

@discardableResult
private func send(_ synth: Synth, _ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { synth.handle(sysex: $0) } }

/// Cents from `reference` to `f`.
private func cents(_ f: Double, _ reference: Double) -> Double { 1200 * log2(f / reference) }

/// The frequency of a note held from now: measured past its attack, then released and let die away.
private func sounding(_ synth: Synth, _ note: UInt8, channel: UInt8 = 0) -> Double {
    synth.handle(noteOn(note, channel: channel))
    let out = render(synth, frames: 14_400)
    synth.handle(noteOff(note, channel: channel))
    _ = render(synth, frames: 9_600)
    return zeroCrossingFrequency(out.left[4_800...], sampleRate: rate)
}

/// Frequency of what is sounding now, over the next 0.2 s.
private func measureNow(_ synth: Synth) -> Double {
    let out = render(synth, frames: 9_600)
    return zeroCrossingFrequency(out.left[480...], sampleRate: rate)
}

/// The MTS frequency word for an absolute pitch in cents above key 0.
private func word(_ absolute: Double) -> [UInt8] {
    let semitone = Int(absolute / 100)
    let fraction = Int(((absolute - Double(semitone) * 100) / 100 * 16384).rounded())
    return [UInt8(semitone), UInt8(fraction >> 7), UInt8(fraction & 0x7F)]
}

/// A bulk tuning dump of program `program`: key k at `pitch(k)` cents above key 0.
private func bulkDump(program: UInt8, _ pitch: (Int) -> Double) -> [UInt8] {
    var bytes: [UInt8] = [0xF0, 0x7E, 0x7F, 0x08, 0x01, program] + Array("quarter tones   ".utf8)
    for k in 0..<128 { bytes += word(pitch(k)) }
    let checksum = bytes[1...].reduce(0) { $0 ^ $1 } & 0x7F
    return bytes + [checksum, 0xF7]
}

/// A bulk tuning dump with a bank (08 04): key k at `pitch(k)` cents above key 0.
private func bulkDump(bank: UInt8, program: UInt8, _ pitch: (Int) -> Double) -> [UInt8] {
    var bytes: [UInt8] = [0xF0, 0x7E, 0x7F, 0x08, 0x04, bank, program] + Array("banked          ".utf8)
    for k in 0..<128 { bytes += word(pitch(k)) }
    let checksum = bytes[1...].reduce(0) { $0 ^ $1 } & 0x7F
    return bytes + [checksum, 0xF7]
}

private func rpn(_ msb: UInt8, _ lsb: UInt8, _ data: UInt8, _ dataLSB: UInt8? = nil, channel: UInt8 = 0) -> [ShortMessage] {
    [cc(101, msb, channel: channel), cc(100, lsb, channel: channel), cc(6, data, channel: channel)]
        + (dataLSB.map { [cc(38, $0, channel: channel)] } ?? [])
}

@Suite struct TuningTests {
    @Test(arguments: TunedSynth.allCases)
    func masterFineAndCoarseTuningMoveSoundingNotes(_ kind: TunedSynth) {
        let synth = kind.make()
        synth.handle(noteOn(69))
        _ = render(synth, frames: 4_800)
        #expect(send(synth, [0xF0, 0x7F, 0x7F, 0x04, 0x03, 0x00, 0x60, 0xF7]))  // 0x3000: +50 cents
        let fine = cents(measureNow(synth), kind.frequency(69))
        #expect(abs(fine - 50) < 2, "\(kind): \(fine) cents")
        #expect(send(synth, [0xF0, 0x7F, 0x7F, 0x04, 0x04, 0x00, 0x3E, 0xF7]))  // -2 semitones
        let both = cents(measureNow(synth), kind.frequency(69))
        #expect(abs(both - -150) < 2, "\(kind): \(both) cents")
        // GM2 System On brings A440 back.
        #expect(send(synth, UniversalSystemExclusive.generalMIDI2On.bytes()))
        kind.restoreSteadySound(synth)
        #expect(abs(cents(sounding(synth, 69), kind.frequency(69))) < 2)
    }

    @Test(arguments: TunedSynth.allCases)
    func rpnFineAndCoarseTuning(_ kind: TunedSynth) {
        let synth = kind.make()
        for m in rpn(0, 1, 0x20, 0) { synth.handle(m) }        // 0x1000: -50 cents
        #expect(abs(cents(sounding(synth, 69), kind.frequency(69)) - -50) < 2)
        for m in rpn(0, 2, 0x40 + 3) { synth.handle(m) }       // +3 semitones
        #expect(abs(cents(sounding(synth, 69), kind.frequency(69)) - 250) < 2)
        // Another channel is not tuned.
        #expect(abs(cents(sounding(synth, 69, channel: 1), kind.frequency(69))) < 2)
        // RPN null closes the selection: data entry then changes nothing.
        for m in [cc(101, 127), cc(100, 127), cc(6, 0x7F), cc(38, 0x7F)] { synth.handle(m) }
        #expect(abs(cents(sounding(synth, 69), kind.frequency(69)) - 250) < 2)
        // Reset All Controllers keeps RPN values (RP-015).
        synth.handle(cc(121, 0))
        #expect(abs(cents(sounding(synth, 69), kind.frequency(69)) - 250) < 2)
        // GM System On clears them.
        send(synth, UniversalSystemExclusive.generalMIDIOn.bytes())
        kind.restoreSteadySound(synth)
        #expect(abs(cents(sounding(synth, 69), kind.frequency(69))) < 2)
    }

    /// A quarter-tone scale by bulk dump: keys 60... step by 50 cents once RPN 3 selects the program.
    @Test(arguments: TunedSynth.allCases)
    func aQuarterToneScaleByBulkDumpIsHeardInQuarterTones(_ kind: TunedSynth) {
        let synth = kind.make()
        #expect(send(synth, bulkDump(program: 5) { k in 6000 + Double(k - 60) * 50 }))
        // Not selected yet: equal temperament.
        #expect(abs(cents(sounding(synth, 62), kind.frequency(62))) < 2)
        for m in rpn(0, 4, 0) + rpn(0, 3, 5) { synth.handle(m) }
        let pitches = (60...66).map { sounding(synth, UInt8($0)) }
        for (i, f) in pitches.enumerated() {
            let heard = cents(f, kind.frequency(60))
            #expect(abs(heard - Double(i) * 50) < 2, "\(kind): key \(60 + i) at \(heard) cents above key 60")
        }
    }

    /// Tuning banks hold their own programs: program 1 of bank 0, 1 and 2 differ, each channel hears the
    /// bank (RPN 4) and program (RPN 3) it selected; a bank no message wrote is untuned.
    @Test(arguments: TunedSynth.allCases)
    func tuningBanksHoldTheirOwnPrograms(_ kind: TunedSynth) {
        let synth = kind.make()
        #expect(send(synth, bulkDump(program: 1) { k in Double(k) * 100 + 30 }))                  // bank 0: +30
        #expect(send(synth, bulkDump(bank: 1, program: 1) { k in max(Double(k) * 100 - 20, 0) }))        // bank 1: -20
        // Bank 2 by single note tuning change (08 07): key 69 +45 cents.
        #expect(send(synth, [0xF0, 0x7E, 0x7F, 0x08, 0x07, 0x02, 0x01, 0x01, 69] + word(6945) + [0xF7]))
        for (channel, bank, expected) in [(UInt8(0), UInt8(0), 30.0), (1, 1, -20), (2, 2, 45), (3, 9, 0)] {
            for m in rpn(0, 4, bank, channel: channel) + rpn(0, 3, 1, channel: channel) { synth.handle(m) }
            let heard = cents(sounding(synth, 69, channel: channel), kind.frequency(69))
            #expect(abs(heard - expected) < 2, "\(kind): channel \(channel + 1), tuning bank \(bank) program 1: \(heard) cents")
        }
        // Bank 0's program is unchanged by the others.
        #expect(abs(cents(sounding(synth, 69, channel: 0), kind.frequency(69)) - 30) < 2)
    }

    @Test(arguments: TunedSynth.allCases)
    func singleNoteTuningChangeRetunesASoundingNote(_ kind: TunedSynth) {
        let synth = kind.make()
        for m in rpn(0, 3, 2) { synth.handle(m) }
        synth.handle(noteOn(69))
        _ = render(synth, frames: 4_800)
        // Real time: key 69 to 69 + 25 cents, now.
        #expect(send(synth, [0xF0, 0x7F, 0x7F, 0x08, 0x02, 0x02, 0x01, 69] + word(6925) + [0xF7]))
        #expect(abs(cents(measureNow(synth), kind.frequency(69)) - 25) < 2)
        synth.handle(noteOff(69))
        _ = render(synth, frames: 9_600)
        // With a bank, non-real-time: the sounding note keeps its pitch, the next one takes the new one.
        synth.handle(noteOn(69))
        _ = render(synth, frames: 4_800)
        #expect(send(synth, [0xF0, 0x7E, 0x7F, 0x08, 0x07, 0x00, 0x02, 0x01, 69] + word(6900 - 40) + [0xF7]))
        #expect(abs(cents(measureNow(synth), kind.frequency(69)) - 25) < 2)
        synth.handle(noteOff(69))
        _ = render(synth, frames: 9_600)
        #expect(abs(cents(sounding(synth, 69), kind.frequency(69)) - -40) < 2)
    }

    @Test(arguments: TunedSynth.allCases)
    func scaleOctaveTuningOneAndTwoByteForms(_ kind: TunedSynth) {
        let synth = kind.make()
        // 1-byte, non-real-time, channels 1 and 2: A (class 9) -50 cents, C# (class 1) +30.
        var classes = [UInt8](repeating: 0x40, count: 12)
        classes[9] = 0x40 - 50
        classes[1] = 0x40 + 30
        synth.handle(noteOn(57))
        _ = render(synth, frames: 4_800)
        #expect(send(synth, [0xF0, 0x7E, 0x7F, 0x08, 0x08, 0x00, 0x00, 0x03] + classes + [0xF7]))
        #expect(abs(cents(measureNow(synth), kind.frequency(57))) < 2, "non-real-time: the sounding note stays")
        synth.handle(noteOff(57))
        _ = render(synth, frames: 9_600)
        #expect(abs(cents(sounding(synth, 69), kind.frequency(69)) - -50) < 2)
        #expect(abs(cents(sounding(synth, 61), kind.frequency(61)) - 30) < 2)
        #expect(abs(cents(sounding(synth, 69, channel: 1), kind.frequency(69)) - -50) < 2)
        #expect(abs(cents(sounding(synth, 69, channel: 2), kind.frequency(69))) < 2, "channel 3 is not in the mask")
        // 2-byte, real-time, channel 1 only: A at +75 cents (8192 + 0.75 x 8192), the sounding note moves.
        synth.handle(noteOn(69))
        _ = render(synth, frames: 4_800)
        var wide: [UInt8] = []
        for pc in 0..<12 { wide += pc == 9 ? [0x70, 0x00] : [0x40, 0x00] }
        #expect(send(synth, [0xF0, 0x7F, 0x7F, 0x08, 0x09, 0x00, 0x00, 0x01] + wide + [0xF7]))
        #expect(abs(cents(measureNow(synth), kind.frequency(69)) - 75) < 2)
    }

    @Test(arguments: TunedSynth.allCases)
    func gsScaleTuningAndGSResetAndXGOn(_ kind: TunedSynth) {
        let synth = kind.make()
        // Part 1 (block 1), pitch class A (address 40 11 49): +30 cents, heard on a sounding note.
        synth.handle(noteOn(69))
        _ = render(synth, frames: 4_800)
        let scale = [0xF0] + UniversalSystemExclusive.gsDataSet(address: [0x40, 0x11, 0x49], data: [0x40 + 30]) + [0xF7]
        #expect(send(synth, scale))
        #expect(abs(cents(measureNow(synth), kind.frequency(69)) - 30) < 2)
        synth.handle(noteOff(69))
        _ = render(synth, frames: 9_600)
        // Part 10 is block 0: channel 10.
        let drums = [0xF0] + UniversalSystemExclusive.gsDataSet(address: [0x40, 0x10, 0x49], data: [0x40 - 20]) + [0xF7]
        #expect(send(synth, drums))
        if kind == .builtIn {  // the test font has no drum kit for channel 10; GM2 bank 121 makes it melodic
            synth.handle(cc(0, 121, channel: 9))
            #expect(abs(cents(sounding(synth, 69, channel: 9), kind.frequency(69)) - -20) < 2)
        }
        #expect(send(synth, [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]))
        kind.restoreSteadySound(synth)
        #expect(abs(cents(sounding(synth, 69), kind.frequency(69))) < 2, "GS Reset clears the scale tuning")
        #expect(send(synth, scale))
        #expect(send(synth, [0xF0, 0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00, 0xF7]))
        kind.restoreSteadySound(synth)
        #expect(abs(cents(sounding(synth, 69), kind.frequency(69))) < 2, "XG System On too")
    }

    @Test(arguments: TunedSynth.allCases)
    func masterBalanceAttenuatesTheOtherSide(_ kind: TunedSynth) {
        let synth = kind.make()
        synth.handle(noteOn(69))
        let centre = render(synth, frames: 9_600)
        #expect(send(synth, [0xF0, 0x7F, 0x7F, 0x04, 0x02, 0x00, 0x60, 0xF7]))  // 0x3000: halfway right
        _ = render(synth, frames: 2_400)
        let right = render(synth, frames: 9_600)
        let leftRatio = rms(right.left[...]) / rms(centre.left[4_800...])
        let rightRatio = rms(right.right[...]) / rms(centre.right[4_800...])
        #expect(abs(leftRatio - 0.5) < 0.02, "\(kind): left \(leftRatio)")
        #expect(abs(rightRatio - 1) < 0.02, "\(kind): right \(rightRatio)")
    }

    /// RPN 5: the modulation wheel's vibrato depth. At full wheel the pitch swings by the range.
    @Test(arguments: TunedSynth.allCases)
    func modulationDepthRangeScalesTheVibrato(_ kind: TunedSynth) {
        func swing(_ messages: [ShortMessage]) -> Double {
            let synth = kind.make()
            for m in messages { synth.handle(m) }
            synth.handle(cc(1, 127))
            synth.handle(noteOn(69))
            let out = render(synth, frames: 48_000)
            let periods = periodFrequencies(out.left[9_600...], sampleRate: rate)
            return cents(periods.max()!, kind.frequency(69))
        }
        let standard = swing([]), wide = swing(rpn(0, 5, 2))
        #expect(abs(standard - 50) < 8, "\(kind): default range peaks at \(standard) cents")
        #expect(abs(wide - 200) < 20, "\(kind): 2 semitones peaks at \(wide) cents")
    }

    @Test(arguments: TunedSynth.allCases)
    func unknownNRPNsAndIgnoredSysexChangeNothing(_ kind: TunedSynth) {
        let a = kind.make(), b = kind.make()
        for m in [cc(99, 1), cc(98, 8), cc(6, 100), cc(38, 3), cc(96, 0), cc(99, 37), cc(98, 5), cc(6, 0)] { b.handle(m) }
        let keyShift: [UInt8] = [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x11, 0x16, 0x40, 0x59, 0xF7] // GS part key shift
        #expect(!send(b, keyShift))
        #expect(!send(b, [0xF0, 0x7E, 0x7F, 0x08, 0x08, 0x00, 0xF7]))  // a scale tuning cut short
        #expect(b.ignoredSysexCount == 2 && a.ignoredSysexCount == 0)
        for s in [a, b] { s.handle(noteOn(64)) }
        let outA = render(a, frames: 4_800), outB = render(b, frames: 4_800)
        #expect(outA.left == outB.left && outA.right == outB.right)
    }

    /// RP-015: Reset All Controllers resets modulation, expression, pedals, bend; not volume, pan, tuning.
    @Test(arguments: TunedSynth.allCases)
    func resetAllControllersResetsWhatRP015ListsAndNothingElse(_ kind: TunedSynth) {
        let reference = kind.make()
        for m in [cc(7, 60), cc(10, 20)] + rpn(0, 1, 0x60, 0) + rpn(0, 0, 7) { reference.handle(m) }
        reference.handle(noteOn(69))
        let expected = render(reference, frames: 14_400)

        let synth = kind.make()
        for m in [cc(7, 60), cc(10, 20)] + rpn(0, 1, 0x60, 0) + rpn(0, 0, 7)
            + [cc(11, 30), cc(1, 127), bend(3_000), cc(64, 127), cc(121, 0)] { synth.handle(m) }
        synth.handle(noteOn(69))
        let out = render(synth, frames: 14_400)
        let f = zeroCrossingFrequency(out.left[4_800...], sampleRate: rate)
        #expect(abs(cents(f, kind.frequency(69)) - 50) < 2, "fine tuning kept, bend centred: \(cents(f, kind.frequency(69)))")
        #expect(abs(rms(out.left[4_800...]) / rms(expected.left[4_800...]) - 1) < 0.01, "volume and pan kept, expression full")
        #expect(abs(rms(out.right[4_800...]) / rms(expected.right[4_800...]) - 1) < 0.01)
        // The pedal is up: a note-off releases.
        synth.handle(noteOff(69))
        _ = render(synth, frames: 24_000)
        #expect(synth.activeVoiceCount == 0)
    }
}
