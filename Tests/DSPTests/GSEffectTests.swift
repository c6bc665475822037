// GS's reverb and chorus settings (Synth+EffectSysex.swift) on the synth and heard in its audio, and the
// reverb's characters, predelay, pre-LPF and echoes and the chorus's feedback and send to reverb on their own.
import Foundation
import Testing
@testable import DSP
import MIDI
import TestSupport

/// GS's reverb and chorus parameters (40 01 30...3F): set on the synth, heard in its audio.
struct GSEffectSysexTests {
    /// A GS data set to 40 01 `address` with `data`, its checksum right (or off by one with `badChecksum`).
    private func gs(_ address: UInt8, _ data: [UInt8], badChecksum: Bool = false) -> [UInt8] {
        let body: [UInt8] = [0x40, 0x01, address] + data
        let sum = body.reduce(0) { $0 + Int($1) }
        let checksum = UInt8((128 - sum % 128) % 128)
        return [0xF0, 0x41, 0x10, 0x42, 0x12] + body + [badChecksum ? (checksum + 1) & 0x7F : checksum, 0xF7]
    }

    private func send(_ synth: Synth, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { synth.handle(sysex: $0) }
    }

    private func rt60(_ synth: Synth) -> Float { ReverbSettings.decayTime(roomSize: synth.value(of: .roomSize)) }

    @Test func macrosAndParametersSetTheEffects() {
        let synth = Synth()
        synth.prepare(sampleRate: rate, maxFrames: 256)
        #expect(send(synth, gs(0x30, [0]))) // Room 1
        #expect(abs(rt60(synth) - 0.6) < 0.01)
        #expect(send(synth, gs(0x30, [4]))) // Hall 2
        #expect(abs(rt60(synth) - 2.8) < 0.01)
        #expect(send(synth, gs(0x30, [5]))) // Plate
        #expect(abs(rt60(synth) - 1.5) < 0.01)
        #expect(send(synth, gs(0x34, [64]))) // reverb time 64: e^(24 x 0.025) = 1.82 s
        #expect(abs(rt60(synth) - 1.822) < 0.01)
        #expect(send(synth, gs(0x33, [127])))
        #expect(synth.value(of: .reverbLevel) == 1)
        #expect(send(synth, gs(0x38, [2]))) // Chorus 3: GM2's rate 3, depth 19
        #expect(abs(synth.value(of: .chorusRate) - 0.366) < 0.001)
        #expect(abs(synth.value(of: .chorusDepth) - 6.25) < 0.001)
        // Consecutive addresses in one message: level 3A, feedback 3B, delay 3C, rate 3D, depth 3E, send to reverb 3F.
        #expect(send(synth, gs(0x3A, [32, 127, 79, 10, 15, 64])))
        #expect(abs(synth.value(of: .chorusLevel) - 32.0 / 127 * 4) < 0.001)
        #expect(synth.value(of: GSEffectSetting.chorusFeedback) == 1)
        #expect(abs(synth.value(of: GSEffectSetting.chorusDelay) - 8) < 0.001)
        #expect(abs(synth.value(of: .chorusRate) - 1.22) < 0.001)
        #expect(abs(synth.value(of: .chorusDepth) - 5) < 0.001)
        #expect(abs(synth.value(of: GSEffectSetting.chorusSendToReverb) - 64.0 / 127) < 0.001)
        // Character 31, pre-LPF 32, delay feedback 35, predelay 37.
        #expect(send(synth, gs(0x31, [2, 5])))
        #expect(synth.value(of: GSEffectSetting.reverbCharacter) == 2 && synth.value(of: GSEffectSetting.reverbPreLowPass) == 5)
        #expect(send(synth, gs(0x35, [127])) && synth.value(of: GSEffectSetting.reverbDelayFeedback) == 1)
        #expect(send(synth, gs(0x37, [40])) && synth.value(of: GSEffectSetting.reverbPredelay) == 40)
        #expect(send(synth, gs(0x30, [6]))) // Delay
        #expect(synth.value(of: GSEffectSetting.reverbCharacter) == 6)
        #expect(synth.ignoredSysexCount == 0)
        // A wrong checksum, the reverb's send to chorus, the chorus's pre-LPF alone, a character past 7: nothing
        // changes, each counted as ignored.
        #expect(!send(synth, gs(0x30, [0], badChecksum: true)))
        #expect(!send(synth, gs(0x36, [64])))
        #expect(!send(synth, gs(0x39, [3])))
        #expect(!send(synth, gs(0x31, [8])))
        #expect(synth.value(of: GSEffectSetting.reverbCharacter) == 6)
        #expect(synth.ignoredSysexCount == 4)
    }

