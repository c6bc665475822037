// The send effects (Sources/DSP/Effects/), tested from their audio: the reverb's decay time against its
// setting (Schroeder's backward integration), the decorrelation of its left and right tails, the chorus's
// sweep read back from the delay of clicks through it, the sends following CC91/CC93 and the zones'
// generators 16/15, silence after the tails, and periods that change nothing.
import Foundation
import Testing
@testable import DSP
import MIDI
import TestSupport

/// The reverb alone: `frames` samples of its response to `input` (a unit impulse when nil), damping 0, level 1,
/// the rest of `settings` as given.
func reverbResponse(_ settings: ReverbSettings = ReverbSettings(), input: [Float]? = nil, frames: Int,
                    sampleRate: Double = 48_000) -> (left: [Float], right: [Float]) {
    var reverb = FeedbackDelayReverb(sampleRate: sampleRate)
    reverb.apply(settings)
    var x = input ?? [1]
    x += [Float](repeating: 0, count: max(frames - x.count, 0))
    return processInBlocks(x) { reverb.process($0, left: $1, right: $2, frames: $3) }
}

/// `input` through effects in blocks of `block` frames: `process(input, left, right, frames)` for each block,
/// at the block's place in the input and in the left and right outputs (zeroed to start).
func processInBlocks(_ input: [Float], block: Int = 256,
                     _ process: (UnsafePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void)
    -> (left: [Float], right: [Float]) {
    let frames = input.count
    var left = [Float](repeating: 0, count: frames), right = left
    input.withUnsafeBufferPointer { x in
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                var n = 0
                while n < frames {
                    let count = min(block, frames - n)
                    process(x.baseAddress! + n, l.baseAddress! + n, r.baseAddress! + n, count)
                    n += count
                }
            }
        }
    }
    return (left, right)
}

func reverbImpulse(roomSize: Float, width: Float = 1, damping: Float = 0, frames: Int,
                   sampleRate: Double = 48_000) -> (left: [Float], right: [Float]) {
    var settings = ReverbSettings()
    settings.roomSize = roomSize
    settings.damping = damping
    settings.width = width
    settings.level = 1
    return reverbResponse(settings, frames: frames, sampleRate: sampleRate)
}

/// `x` through two RBJ band-passes (0 dB at `centre`, Q 1.4: an octave band) in series.
func octaveBand(_ x: [Float], centre: Double, sampleRate: Double = 48_000) -> [Float] {
    let w = 2 * Double.pi * centre / sampleRate, alpha = sin(w) / (2 * 1.4)
    let a0 = 1 + alpha
    let b0 = alpha / a0, b2 = -alpha / a0, a1 = -2 * cos(w) / a0, a2 = (1 - alpha) / a0
    var y = x.map(Double.init)
    for _ in 0..<2 {
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
        for i in y.indices {
            let v = b0 * y[i] + b2 * x2 - a1 * y1 - a2 * y2
            x2 = x1; x1 = y[i]; y2 = y1; y1 = v
            y[i] = v
        }
    }
    return y.map(Float.init)
}

/// The RT60 of `response` in the octave band at `centre`.
func bandDecayTime(_ response: (left: [Float], right: [Float]), centre: Double, sampleRate: Double = 48_000) -> Double {
    decayTime((octaveBand(response.left, centre: centre, sampleRate: sampleRate),
               octaveBand(response.right, centre: centre, sampleRate: sampleRate)), sampleRate: sampleRate)
}

