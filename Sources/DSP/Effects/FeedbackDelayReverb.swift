// The reverb of the send bus: an eight-line feedback delay network (Jot's design, as FluidSynth's FDN and
// Faust's zita-rev are), mono in, stereo out.
//
// - Input diffusion: four Schroeder all-passes in series (Dattorro's lengths and gains) smear a click into a
//   dense burst before it enters the lines, so the first echoes are not heard as discrete repeats.
// - Eight delay lines of mutually prime lengths (35-81 ms at 44.1 kHz, scaled with the rate), read at once
//   as the lanes of a SIMD8 vector.
// - Per line: a one-pole low-pass (the damping, unity gain at DC) and a gain g = 10^(-3 L / (RT60 fs)), so a
//   signal loses exactly 60 dB in RT60 seconds whichever lines it travels through.
// - Feedback through a Householder matrix, y = x - (2/8) sum(x): orthogonal (no energy gained or lost by the
//   mixing, so the decay is the lines' gains alone), every line feeding every other, in O(N).
// - Two output taps from orthogonal rows of the 8x8 Hadamard matrix: the left and right tails are
//   uncorrelated; `width` blends them as Freeverb's wet1/wet2 do.
//
// Silence costs nothing: after `quietLimit` samples of silent input (twice RT60 plus the longest line and the
// diffusion: below -120 dB) the state is cleared at that exact sample, and slices of silence with a cleared
// state are skipped. The count is per sample, so where the state is cleared does not depend on how the
// samples were sliced into periods: live and offline stay identical.

/// The reverb's settings in their user units.
public struct ReverbSettings: Sendable, Equatable {
    /// 0...1: the decay time, RT60 = 0.3 s + 5 s x room size (FluidSynth's default 0.2: 1.3 s).
    public var roomSize: Float = 0.2
    /// 0...1: high frequencies decay faster (0: the same RT60 at every frequency, FluidSynth's default).
    public var damping: Float = 0
    /// 0...1: 1 fully decorrelated left and right tails, 0 the same tail in both.
    public var width: Float = 0.5
    /// 0...1: the reverb's output gain (FluidSynth's default 0.9).
    public var level: Float = 0.9

    @_noLocks public init() {}

    /// RT60 in seconds for a room size.
    @_noLocks
    public static func decayTime(roomSize: Float) -> Float { 0.3 + 5 * min(max(roomSize, 0), 1) }
}

struct FeedbackDelayReverb: ~Copyable {
    /// Line lengths at 44.1 kHz, primes.
    static var baseLengths: SIMD8<Int32> { @_noLocks get { SIMD8(1559, 1871, 2141, 2437, 2719, 2953, 3271, 3583) } }
    /// Input diffusers: lengths at 44.1 kHz and gains.
    static var diffuserLengths: SIMD4<Int32> { @_noLocks get { SIMD4(142, 107, 379, 277) } }
    static var diffuserGains: SIMD4<Float> { @_noLocks get { SIMD4(0.75, 0.75, 0.625, 0.625) } }

    /// The lines, then the diffusers, one after the other.
    var memory: DelayMemory
    let lineStart: SIMD8<Int32>
    let lineLength: SIMD8<Int32>
    var linePosition = SIMD8<Int32>(repeating: 0)
    let diffuserStart: SIMD4<Int32>
    let diffuserLength: SIMD4<Int32>
    var diffuserPosition = SIMD4<Int32>(repeating: 0)
    var gains = SIMD8<Float>(repeating: 0)
    var lowPass = SIMD8<Float>(repeating: 0)
    var damp: Float = 0
    var wetDirect: Float = 0
    var wetCross: Float = 0
    let sampleRate: Float
    /// How many samples of silent input make the tail inaudible.
    var quietLimit = 0
    var applied = ReverbSettings()

    static var inputGains: SIMD8<Float> { @_noLocks get { SIMD8(1, -1, 1, -1, 1, -1, 1, -1) * 0.353_553_4 } }
    /// Output taps: an impulse's reverb at the default room size (RT60 1.3 s) and level 1 carries about 60 %
    /// of the impulse's energy in each channel.
    static var leftTaps: SIMD8<Float> { @_noLocks get { SIMD8(1, 1, -1, -1, 1, 1, -1, -1) * 0.707_106_8 } }
    static var rightTaps: SIMD8<Float> { @_noLocks get { SIMD8(1, -1, -1, 1, 1, -1, -1, 1) * 0.707_106_8 } }