    @Test func aGSResetReturnsTheEffectsToWhatTheyWereBeforeTheFile() {
        let synth = Synth()
        synth.prepare(sampleRate: rate, maxFrames: 256)
        synth.setEffect(.roomSize, 0.5) // the user's (a preset's, an option's) setting
        #expect(send(synth, gs(0x30, [4]))) // Hall 2
        #expect(send(synth, gs(0x3B, [100, 90])))
        #expect(send(synth, gs(0x33, [20])))
        #expect(abs(rt60(synth) - 2.8) < 0.01)
        #expect(send(synth, [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7])) // GS Reset
        #expect(synth.value(of: .roomSize) == 0.5, "back to the user's room size")
        #expect(synth.value(of: .reverbLevel) == EffectParameter.reverbLevel.defaultValue)
        for setting in GSEffectSetting.allCases {
            #expect(synth.value(of: setting) == setting.defaultValue, "\(setting) after GS Reset")
        }
    }

    @Test func theChorusSendsOnToTheReverb() {
        // Sine keys with only CC93: no tail after the note, until the chorus sends on to the reverb.
        func tail(_ sysex: [UInt8]?) -> Float {
            let synth = Synth(voices: 8, patch: 0)
            synth.prepare(sampleRate: rate, maxFrames: 256)
            if let sysex { #expect(send(synth, sysex)) }
            let out = render(synth, frames: Int(1.5 * rate), events: [(0, cc(93, 127)), (0, noteOn(60)), (Int(0.2 * rate), noteOff(60))])
            return peak(out.left[Int(rate)...])
        }
        #expect(tail(nil) == 0)
        #expect(tail(gs(0x3F, [127])) > 1e-4)
    }


    /// RT60 of the synth's reverb tail (sine keys, CC91 full) after `sysex`, measured from the audio after the
    /// note and its release have ended.
    private func measuredRT60(after sysex: [UInt8]) -> Double {
        let synth = Synth(voices: 8, patch: 0)
        synth.setEffects(reverb: true, chorus: false)
        synth.prepare(sampleRate: rate, maxFrames: 256)
        #expect(send(synth, sysex))
        let out = render(synth, frames: Int(8 * rate), events: [(0, cc(91, 127)), (0, noteOn(60)), (Int(0.2 * rate), noteOff(60))])
        let start = Int(0.6 * rate) // the voice has ended (sine keys' release)
        return decayTime((Array(out.left[start...]), Array(out.right[start...])), sampleRate: rate)
    }

    @Test func aHallMacroIsHeardLongerThanARoom() {
        let room = measuredRT60(after: gs(0x30, [0])), hall = measuredRT60(after: gs(0x30, [4]))
        #expect(abs(room / 0.6 - 1) < 0.1, "Room 1: RT60 \(room) s, set 0.6 s")
        #expect(abs(hall / 2.8 - 1) < 0.1, "Hall 2: RT60 \(hall) s, set 2.8 s")
    }

    @Test func theReverbLevelScalesTheTail() {
        // The synth panel's reverb row sets this value (Synth.setEffect): the tail follows it, rendered offline.
        func tail(level: Float) -> Double {
            let synth = Synth(voices: 8, patch: 0)
            synth.setEffect(.reverbLevel, level)
            synth.prepare(sampleRate: rate, maxFrames: 256)
            let out = render(synth, frames: Int(1.5 * rate), events: [(0, cc(91, 127)), (0, noteOn(60)), (Int(0.2 * rate), noteOff(60))])
            return rms(out.left[Int(rate)...])
        }
        let full = tail(level: 0.9), half = tail(level: 0.45)
        #expect(full > 1e-5)
        #expect(abs(half / full - 0.5) < 0.01, "tail ratio \(half / full) for level 0.45 / 0.9")
        #expect(tail(level: 0) == 0)
    }
}


/// The reverb's GS settings and the chorus's feedback on the effects alone, from their impulse responses.
struct ReverbCharacterTests {
    /// The first sample of `x` above `fraction` of its peak.
    private func onset(_ x: [Float], fraction: Float = 1e-3) -> Int {
        let top = peak(x[...])
        return x.firstIndex { abs($0) > fraction * top } ?? x.count
    }

