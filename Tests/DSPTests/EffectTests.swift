// The send effects (Sources/DSP/Effects/), tested from their audio: the reverb's decay time against its
// setting (Schroeder's backward integration), the decorrelation of its left and right tails, the chorus's
// sweep read back from the delay of clicks through it, the sends following CC91/CC93 and the zones'
// generators 16/15, silence after the tails, and periods that change nothing.
import Foundation
import Testing
@testable import DSP
import MIDI
import TestSupport

/// The reverb alone: `frames` samples of its response to a unit impulse (damping 0, level 1).
private func reverbImpulse(roomSize: Float, width: Float = 1, frames: Int, sampleRate: Double = 48_000) -> (left: [Float], right: [Float]) {
    var reverb = FeedbackDelayReverb(sampleRate: sampleRate)
    var settings = ReverbSettings()
    settings.roomSize = roomSize
    settings.damping = 0
    settings.width = width
    settings.level = 1
    reverb.apply(settings)
    var input = [Float](repeating: 0, count: frames)
    input[0] = 1
    var left = [Float](repeating: 0, count: frames), right = [Float](repeating: 0, count: frames)
    input.withUnsafeBufferPointer { x in
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                var n = 0
                while n < frames {
                    let count = min(256, frames - n)
                    reverb.process(x.baseAddress! + n, left: l.baseAddress! + n, right: r.baseAddress! + n, frames: count)
                    n += count
                }
            }
        }
    }
    return (left, right)
}

/// RT60 from an impulse response: the energy decay curve (backward integral of L^2 + R^2), a straight line
/// fitted to it between -5 and -35 dB, extrapolated to -60 dB.
private func decayTime(_ response: (left: [Float], right: [Float]), sampleRate: Double) -> Double {
    let n = response.left.count
    var curve = [Double](repeating: 0, count: n)
    var sum = 0.0
    for i in stride(from: n - 1, through: 0, by: -1) {
        sum += Double(response.left[i] * response.left[i] + response.right[i] * response.right[i])
        curve[i] = sum
    }
    let total = curve[0]
    var xs: [Double] = [], ys: [Double] = []
    for i in 0..<n {
        let db = 10 * log10(max(curve[i] / total, 1e-30))
        if db <= -5 && db >= -35 { xs.append(Double(i) / sampleRate); ys.append(db) }
    }
    let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
    var sxy = 0.0, sxx = 0.0
    for (x, y) in zip(xs, ys) { sxy += (x - mx) * (y - my); sxx += (x - mx) * (x - mx) }
    return -60 / (sxy / sxx)
}