    init(sampleRate rate: Double) {
        sampleRate = Float(rate)
        let scale = max(rate, 8000) / 44_100
        var lengths = SIMD8<Int32>(), starts = SIMD8<Int32>(), total: Int32 = 0
        for i in 0..<8 {
            lengths[i] = max(Int32((Double(Self.baseLengths[i]) * scale).rounded()), 16)
            starts[i] = total
            total += lengths[i]
        }
        var dLengths = SIMD4<Int32>(), dStarts = SIMD4<Int32>()
        for i in 0..<4 {
            dLengths[i] = max(Int32((Double(Self.diffuserLengths[i]) * scale).rounded()), 2)
            dStarts[i] = total
            total += dLengths[i]
        }
        memory = DelayMemory(count: Int(total))
        lineStart = starts; lineLength = lengths
        diffuserStart = dStarts; diffuserLength = dLengths
        apply(ReverbSettings())
    }

    /// Sets the line gains, damping and output mix from `settings`.
    @_noLocks
    mutating func apply(_ settings: ReverbSettings) {
        applied = settings
        let rt60 = ReverbSettings.decayTime(roomSize: settings.roomSize)
        for i in 0..<8 {
            // 10^(-3 L / (RT60 fs)) = 2^(-3 log2(10) L / (RT60 fs))
            gains[i] = FastMath.exp2(-9.965_784 * Float(lineLength[i]) / (rt60 * sampleRate))
        }
        damp = 0.7 * min(max(settings.damping, 0), 1)
        let width = min(max(settings.width, 0), 1), level = min(max(settings.level, 0), 1)
        wetDirect = level * (0.5 + 0.5 * width)
        wetCross = level * (0.5 - 0.5 * width)
        let longest = Int(lineLength[7]) + Int(diffuserLength[0] + diffuserLength[1] + diffuserLength[2] + diffuserLength[3]) * 8
        quietLimit = Int(2 * rt60 * sampleRate) + longest
    }

    /// Whether the state is cleared and nothing sounds.
    var isSilent: Bool { @_noLocks get { memory.cleared } }

    /// Every line, diffuser and filter back to zero.
    @_noLocks
    mutating func clear() {
        memory.clear()
        lowPass = .zero
    }

    /// Adds the reverb of `input[0..<frames]` into `left` and `right`.
    @_noLocks
    mutating func process(_ input: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>,
                          right: UnsafeMutablePointer<Float>, frames: Int) {
        if memory.skips(input, frames: frames) { return } // silent in, silent state: nothing to do
        let samples = self.memory.samples, total = self.memory.count
        let inGains = Self.inputGains, leftTaps = Self.leftTaps, rightTaps = Self.rightTaps
        let dGains = Self.diffuserGains
        let d = damp, direct = wetDirect, cross = wetCross, g = gains
        var lp = lowPass, positions = linePosition, dPositions = diffuserPosition
        var quiet = self.memory.quietSamples, isCleared = self.memory.cleared
        let limit = quietLimit
        for n in 0..<frames {
            var x = input[n]
            if x != 0 { quiet = 0; isCleared = false } else { quiet &+= 1 }
            if !isCleared && quiet >= limit { // the tail is below -120 dB: cleared here, whatever the slicing
                samples.update(repeating: 0, count: total)
                lp = .zero
                isCleared = true
            }
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
            // The lines' outputs, damped and scaled, mixed by the Householder matrix, fed back with the input.
            var y = SIMD8<Float>()
            let reads = lineStart &+ positions
            for i in 0..<8 { y[i] = samples[Int(reads[i])] }
            lp = y + d * (lp - y)
            let s = lp * g
            let feedback = s - SIMD8(repeating: 0.25 * laneSum(s)) + inGains * x
            for i in 0..<8 { samples[Int(reads[i])] = feedback[i] }
            positions &+= 1
            positions.replace(with: 0, where: positions .>= lineLength)
            let l = laneSum(s * leftTaps), r = laneSum(s * rightTaps)
            left[n] += direct * l + cross * r
            right[n] += direct * r + cross * l
        }
        // Denormals: the filter's state is flushed when tiny (the lines are cleared at quietLimit).
        lp.replace(with: 0, where: (lp .< 1e-20) .& (lp .> -1e-20))
        lowPass = lp; linePosition = positions; diffuserPosition = dPositions
        self.memory.quietSamples = min(quiet, 1 << 40); self.memory.cleared = isCleared
    }
}

/// The sum of eight lanes, pairwise (a plain function: `SIMD.sum()` is generic, out of the checker's sight).
@_noLocks @inline(__always)
func laneSum(_ v: SIMD8<Float>) -> Float {
    ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
}