/// RT60 from an impulse response: the energy decay curve (backward integral of L^2 + R^2), a straight line
/// fitted to it between -5 and -35 dB, extrapolated to -60 dB.
func decayTime(_ response: (left: [Float], right: [Float]), sampleRate: Double) -> Double {
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
func correlation(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Double {
    var ab = 0.0, aa = 0.0, bb = 0.0
    for (x, y) in zip(a, b) { ab += Double(x) * Double(y); aa += Double(x) * Double(x); bb += Double(y) * Double(y) }
    return ab / max((aa * bb).squareRoot(), 1e-30)
}

struct EffectTests {
    @Test(arguments: [Float(0), 0.2, 0.5, 1])
    func reverbDecaysInItsRT60(roomSize: Float) {
        // The room size sets the RT60 of the lows (the highs die sooner: the next test).
        let expected = Double(ReverbSettings.decayTime(roomSize: roomSize))
        let response = reverbImpulse(roomSize: roomSize, frames: Int(1.5 * expected * rate))
        let measured = bandDecayTime(response, centre: 250)
        #expect(abs(measured / expected - 1) < 0.1, "room \(roomSize): RT60 at 250 Hz \(measured) s, set \(expected) s")
    }

    @Test(arguments: [Float(0), 0.5, 1])
    func theRT60FallsWithFrequency(damping: Float) {
        let response = reverbImpulse(roomSize: 0.2, damping: damping, frames: Int(2.5 * rate))
        let centres = [250.0, 500, 1_000, 2_000, 4_000, 8_000]
        let rt60s = centres.map { bandDecayTime(response, centre: $0) }
        print("reverb RT60 per octave band at damping \(damping): " + zip(centres, rt60s).map { String(format: "%.0f Hz %.2f s", $0, $1) }.joined(separator: ", "))
        for i in 1..<rt60s.count {
            #expect(rt60s[i] <= rt60s[i - 1] * 1.03, "\(centres[i]) Hz: \(rt60s[i]) s after \(rt60s[i - 1]) s an octave lower")
        }
        #expect(rt60s[5] < 0.75 * rt60s[1], "8 kHz \(rt60s[5]) s against 500 Hz \(rt60s[1]) s")
        if damping == 1 { #expect(rt60s[5] < 0.35 * rt60s[1], "full damping: 8 kHz \(rt60s[5]) s against 500 Hz \(rt60s[1]) s") }
    }

    @Test(arguments: [(Float(1), -0.25, 0.25), (0.5, -0.15, 0.3), (0, 0.999, 1.0)])
    func theTailsCorrelationFollowsTheWidthOnANoiseBurst(width: Float, lowest: Double, highest: Double) {
        var settings = ReverbSettings()
        settings.width = width
        var seed: UInt32 = 3
        let burst = (0..<Int(0.05 * rate)).map { _ -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: seed)) / 2_147_483_648 * 0.3
        }
        let response = reverbResponse(settings, input: burst, frames: Int(1.8 * rate))
        let tail = Int(0.55 * rate)..<Int(1.75 * rate)
        let c = correlation(response.left[tail], response.right[tail])
        #expect(c >= lowest && c <= highest, "width \(width): left/right correlation \(c), expected \(lowest)...\(highest)")
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
        let standard = reverbImpulse(roomSize: 0.2, width: 0.5, frames: Int(rate))
        let middle = correlation(standard.left[tail], standard.right[tail])
        #expect(middle > wide + 0.05, "width 1 (\(wide)) is not wider than the default 0.5 (\(middle))")
    }

    /// Rate (Hz), depth and shortest delay (ms): a fast sweep, FluidSynth's defaults, GS's chorus delay.
    @Test(arguments: [(Float(2), Float(6), ChorusSettings.minimumDelay), (0.3, 8, ChorusSettings.minimumDelay), (1, 4, 10)])
    func chorusSweepsItsDelayAtItsRateAndDepth(sweepRate: Float, depth: Float, shortest: Float) {
        var chorus = ModulatedChorus(sampleRate: rate)
        var settings = ChorusSettings()
        settings.voices = 1
        settings.level = 1
        settings.rate = sweepRate
        settings.depth = depth
        settings.delay = shortest
        chorus.apply(settings)
        // A click every 20 ms; each comes out once, at the delay of that moment (linear interpolation puts
        // its weight on two samples, whose centroid is the delay). Enough for four turns of the LFO.
        let spacing = Int(0.02 * rate), clicks = max(150, Int(4.2 / Double(sweepRate) / 0.02))
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
                let y = Double(left[i]) // one voice: the right channel is its opposite
                weight += y; moment += y * Double(i - k * spacing)
            }
            delays.append(moment / weight / rate * 1000)
        }
        let lowest = delays.min()!, highest = delays.max()!
        #expect(abs(lowest - Double(shortest)) < 0.1, "shortest delay \(lowest) ms, set \(shortest) ms")
        #expect(abs((highest - lowest) - Double(depth)) < 0.2, "sweep \(highest - lowest) ms, set \(depth) ms")
        // The rate from the sweep's rising crossings of its middle.
        let middle = (lowest + highest) / 2
        var crossings: [Double] = []
        for k in 1..<clicks where delays[k - 1] < middle && delays[k] >= middle {
            let t = Double(k - 1) + (middle - delays[k - 1]) / (delays[k] - delays[k - 1])
            crossings.append(t * 0.02)
        }
        #expect(crossings.count >= 4)
        let measuredRate = Double(crossings.count - 1) / (crossings.last! - crossings.first!)
        #expect(abs(measuredRate / Double(sweepRate) - 1) < 0.03, "sweep rate \(measuredRate) Hz, set \(sweepRate) Hz")
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
        let (left, right) = processInBlocks(input, block: block) { x, l, r, count in
            reverb.process(x, left: l, right: r, frames: count)
            chorus.process(x, left: l, right: r, frames: count)
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