/// Pearson correlation of two equal-length signals.
private func correlation(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Double {
    var ab = 0.0, aa = 0.0, bb = 0.0
    for (x, y) in zip(a, b) { ab += Double(x) * Double(y); aa += Double(x) * Double(x); bb += Double(y) * Double(y) }
    return ab / max((aa * bb).squareRoot(), 1e-30)
}

struct EffectTests {
    @Test(arguments: [Float(0), 0.2, 0.5, 1])
    func reverbDecaysInItsRT60(roomSize: Float) {
        let expected = Double(ReverbSettings.decayTime(roomSize: roomSize))
        let response = reverbImpulse(roomSize: roomSize, frames: Int(1.5 * expected * rate))
        let measured = decayTime(response, sampleRate: rate)
        #expect(abs(measured / expected - 1) < 0.1, "room \(roomSize): RT60 \(measured) s, set \(expected) s")
    }

    @Test func reverbTailsAreDecorrelatedAtFullWidth() {
        let response = reverbImpulse(roomSize: 0.2, width: 1, frames: Int(rate))
        let tail = Int(0.05 * rate)..<Int(rate)
        let wide = correlation(response.left[tail], response.right[tail])
        #expect(abs(wide) < 0.2, "left/right correlation \(wide) at width 1")
        #expect(rms(response.left[tail]) > 1e-3 && rms(response.right[tail]) > 1e-3)
        let narrow = reverbImpulse(roomSize: 0.2, width: 0, frames: Int(rate))
        let same = correlation(narrow.left[tail], narrow.right[tail])
        #expect(same > 0.999, "left/right correlation \(same) at width 0")
    }

    @Test func chorusSweepsItsDelayAtItsRateAndDepth() {
        var chorus = ModulatedChorus(sampleRate: rate)
        var settings = ChorusSettings()
        settings.voices = 1
        settings.level = 1
        settings.rate = 2
        settings.depth = 6
        chorus.apply(settings)
        // A click every 20 ms; each comes out once, at the delay of that moment (linear interpolation puts
        // its weight on two samples, whose centroid is the delay).
        let spacing = Int(0.02 * rate), clicks = 150
        let frames = spacing * clicks
        var input = [Float](repeating: 0, count: frames)
        for k in 0..<clicks { input[k * spacing] = 1 }
        var left = [Float](repeating: 0, count: frames), right = [Float](repeating: 0, count: frames)
        input.withUnsafeBufferPointer { x in
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    chorus.process(x.baseAddress!, left: l.baseAddress!, right: r.baseAddress!, frames: frames)
                }
            }
        }
        var delays: [Double] = [] // milliseconds
        for k in 0..<clicks {
            var weight = 0.0, moment = 0.0
            for i in (k * spacing)..<((k + 1) * spacing) {
                let y = Double(left[i] + right[i])
                weight += y; moment += y * Double(i - k * spacing)
            }
            delays.append(moment / weight / rate * 1000)
        }
        let lowest = delays.min()!, highest = delays.max()!
        #expect(abs(lowest - Double(ChorusSettings.minimumDelay)) < 0.1, "shortest delay \(lowest) ms")
        #expect(abs((highest - lowest) - 6) < 0.2, "sweep \(highest - lowest) ms, set 6 ms")
        // The rate from the sweep's rising crossings of its middle.
        let middle = (lowest + highest) / 2
        var crossings: [Double] = []
        for k in 1..<clicks where delays[k - 1] < middle && delays[k] >= middle {
            let t = Double(k - 1) + (middle - delays[k - 1]) / (delays[k] - delays[k - 1])
            crossings.append(t * 0.02)
        }
        #expect(crossings.count >= 4)
        let measuredRate = Double(crossings.count - 1) / (crossings.last! - crossings.first!)
        #expect(abs(measuredRate / 2 - 1) < 0.03, "sweep rate \(measuredRate) Hz, set 2 Hz")
    }

    /// The tail (after the voice has ended) of a 0.2 s note of the sine patch with `events` sent first.
    private func builtInTail(_ events: [ShortMessage], reverb: Bool = true, chorus: Bool = true) -> [Float] {
        let synth = Synth(voices: 8, patch: 0)
        synth.setEffects(reverb: reverb, chorus: chorus)
        synth.prepare(sampleRate: rate, maxFrames: 256)
        var timed = events.map { (frame: 0, message: $0) }
        timed += [(frame: 0, message: noteOn(60, velocity: 100)), (frame: Int(0.2 * rate), message: noteOff(60))]
        let out = render(synth, frames: Int(1.5 * rate), events: timed)
        #expect(synth.activeVoiceCount == 0)
        let tail = Int(rate)..<Int(1.5 * rate)
        return Array(out.left[tail]) + Array(out.right[tail])
    }

    @Test func builtInSendsFollowCC91AndCC93() {
        // Sine keys sends nothing by itself: without CC91/CC93 nothing is left after the release.
        #expect(peak(builtInTail([])[...]) == 0)
        let full = rms(builtInTail([cc(91, 127)])[...])
        let half = rms(builtInTail([cc(91, 64)])[...])
        #expect(full > 1e-6, "reverb tail \(full) at CC91 127")
        #expect(abs(half / full - 64.0 / 127) < 0.01, "tail ratio \(half / full) for CC91 64/127")
        let chorus = rms(builtInTail([cc(93, 127)])[...])
        #expect(chorus == 0, "the chorus has no tail past its 24 ms line: \(chorus)") // it ended long before
        #expect(peak(builtInTail([cc(91, 127)], reverb: false)[...]) == 0, "--no-reverb leaves a tail")
    }

    @Test func chorusSendFollowsCC93() {
        // During the note: the output with CC93 differs from the dry output by the chorus alone.
        func during(_ value: UInt8, chorus: Bool = true) -> [Float] {
            let synth = Synth(voices: 8, patch: 0)
            synth.setEffects(reverb: false, chorus: chorus)
            synth.prepare(sampleRate: rate, maxFrames: 256)
            let out = render(synth, frames: Int(0.5 * rate), events: [(0, cc(93, value)), (0, noteOn(60))])
            return Array(out.left[Int(0.1 * rate)...])
        }
        let dry = during(0)
        let wet = during(127), halfWet = during(64)
        let full = rms(zip(wet, dry).map { $0 - $1 }[...]), half = rms(zip(halfWet, dry).map { $0 - $1 }[...])
        #expect(full > 1e-3, "chorus signal \(full) at CC93 127")
        #expect(abs(half / full - 64.0 / 127) < 0.01, "chorus ratio \(half / full) for CC93 64/127")
        #expect(during(127, chorus: false) == dry, "--no-chorus changes the output")
    }

    /// A SoundFont note's reverb tail with the zone's generators and CC91.
    private func fontTail(_ generators: [Int: Int32], cc91: UInt8) -> [Float] {
        var zone = makeZone(generators)
        zone.generators[SoundFontGenerator.releaseVolEnv] = -3600 // 0.125 s
        let synth = cosineFontSynth([zone])
        let events = [(frame: 0, message: cc(91, cc91)), (frame: 0, message: noteOn(69)),
                      (frame: Int(0.2 * rate), message: noteOff(69))]
        let out = render(synth, frames: Int(1.5 * rate), events: events)
        #expect(synth.activeVoiceCount == 0)
        let tail = Int(rate)..<Int(1.5 * rate)
        return Array(out.left[tail]) + Array(out.right[tail])
    }

    @Test func soundFontSendsFollowTheZoneAndCC91() {
        #expect(peak(fontTail([:], cc91: 0)[...]) == 0)
        let zone500 = rms(fontTail([SoundFontGenerator.reverbEffectsSend: 500], cc91: 0)[...])
        let zone250 = rms(fontTail([SoundFontGenerator.reverbEffectsSend: 250], cc91: 0)[...])
        #expect(zone500 > 1e-6)
        #expect(abs(zone250 / zone500 - 0.5) < 0.01, "tail ratio \(zone250 / zone500) for generator 250/500")
        // The default modulator: CC91 full adds 200 (20 %), the same as the generator at 200.
        #expect(fontTail([:], cc91: 127) == fontTail([SoundFontGenerator.reverbEffectsSend: 200], cc91: 0))
    }

    @Test func silenceAfterTheTailIsExactAndFree() {
        let synth = Synth(voices: 8, patch: 3) // the soft pad sends to both
        synth.prepare(sampleRate: rate, maxFrames: 256)
        let events = [(frame: 0, message: cc(91, 127)), (frame: 0, message: cc(93, 127)), (frame: 0, message: noteOn(60)),
                      (frame: Int(0.5 * rate), message: noteOff(60))]
        let frames = Int(60 * rate)
        let out = render(synth, frames: frames, events: events)
        #expect(!out.left.contains { !$0.isFinite } && !out.right.contains { !$0.isFinite })
        // RT60 1.3 s: cleared (exact zeros) within 2 RT60 and the lines after the 1.5 s release.
        let after = Int(8 * rate)..<frames
        #expect(peak(out.left[after]) == 0 && peak(out.right[after]) == 0)
        #expect(synth.mix.effects.reverb.isSilent && synth.mix.effects.chorus.isSilent)
        #expect(peak(out.left[Int(2 * rate)..<Int(2.5 * rate)]) > 0, "no reverb tail after the release")
    }

    /// The buses alone over bursts of noise and long silences, in periods of `block` frames.
    private func buses(block: Int) -> [Float] {
        var reverb = FeedbackDelayReverb(sampleRate: rate)
        var settings = ReverbSettings()
        settings.roomSize = 0.05
        reverb.apply(settings)
        var chorus = ModulatedChorus(sampleRate: rate)
        let frames = Int(6 * rate)
        var input = [Float](repeating: 0, count: frames)
        var seed: UInt32 = 7
        for burst in [0, Int(2.7 * rate)] {
            for n in burst..<(burst + 4_000) {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                input[n] = Float(Int32(bitPattern: seed)) / 2_147_483_648 * 0.3
            }
        }
        var left = [Float](repeating: 0, count: frames), right = left
        input.withUnsafeBufferPointer { x in
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    var n = 0
                    while n < frames {
                        let count = min(block, frames - n)
                        reverb.process(x.baseAddress! + n, left: l.baseAddress! + n, right: r.baseAddress! + n, frames: count)
                        chorus.process(x.baseAddress! + n, left: l.baseAddress! + n, right: r.baseAddress! + n, frames: count)
                        n += count
                    }
                }
            }
        }
        #expect(reverb.isSilent && chorus.isSilent)
        return left + right
    }

    @Test func theBusesDoNotDependOnThePeriod() {
        // The tails are cleared at a sample counted from the input's end, the LFO turns through skipped
        // silence: where the periods fall changes nothing (the synth's own slicing is the engine's period,
        // the same live and offline: EffectsLiveOfflineTests).
        let a = buses(block: 64), b = buses(block: 256), c = buses(block: 1_000)
        #expect(a == b)
        #expect(a == c)
        let second = Int(2.7 * rate)
        #expect(peak(a[Int(2.5 * rate)..<second]) == 0, "the first tail was not cleared before the second burst")
        #expect(peak(a[second..<(second + 10_000)]) > 0)
    }
}

