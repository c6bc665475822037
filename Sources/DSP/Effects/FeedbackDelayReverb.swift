// The reverb of the send bus: an eight-line feedback delay network (Jot's design, as FluidSynth's FDN and
// Faust's zita-rev are), mono in, stereo out.
//
// - Input: GS's pre-LPF (a one-pole low-pass), the predelay, then a tone corrector (Jot's: it tilts the input
//   against the damping's loss of highs, so the first echoes are not duller than the dry sound), then four
//   Schroeder all-passes in series (Dattorro's lengths and gains) that smear a click into a dense burst.
// - Eight delay lines of mutually prime lengths (35-81 ms at 44.1 kHz for Hall 2, shorter for rooms and the
//   plate, scaled with the rate), read at once as the lanes of a SIMD8 vector. Each line's read point swings
//   by a few samples (a sine LFO per line, 2 Hz, the phases spread over a turn, linearly interpolated):
//   the lines' resonances move, so the tail does not ring at fixed frequencies (FluidSynth's FDN does the
//   same for the same reason), and the phases between the left and right tails of a chord's few strong
//   partials keep turning, so their correlation stays near 0 wherever the LFOs stood when the chord came
//   (at 0.9 Hz it ranged from -0.2 to 0.25 with the LFOs' starting phase; the pitch moves under 2 cents).
// - Per line a damping low-pass whose coefficient follows its length (Jot): with the line's gain
//   g = 10^(-3 L / (RT60 fs)) every path loses exactly 60 dB in RT60 at low frequencies, and more at high
//   ones, by the same law on every line: the RT60 falls with frequency whichever lines a signal travels.
// - Feedback through a permutation (line i feeds line i - 1) and a Householder reflection, y = x - (2/8) sum(x):
//   orthogonal (the mixing neither gains nor loses energy) and every line feeding every other, in O(N).
// - Two output taps from orthogonal rows of the 8x8 Hadamard matrix give uncorrelated left and right tails;
//   `width` mixes them so that their correlation is (1 - width)^3.
//
// The Delay and Panning Delay characters are echoes instead: one line fed back on itself, or two lines
// feeding each other (the echoes alternate left and right), each echo the feedback times the last.
//
// Silence costs nothing: after `quietLimit` samples of silent input (twice RT60 plus the longest line, the
// diffusion and the predelay: below -120 dB; for the echoes, as many repeats as bring them there) the state
// is cleared at that exact sample, and slices of silence with a cleared state are skipped. The count and the
// LFOs advance per sample, so nothing depends on how the samples were sliced into periods: live and offline
// stay identical.

struct FeedbackDelayReverb: ~Copyable {
    /// Line lengths at 44.1 kHz (Hall 2), primes.
    static var baseLengths: SIMD8<Float> { @_noLocks get { SIMD8(1559, 1871, 2141, 2437, 2719, 2953, 3271, 3583) } }
    /// Input diffusers: lengths at 44.1 kHz and gains.
    static var diffuserLengths: SIMD4<Int32> { @_noLocks get { SIMD4(142, 107, 379, 277) } }
    static var diffuserGains: SIMD4<Float> { @_noLocks get { SIMD4(0.75, 0.75, 0.625, 0.625) } }
    /// How far the lines' read points swing, samples at 44.1 kHz (peak to peak), and how fast.
    static var modulationDepth: Float { @_noLocks get { 6 } }
    static var modulationRate: Float { @_noLocks get { 2 } }
    /// The output gain that puts the tail of a staccato chord at FluidSynth's level (its FDN at its defaults).
    static var outputGain: Float { @_noLocks get { 0.9 } }

    /// The lines, then the diffusers, the predelay, the two echo lines, one after the other.
    var memory: DelayMemory
    let lineStart: SIMD8<Int32>
    /// Each line's memory: its longest delay and the swing.
    let lineSize: SIMD8<Int32>
    var writePosition = SIMD8<Int32>(repeating: 0)
    let diffuserStart: SIMD4<Int32>
    let diffuserLength: SIMD4<Int32>
    var diffuserPosition = SIMD4<Int32>(repeating: 0)
    let predelayStart: Int
    let predelaySize: Int
    var predelayPosition = 0
    let echoStart: Int
    let echoSize: Int
    var echoPosition = 0
    /// The lines' delays (samples) at the LFO's middle, the swing either side, the LFOs as phasors (cosine,
    /// sine) turned by one rotation per sample (renormalized by a Newton step: vector arithmetic only).
    var lineDelay = SIMD8<Float>(repeating: 0)
    var swing: Float = 0
    var cosine = SIMD8<Float>(repeating: 1)
    var sine = SIMD8<Float>(repeating: 0)
    var turnCos: Float = 1
    var turnSin: Float = 0
    /// Per line: the damping filter y = b0 x + a y[-1] (b0 holding the line's gain g), its state.
    var b0 = SIMD8<Float>(repeating: 0)
    var a = SIMD8<Float>(repeating: 0)
    var lowPass = SIMD8<Float>(repeating: 0)
    /// The tone corrector x b1 - x[-1] b2, the pre-LPF's coefficient and the input stage's state.
    var toneB1: Float = 1
    var toneB2: Float = 0
    var preCoefficient: Float = 1
    var inputState = SIMD2<Float>(repeating: 0) // pre-LPF, the tone corrector's last input
    var predelaySamples = 0
    var diffuserGains = SIMD4<Float>(repeating: 0)
    var wetDirect: Float = 0
    var wetCross: Float = 0
    var echoDelay = 0
    var echoFeedback: Float = 0
    var echoGain: Float = 0
    var echo = false
    var pingPong = false
    let sampleRate: Float
    /// How many samples of silent input make the tail inaudible.
    var quietLimit = 0
    var applied = ReverbSettings()