    @Test func aRoomAnswersSoonerThanAHall() {
        var room = ReverbSettings(), hall = ReverbSettings()
        room.character = ReverbCharacter.room1.rawValue
        hall.character = ReverbCharacter.hall2.rawValue
        let r = reverbResponse(room, frames: Int(0.5 * rate)), h = reverbResponse(hall, frames: Int(0.5 * rate))
        let roomOnset = onset(r.left), hallOnset = onset(h.left)
        #expect(Double(hallOnset - roomOnset) > 0.01 * rate, "first echo: room \(roomOnset), hall \(hallOnset) samples")
    }

    @Test func thePredelayDelaysTheWholeReverb() {
        var settings = ReverbSettings()
        let plain = onset(reverbResponse(settings, frames: Int(0.5 * rate)).left)
        settings.predelay = 50
        let delayed = onset(reverbResponse(settings, frames: Int(0.5 * rate)).left)
        #expect(abs(delayed - plain - Int(0.05 * rate)) <= 1, "onset \(plain) then \(delayed) samples with a 50 ms predelay")
    }

    @Test func thePreLowPassDullsTheReverb() {
        func highShare(_ preLowPass: Int) -> Double {
            var settings = ReverbSettings()
            settings.preLowPass = preLowPass
            let response = reverbResponse(settings, frames: Int(0.8 * rate))
            return rms(octaveBand(response.left, centre: 4_000)[...]) / rms(octaveBand(response.left, centre: 250)[...])
        }
        let open = highShare(0), dull = highShare(7)
        #expect(dull < 0.25 * open, "4 kHz against 250 Hz: \(dull) with pre-LPF 7, \(open) without")
    }

    @Test(arguments: [ReverbCharacter.delay, .panningDelay])
    func theDelaysEchoAtTheirTimeAndFeedback(character: ReverbCharacter) {
        var settings = ReverbSettings()
        settings.character = character.rawValue
        settings.roomSize = 0.2
        settings.delayFeedback = 0.5
        let response = reverbResponse(settings, frames: Int(1.2 * rate))
        let period = Int(ReverbSettings.echoTime(roomSize: 0.2) * Float(rate))
        for k in 1...3 {
            let left = response.left[k * period], right = response.right[k * period]
            let echo = max(abs(left), abs(right))
            if k > 1 {
                let previous = max(abs(response.left[(k - 1) * period]), abs(response.right[(k - 1) * period]))
                #expect(abs(echo / previous - 0.45) < 1e-3, "echo \(k): \(echo) after \(previous)")
            }
            if character == .panningDelay {
                // Left, right, left: each echo in one channel only.
                #expect((k % 2 == 1 ? right : left) == 0 && (k % 2 == 1 ? left : right) != 0, "echo \(k): \(left), \(right)")
            } else {
                #expect(left == right && left != 0)
            }
        }
        #expect(peak(response.left[1..<period]) == 0, "nothing before the first echo")
    }

    @Test func chorusFeedbackRingsOnAndThenClears() {
        func output(feedback: Float) -> (samples: [Float], silent: Bool) {
            var chorus = ModulatedChorus(sampleRate: rate)
            var settings = ChorusSettings()
            settings.feedback = feedback
            chorus.apply(settings)
            let frames = Int(2 * rate)
            var input = [Float](repeating: 0, count: frames)
            input[0] = 1
            let left = processInBlocks(input) { chorus.process($0, left: $1, right: $2, frames: $3) }.left
            return (left, chorus.isSilent)
        }
        let dry = output(feedback: 0), fed = output(feedback: 0.8)
        let late = Int(0.05 * rate)..<Int(0.1 * rate) // after the longest delay without feedback
        #expect(peak(dry.samples[late]) == 0)
        #expect(peak(fed.samples[late]) > 1e-4)
        #expect(fed.silent && peak(fed.samples[Int(1.98 * rate)...]) == 0, "the fed-back line was not cleared")
    }
}
