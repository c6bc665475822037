// The chorus of the send bus: mono in, stereo out, as FluidSynth's. One delay line read by up to eight
// voices, each at a delay that a sine LFO sweeps between `delay` and `delay + depth`, the voices' LFOs
// spread evenly in phase (2 pi k / voices); reads are linearly interpolated; the voices are mixed to stereo
// as FluidSynth's stereo unit mixes them (even voices one side, odd the other, each side in the other channel
// too in opposite phase: wide, and at FluidSynth's level on tonal and noisy sounds alike). GS's chorus
// feedback returns the voices' mean into the line, and its send to reverb adds the voices' mean times the
// level to the reverb's input (the stereo mix would mostly cancel in a mono send). After the input went silent, the line's length (times the
// repeats the feedback needs to fall 120 dB) later the line is cleared and the output exactly zero; slices of
// silence after that are skipped.
//
// The LFO is a phasor (cosine, sine) turned by a fixed rotation per sample and renormalized (a few multiplies,
// not a sin()). It turns only on samples where the line holds sound, a per-sample condition, so where it
// stands never depends on how samples were sliced into periods (live and offline identical), and silence
// skipped costs nothing.

/// The chorus's settings in their user units (defaults FluidSynth's: 3 voices, level 2, 0.3 Hz, 8 ms).
public struct ChorusSettings: Sendable, Equatable {
    /// 1...8 delayed copies.
    public var voices: Int = 3
    /// 0...10: the output gain of all voices together (FluidSynth's synth.chorus.level).
    public var level: Float = 2
    /// 0.1...5 Hz: the LFO rate.
    public var rate: Float = 0.3
    /// 0...20 ms: how far the delay sweeps (peak to peak).
    public var depth: Float = 8
    /// 0...20 ms: the shortest delay (GS's chorus delay).
    public var delay: Float = ChorusSettings.minimumDelay
    /// 0...1: the share of the voices' mean fed back into the line (GS's chorus feedback; 1 is 0.9).
    public var feedback: Float = 0
    /// 0...1: the share of the chorus's output sent on to the reverb (GS's chorus send to reverb).
    public var sendToReverb: Float = 0

    @_noLocks public init() {}

    /// The default shortest delay, milliseconds: the sweep starts here.
    @inlinable public static var minimumDelay: Float { @_noLocks get { 4 } }
    /// The level's gain against FluidSynth's: its chorus alone measured 1.7 dB above Backbeat's on a piano, 0.4
    /// on a snare and 3.6 on a held flute (TimGM6mb and FluidR3, CC93 127; where the LFOs stand when a note
    /// comes moves the figure by a few dB), so 1.5 dB more puts all three within 2.1 dB.
    static var outputGain: Float { @_noLocks get { 1.19 } }
}

struct ModulatedChorus: ~Copyable {
    /// A power of two above the longest delay.
    var line: DelayMemory
    var position = 0
    var cosine: Float = 1
    var sine: Float = 0
    var turnCos: Float = 1
    var turnSin: Float = 0
    /// Per voice: cos and sin of its LFO's phase offset, its left and right gains.
    var offsetCos = SIMD8<Float>(repeating: 0)
    var offsetSin = SIMD8<Float>(repeating: 0)
    var gainLeft = SIMD8<Float>(repeating: 0)
    var gainRight = SIMD8<Float>(repeating: 0)
    var voiceCount = 3
    /// Delay at the LFO's centre and its swing either side, samples.
    var centre: Float = 0
    var swing: Float = 0
    var feedback: Float = 0
    var sendToReverb: Float = 0
    /// The chorus's level, for its send to reverb.
    var reverbLevel: Float = 0
    /// The voices' mean of the last sample, fed back.
    var last: Float = 0
    var quietLimit = 0
    let sampleRate: Float
    var applied = ChorusSettings()

    init(sampleRate rate: Double) {
        sampleRate = Float(rate)
        let longest = Int(40 * 0.001 * max(rate, 8000)) + 4 // the longest delay and sweep, 20 ms each
        var size = 1
        while size < longest { size <<= 1 }
        line = DelayMemory(count: size)
        apply(ChorusSettings())
    }