struct EffectSysexTests {
    private func send(_ synth: Synth, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { synth.handle(sysex: $0) }
    }

    @Test func gm2GlobalParameterControlSetsReverbAndChorus() {
        let synth = Synth()
        synth.prepare(sampleRate: rate, maxFrames: 256)
        // Reverb time 64: e^(24 x 0.025) = 1.82 s.
        #expect(send(synth, [0xF0, 0x7F, 0x7F, 0x04, 0x05, 1, 1, 1, 0x01, 0x01, 1, 64, 0xF7]))
        #expect(abs(ReverbSettings.decayTime(roomSize: synth.value(of: .roomSize)) - 1.822) < 0.01)
        // Reverb type 4, large hall: 2.8 s.
        #expect(send(synth, [0xF0, 0x7F, 0x7F, 0x04, 0x05, 1, 1, 1, 0x01, 0x01, 0, 4, 0xF7]))
        #expect(abs(ReverbSettings.decayTime(roomSize: synth.value(of: .roomSize)) - 2.8) < 0.01)
        // Chorus rate 10 (1.22 Hz) and depth 15 (5 ms) in one message.
        #expect(send(synth, [0xF0, 0x7F, 0x7F, 0x04, 0x05, 1, 1, 1, 0x01, 0x02, 1, 10, 2, 15, 0xF7]))
        #expect(abs(synth.value(of: .chorusRate) - 1.22) < 0.001)
        #expect(abs(synth.value(of: .chorusDepth) - 5) < 0.001)
        // Another slot, or an unknown reverb type: not taken, nothing changed.
        #expect(!send(synth, [0xF0, 0x7F, 0x7F, 0x04, 0x05, 1, 1, 1, 0x01, 0x03, 0, 1, 0xF7]))
        #expect(!send(synth, [0xF0, 0x7F, 0x7F, 0x04, 0x05, 1, 1, 1, 0x01, 0x01, 0, 6, 0xF7]))
        #expect(abs(ReverbSettings.decayTime(roomSize: synth.value(of: .roomSize)) - 2.8) < 0.01)
    }

