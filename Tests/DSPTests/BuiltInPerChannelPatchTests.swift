// Issue 20: the built-in synth plays each channel's own patch (the one of its last program change), and a
// note keeps the patch it started with to the end of its release. Judged from the rendered audio.
import Foundation
import MIDI
import Testing
import TestSupport
@testable import DSP

@Suite struct BuiltInPerChannelPatchTests {
    static let sampleRate = 48_000.0

    /// RMS in dB of the 50 ms from `seconds` on.
    static func level(_ x: [Float], at seconds: Double) -> Double {
        let start = Int(seconds * sampleRate)
        return decibels(rms(x[start..<start + Int(0.05 * sampleRate)]))
    }

    static func program(_ program: UInt8, channel: UInt8) -> ShortMessage {
        ShortMessage(status: 0xC0 | channel, data1: program, data2: 0)
    }

    /// Organ (program 16) on channel 1, panned hard left, and piano (program 0) on channel 2, hard right,
    /// held together for 3.5 s: the organ sustains, the piano dies away, each in its own side. With one patch
    /// for every channel (the last program change's), both would decay like the piano.
    @Test func twoChannelsPlayTheirOwnPatchesAtOnce() {
        let synth = Synth(voices: 16)
        synth.setEffects(reverb: false, chorus: false)
        synth.prepare(sampleRate: Self.sampleRate, maxFrames: 256)
        let events: [(frame: Int, message: ShortMessage)] = [
            (0, Self.program(16, channel: 0)), (0, cc(10, 0, channel: 0)),
            (0, Self.program(0, channel: 1)), (0, cc(10, 127, channel: 1)),
            (256, noteOn(60, channel: 0)), (256, noteOn(67, channel: 1)),
        ]
        let out = render(synth, frames: Int(3.5 * Self.sampleRate), events: events)
        let organ = (early: Self.level(out.left, at: 0.5), late: Self.level(out.left, at: 3))
        let piano = (early: Self.level(out.right, at: 0.1), late: Self.level(out.right, at: 3))
        print(String(format: "organ %.1f -> %.1f dB, piano %.1f -> %.1f dB", organ.early, organ.late, piano.early, piano.late))
        #expect(organ.early > -30 && piano.early > -30)
        #expect(abs(organ.late - organ.early) < 3, "the organ sustains: \(organ)")
        #expect(piano.late < piano.early - 30, "the piano has decayed 30 dB: \(piano)")
        #expect(synth.currentPatch == SynthPatch.generalMIDI(program: 0), "the panel's patch: the last chosen")
    }

    /// A program change while a note is held changes the channel's later notes only: the organ note held
    /// through a change to piano keeps sustaining; a note after it decays as a piano's.
    @Test func aProgramChangeLeavesTheHeldNoteAsItWas() {
        let synth = Synth(voices: 16)
        synth.setEffects(reverb: false, chorus: false)
        synth.prepare(sampleRate: Self.sampleRate, maxFrames: 256)
        let held = render(synth, frames: Int(3.5 * Self.sampleRate), events: [
            (0, Self.program(16, channel: 0)), (256, noteOn(60)),
            (Int(1.0 * Self.sampleRate), Self.program(0, channel: 0)),
        ]).left
        let early = Self.level(held, at: 0.5), late = Self.level(held, at: 3)
        print(String(format: "held organ through a program change: %.1f -> %.1f dB", early, late))
        #expect(early > -30)
        #expect(abs(late - early) < 3, "the held organ note sustains: \(early) dB, then \(late) dB")

        synth.handle(noteOff(60))
        _ = render(synth, frames: Int(0.5 * Self.sampleRate)) // the organ's release ends
        synth.handle(noteOn(60))
        let next = render(synth, frames: Int(3.5 * Self.sampleRate)).left
        let first = Self.level(next, at: 0.1), last = Self.level(next, at: 3)
        print(String(format: "the next note (piano): %.1f -> %.1f dB", first, last))
        #expect(last < first - 30, "the next note plays the piano: \(first) dB, then \(last) dB")
    }

    /// Program changes are per channel: each channel's first note plays the patch of its own program, whatever
    /// the others chose later; GM System On sets every channel back to program 0's patch.
    @Test func eachChannelKeepsItsProgramAndAResetSetsProgramZero() {
        let synth = Synth(voices: 32)
        synth.prepare(sampleRate: Self.sampleRate, maxFrames: 256)
        let programs: [UInt8] = [16, 0, 40, 24, 56, 73, 80, 88, 32, 0, 16, 12, 4, 65, 46, 104]
        for (ch, program) in programs.enumerated() { synth.handle(Self.program(program, channel: UInt8(ch))) }
        for (ch, program) in programs.enumerated() {
            #expect(synth.patch(onChannel: ch) == SynthPatch.generalMIDI(program: Int(program)), "channel \(ch + 1)")
        }
        for ch in 0..<16 { synth.handle(noteOn(60, channel: UInt8(ch))) } // channel 10 plays the drum kit
        for v in 0..<synth.slotLimit where synth.voices.kind[v] == VoiceKind.wavetable && synth.voices.stage[v] != Synth.Stage.free {
            let ch = Int(synth.voices.channel[v])
            #expect(Int(synth.builtIn.slots.patch[v]) == SynthPatch.generalMIDI(program: Int(programs[ch])), "channel \(ch + 1)'s note")
        }
        let generalMIDIOn: [UInt8] = [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]
        _ = generalMIDIOn.withUnsafeBufferPointer { synth.handle(sysex: $0) }
        for ch in 0..<16 { #expect(synth.patch(onChannel: ch) == SynthPatch.generalMIDI(program: 0)) }
    }
}