    @_noLocks
    mutating func apply(_ settings: ChorusSettings) {
        applied = settings
        let voices = min(max(settings.voices, 1), 8)
        voiceCount = voices
        let level = min(max(settings.level, 0), 10) * ChorusSettings.outputGain
        reverbLevel = level
        // FluidSynth's stereo unit at its fixed width 10: the even voices make one side's signal, the odd ones
        // the other's (with an odd count above 2 the last in both), each side at wet1 in its own channel and
        // wet2 (negative) in the other; one voice goes to both channels in opposite phase.
        let wet = level / 3, wet1 = voices == 1 ? level : wet * 5.5, wet2 = voices == 1 ? -level : wet * -4.5
        for k in 0..<8 {
            let angle = 2 * Double.pi * Double(k) / Double(voices)
            offsetCos[k] = Float(FastMath.cos(angle)); offsetSin[k] = Float(FastMath.sin(angle))
            let even = k % 2 == 0
            gainLeft[k] = k < voices ? (even ? wet1 : wet2) : 0
            gainRight[k] = k < voices ? (even ? wet2 : wet1) : 0
        }
        if voices > 2 && voices % 2 == 1 { // the last voice (even) is added to the odd side as well
            gainLeft[voices - 1] += wet2
            gainRight[voices - 1] += wet1
        }
        let rate = Double(min(max(settings.rate, 0.1), 5))
        let turn = 2 * Double.pi * rate / Double(sampleRate)
        turnCos = Float(FastMath.cos(turn)); turnSin = Float(FastMath.sin(turn))
        let depth = min(max(settings.depth, 0), 20) * 0.001 * sampleRate
        swing = 0.5 * depth
        centre = min(max(settings.delay, 0), 20) * 0.001 * sampleRate + swing
        feedback = 0.9 * min(max(settings.feedback, 0), 1)
        sendToReverb = min(max(settings.sendToReverb, 0), 1)
        let repeats = feedback > 0.001 ? Int(-19.93 / FastMath.log2(feedback)) + 2 : 1
        quietLimit = line.count * repeats
    }

    var isSilent: Bool { @_noLocks get { line.cleared } }

    @_noLocks
    mutating func clear() { line.clear(); last = 0 }

    /// Adds the chorus of `input[0..<frames]` into `left` and `right`, and `sendToReverb` of it into `reverb`.
    @_noLocks
    mutating func process(_ input: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>,
                          right: UnsafeMutablePointer<Float>, reverb: UnsafeMutablePointer<Float>? = nil, frames: Int) {
        if line.skips(input, frames: frames) { return } // the line is silent and stays so; the LFO rests while it does
        let samples = self.line.samples, length = self.line.count, mask = length &- 1, voices = voiceCount
        var c = cosine, s = sine, p = position, quiet = self.line.quietSamples, isCleared = self.line.cleared
        let tc = turnCos, ts = turnSin, mid = centre, sweep = swing
        let oc = offsetCos, os = offsetSin, gl = gainLeft, gr = gainRight
        let limit = quietLimit, fb = feedback, toReverb = sendToReverb * reverbLevel, perVoice = 1 / Float(voices)
        var previous = last
        for n in 0..<frames {
            let x = input[n]
            if x != 0 { quiet = 0; isCleared = false } else { quiet &+= 1 }
            samples[p] = x + fb * previous
            var l: Float = 0, r: Float = 0, sum: Float = 0
            for k in 0..<voices {
                let lfo = s * oc[k] + c * os[k] // sin(theta + offset k)
                let delay = mid + sweep * lfo
                let whole = Int(delay)
                let fraction = delay - Float(whole)
                let a = samples[(p &- whole) & mask], b = samples[(p &- whole &- 1) & mask]
                let y = a + fraction * (b - a)
                l += gl[k] * y
                r += gr[k] * y
                sum += y
            }
            previous = sum * perVoice
            left[n] += l
            right[n] += r
            if let reverb { reverb[n] += toReverb * previous }
            p = (p &+ 1) & mask
            if !isCleared {
                // Turn the phasor; one Newton step keeps its radius at 1.
                let c1 = c * tc - s * ts, s1 = s * tc + c * ts
                let k = 1.5 - 0.5 * (c1 * c1 + s1 * s1)
                c = c1 * k; s = s1 * k
            }
            if !isCleared && quiet >= limit { // the line is below -120 dB (only zeros without feedback)
                samples.update(repeating: 0, count: length)
                previous = 0
                isCleared = true
            }
        }
        if abs(previous) < 1e-20 { previous = 0 }
        last = previous
        cosine = c; sine = s; position = p
        self.line.quietSamples = min(quiet, 1 << 40); self.line.cleared = isCleared
    }
}