    @Test func aLongerReverbTimeIsHeardLonger() {
        func tail(_ sysex: [UInt8]?) -> Double {
            let synth = Synth(voices: 8, patch: 0)
            synth.prepare(sampleRate: rate, maxFrames: 256)
            if let sysex { _ = send(synth, sysex) }
            let out = render(synth, frames: Int(2 * rate), events: [(0, cc(91, 127)), (0, noteOn(60)),
                                                                    (Int(0.2 * rate), noteOff(60))])
            return rms(out.left[Int(1.5 * rate)...])
        }
        let standard = tail(nil)
        let hall = tail([0xF0, 0x7F, 0x7F, 0x04, 0x05, 1, 1, 1, 0x01, 0x01, 0, 4, 0xF7])
        #expect(hall > 2 * standard, "large hall tail \(hall) against \(standard)")
    }
}

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
        // Consecutive addresses in one message: level 3A, feedback 3B and delay 3C (not modelled), rate 3D, depth 3E.
        #expect(send(synth, gs(0x3A, [32, 8, 80, 10, 15])))
        #expect(abs(synth.value(of: .chorusLevel) - 32.0 / 127 * 4) < 0.001)
        #expect(abs(synth.value(of: .chorusRate) - 1.22) < 0.001)
        #expect(abs(synth.value(of: .chorusDepth) - 5) < 0.001)
        #expect(synth.ignoredSysexCount == 0)
        // A wrong checksum, the Delay macro, the chorus's pre-LPF alone: nothing changes, each counted as ignored.
        #expect(!send(synth, gs(0x30, [0], badChecksum: true)))
        #expect(!send(synth, gs(0x30, [6])))
        #expect(!send(synth, gs(0x39, [3])))
        #expect(abs(rt60(synth) - 1.822) < 0.01)
        #expect(synth.ignoredSysexCount == 3)
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