    static var inputGains: SIMD8<Float> { @_noLocks get { SIMD8(1, -1, 1, -1, 1, -1, 1, -1) * 0.353_553_4 } }
    static var leftTaps: SIMD8<Float> { @_noLocks get { SIMD8(1, 1, -1, -1, 1, 1, -1, -1) * 0.707_106_8 } }
    static var rightTaps: SIMD8<Float> { @_noLocks get { SIMD8(1, -1, -1, 1, 1, -1, -1, 1) * 0.707_106_8 } }

    init(sampleRate rate: Double) {
        sampleRate = Float(rate)
        let scale = max(rate, 8000) / 44_100
        let swingRoom = Int32((Double(Self.modulationDepth) * scale).rounded(.up)) + 4
        var sizes = SIMD8<Int32>(), starts = SIMD8<Int32>(), total: Int32 = 0
        for i in 0..<8 {
            sizes[i] = max(Int32((Double(Self.baseLengths[i]) * scale).rounded()), 16) + swingRoom
            starts[i] = total
            total += sizes[i]
        }
        var dLengths = SIMD4<Int32>(), dStarts = SIMD4<Int32>()
        for i in 0..<4 {
            dLengths[i] = max(Int32((Double(Self.diffuserLengths[i]) * scale).rounded()), 2)
            dStarts[i] = total
            total += dLengths[i]
        }
        predelayStart = Int(total)
        predelaySize = Int(ReverbSettings.longestPredelay * max(rate, 8000)) + 2
        echoStart = predelayStart + predelaySize
        echoSize = Int(ReverbSettings.longestEcho * max(rate, 8000)) + 2
        memory = DelayMemory(count: echoStart + 2 * echoSize)
        lineStart = starts; lineSize = sizes
        diffuserStart = dStarts; diffuserLength = dLengths
        for i in 0..<8 {
            let angle = 2 * Double.pi * Double(i) / 8
            cosine[i] = Float(FastMath.cos(angle)); sine[i] = Float(FastMath.sin(angle))
        }
        apply(ReverbSettings())
    }