struct LongSilenceTests {
    @Test func hoursOfSilenceLeaveNoNaNNorSubnormalInTheEffects() {
        // A note with both sends full, then 2 h of silence at 48 kHz in 4096-frame periods (fast: the buses
        // skip silence once cleared), then the state read value by value.
        let synth = Synth(voices: 8, patch: 3)
        synth.prepare(sampleRate: rate, maxFrames: 4_096)
        _ = render(synth, frames: Int(2 * rate), events: [(0, cc(91, 127)), (0, cc(93, 127)), (0, noteOn(60)),
                                                         (Int(0.5 * rate), noteOff(60))])
        let midway = synth.checkEffectState()
        #expect(!midway.silent, "the tail has not started")
        #expect(midway.isClean, "\(midway)")
        var left = [Float](repeating: 1, count: 4_096), right = left
        var lastMinutePeak: Float = 0
        let periods = Int(2 * 3_600 * rate) / 4_096
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                for n in 0..<periods {
                    synth.render(left: l.baseAddress!, right: r.baseAddress!, frames: 4_096)
                    if n >= periods - Int(60 * rate) / 4_096 {
                        for i in 0..<4_096 { lastMinutePeak = max(lastMinutePeak, abs(l[i]), abs(r[i])) }
                    }
                }
            }
        }
        let state = synth.checkEffectState()
        #expect(state.isClean, "\(state)")
        #expect(state.silent, "the buses still run after 2 h of silence")
        #expect(state.phasorError < 1e-5, "the chorus's LFO left the unit circle: \(state.phasorError)")
        #expect(lastMinutePeak == 0)
        // And the effects still work: a new note sends a tail.
        let out = render(synth, frames: Int(2 * rate), events: [(0, noteOn(60)), (Int(0.5 * rate), noteOff(60))])
        #expect(peak(out.left[Int(1.5 * rate)...]) > 0)
        #expect(synth.checkEffectState().isClean)
    }
}