    /// Sets the lines' delays and gains, the damping, the input stage and the output mix from `settings`.
    @_noLocks
    mutating func apply(_ settings: ReverbSettings) {
        applied = settings
        let character = ReverbCharacter.at(settings.character)
        let shape = character.shape
        let rt60 = ReverbSettings.decayTime(roomSize: settings.roomSize)
        let scale = max(sampleRate, 8000) / 44_100
        swing = 0.5 * Self.modulationDepth * scale
        lineDelay = Self.baseLengths * (shape.length * scale)
        let turn = 2 * Double.pi * Double(Self.modulationRate) / Double(sampleRate)
        turnCos = Float(FastMath.cos(turn)); turnSin = Float(FastMath.sin(turn))
        // Jot: alpha = RT60 at Nyquist / RT60 at DC; the longest line's pole is `pole`, the others follow.
        let pole = min(max(0.4 + 0.5 * min(max(settings.damping, 0), 1) + shape.damping, 0), 0.92)
        let longest = lineDelay[7]
        let gLongest = FastMath.exp2(-9.965_784 * longest / (rt60 * sampleRate))
        let lnLongest = FastMath.log2(gLongest) * 0.693_147_2
        let factor = 4 * pole / lnLongest // = 1 - 1 / alpha^2 (negative)
        for i in 0..<8 {
            // 10^(-3 L / (RT60 fs)) = 2^(-3 log2(10) L / (RT60 fs))
            let g = FastMath.exp2(-9.965_784 * lineDelay[i] / (rt60 * sampleRate))
            let ai = 0.25 * FastMath.log2(g) * 0.693_147_2 * factor
            a[i] = ai
            b0[i] = g * (1 - ai)
        }
        let alpha = 1 / squareRoot(1 - factor)
        let beta = (1 - alpha) / (1 + alpha)
        toneB1 = 1 / (1 - beta); toneB2 = beta * toneB1
        diffuserGains = Self.diffuserGains * shape.diffusion
        let pre = min(max(settings.preLowPass, 0), 7)
        // Cutoff 20 kHz / 2^(0.7 x pre-LPF): 7 is about 660 Hz.
        let cutoff = 20_000 * FastMath.exp2(-0.7 * Float(pre))
        preCoefficient = pre == 0 ? 1 : min(1 - FastMath.exp2(-9.064_72 * cutoff / sampleRate), 1) // 2 pi / ln 2
        predelaySamples = min(Int(min(max(settings.predelay, 0), 127) * 0.001 * sampleRate), predelaySize - 2)
        // Width: direct^2 + cross^2 = 1 and 2 direct cross = (1 - width)^3, the correlation of the mix.
        let width = min(max(settings.width, 0), 1), level = min(max(settings.level, 0), 1) * Self.outputGain
        let c = (1 - width) * (1 - width) * (1 - width)
        let direct = squareRoot((1 + squareRoot(1 - c * c)) / 2)
        wetDirect = level * direct
        wetCross = level * c / (2 * direct)
        if echo != character.isEcho { clear() } // a room's tail does not go on as echoes, nor the reverse
        echo = character.isEcho
        if case .panningDelay = character { pingPong = true } else { pingPong = false }
        echoDelay = min(max(Int(ReverbSettings.echoTime(roomSize: settings.roomSize) * sampleRate), 1), echoSize - 2)
        echoFeedback = 0.9 * min(max(settings.delayFeedback, 0), 1)
        echoGain = level * 0.7
        let tail: Int
        if echo {
            // Echoes fall by the feedback each repeat: as many as reach -120 dB.
            let repeats = echoFeedback > 0.001 ? Int(-19.93 / FastMath.log2(echoFeedback)) + 2 : 2
            tail = repeats * echoDelay
        } else {
            let diffusion = Int(diffuserLength[0] + diffuserLength[1] + diffuserLength[2] + diffuserLength[3]) * 8
            tail = Int(2 * rt60 * sampleRate) + Int(lineSize[7]) + diffusion
        }
        quietLimit = tail + predelaySamples + 64
    }

    /// Whether the state is cleared and nothing sounds.
    var isSilent: Bool { @_noLocks get { memory.cleared } }

    /// Every line, diffuser and filter back to zero.
    @_noLocks
    mutating func clear() {
        memory.clear()
        lowPass = .zero
        inputState = .zero
    }

    /// Adds the reverb of `input[0..<frames]` into `left` and `right`.
    @_noLocks
    mutating func process(_ input: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>,
                          right: UnsafeMutablePointer<Float>, frames: Int) {
        if memory.skips(input, frames: frames) { return } // silent in, silent state: nothing to do
        if echo { processEcho(input, left: left, right: right, frames: frames) } else {
            processRoom(input, left: left, right: right, frames: frames)
        }
    }

    /// The input stage of one sample: pre-LPF and predelay.
    @_noLocks @inline(__always)
    mutating func predelayed(_ x: Float, samples: UnsafeMutablePointer<Float>) -> Float {
        inputState[0] += preCoefficient * (x - inputState[0])
        let base = samples + predelayStart
        base[predelayPosition] = inputState[0]
        var read = predelayPosition - predelaySamples
        if read < 0 { read += predelaySize }
        predelayPosition += 1
        if predelayPosition >= predelaySize { predelayPosition = 0 }
        return base[read]
    }

    @_noLocks
    mutating func processRoom(_ input: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>,
                              right: UnsafeMutablePointer<Float>, frames: Int) {
        let samples = self.memory.samples, total = self.memory.count
        let inGains = Self.inputGains, leftTaps = Self.leftTaps, rightTaps = Self.rightTaps
        let dGains = diffuserGains, delays = lineDelay, depth = swing, tc = turnCos, ts = turnSin
        let direct = wetDirect, cross = wetCross, b = b0, pole = a, b1 = toneB1, b2 = toneB2
        let starts = lineStart, sizes = lineSize
        var lp = lowPass, w = writePosition, dPositions = diffuserPosition, c = cosine, sn = sine
        var quiet = self.memory.quietSamples, isCleared = self.memory.cleared
        let limit = quietLimit
        for n in 0..<frames {
            let raw = input[n]
            if raw != 0 { quiet = 0; isCleared = false } else { quiet &+= 1 }
            if !isCleared && quiet >= limit { // the tail is below -120 dB: cleared here, whatever the slicing
                samples.update(repeating: 0, count: total)
                lp = .zero
                inputState = .zero
                isCleared = true
            }
            var x = predelayed(raw, samples: samples)
            let toned = x * b1 - b2 * inputState[1]
            inputState[1] = x
            x = toned
            // Input diffusion: four all-passes in series.
            for i in 0..<4 {
                let p = Int(diffuserStart[i] &+ dPositions[i])
                let delayed = samples[p]
                let v = x + dGains[i] * delayed
                samples[p] = v
                x = delayed - dGains[i] * v
            }
            dPositions &+= 1
            dPositions.replace(with: 0, where: dPositions .>= diffuserLength)
            // The lines read at their swinging delays. Floor by the 1.5 x 2^23 trick (the delays are positive
            // and far below 2^22); wrapping by the sign's mask: vector arithmetic, no per-lane branches.
            let delay = delays + depth * sn
            let shifted = (delay - 0.5) + 12_582_912
            let wholeFloat = shifted - 12_582_912
            let whole = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B40_0000
            let fraction = delay - wholeFloat
            var r0 = w &- whole
            r0 &+= sizes & (r0 &>> 31)
            var r1 = r0 &- 1
            r1 &+= sizes & (r1 &>> 31)
            r0 &+= starts; r1 &+= starts
            var y0 = SIMD8<Float>(), y1 = SIMD8<Float>()
            for i in 0..<8 { y0[i] = samples[Int(r0[i])]; y1[i] = samples[Int(r1[i])] }
            let y = y0 + fraction * (y1 - y0)
            lp = b * y + pole * lp
            let s = lp
            // Permuted (line i feeds line i - 1), reflected, with the input.
            let rotated = SIMD8(s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[0])
            let feedback = rotated - SIMD8(repeating: 0.25 * laneSum(s)) + inGains * x
            let writes = starts &+ w
            for i in 0..<8 { samples[Int(writes[i])] = feedback[i] }
            w &+= 1
            w &= (w &- sizes) &>> 31 // 0 at the line's end
            if !isCleared {
                let c1 = c * tc - sn * ts, s1 = sn * tc + c * ts
                let k = 1.5 - 0.5 * (c1 * c1 + s1 * s1)
                c = c1 * k; sn = s1 * k
            }
            let l = laneSum(s * leftTaps), r = laneSum(s * rightTaps)
            left[n] += direct * l + cross * r
            right[n] += direct * r + cross * l
        }
        // Denormals: the filters' state is flushed when tiny (the lines are cleared at quietLimit).
        lp.replace(with: 0, where: (lp .< 1e-20) .& (lp .> -1e-20))
        if abs(inputState[0]) < 1e-20 { inputState[0] = 0 }
        lowPass = lp; writePosition = w; diffuserPosition = dPositions; cosine = c; sine = sn
        self.memory.quietSamples = min(quiet, 1 << 40); self.memory.cleared = isCleared
    }

    /// The Delay and Panning Delay characters: echoes `echoDelay` apart, each `echoFeedback` of the last.
    @_noLocks
    mutating func processEcho(_ input: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>,
                              right: UnsafeMutablePointer<Float>, frames: Int) {
        let samples = self.memory.samples, total = self.memory.count
        let lineL = samples + echoStart, lineR = samples + echoStart + echoSize
        let size = echoSize, delay = echoDelay, feedback = echoFeedback, gain = echoGain, alternate = pingPong
        var p = echoPosition
        var quiet = self.memory.quietSamples, isCleared = self.memory.cleared
        let limit = quietLimit
        for n in 0..<frames {
            let raw = input[n]
            if raw != 0 { quiet = 0; isCleared = false } else { quiet &+= 1 }
            if !isCleared && quiet >= limit {
                samples.update(repeating: 0, count: total)
                inputState = .zero
                isCleared = true
            }
            let x = predelayed(raw, samples: samples)
            var read = p - delay
            if read < 0 { read += size }
            let yl = lineL[read], yr = lineR[read]
            if alternate {
                lineL[p] = x + feedback * yr
                lineR[p] = feedback * yl
                left[n] += gain * yl
                right[n] += gain * yr
            } else {
                lineL[p] = x + feedback * yl
                left[n] += gain * yl
                right[n] += gain * yl
            }
            p += 1
            if p >= size { p = 0 }
        }
        if abs(inputState[0]) < 1e-20 { inputState[0] = 0 }
        echoPosition = p
        self.memory.quietSamples = min(quiet, 1 << 40); self.memory.cleared = isCleared
    }
}

/// The square root of `x` (0 for x <= 0) to about 1e-6, for coefficients (`Float.squareRoot` is out of the
/// checker's sight).
@_noLocks
func squareRoot(_ x: Float) -> Float { x <= 0 ? 0 : FastMath.exp2(0.5 * FastMath.log2(x)) }

/// The sum of eight lanes, pairwise (a plain function: `SIMD.sum()` is generic, out of the checker's sight).
@_noLocks @inline(__always)
func laneSum(_ v: SIMD8<Float>) -> Float {
    ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
}
