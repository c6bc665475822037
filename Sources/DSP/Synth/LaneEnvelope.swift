// The built-in voice's amplitude envelope on eight SIMD lanes, in the shape of FluidSynth's fluid_adsr_env:
// each lane's stage and level, the stage's step as an affine map and the bounds whose crossing ends it;
// `process` makes one sample and moves lanes on to their next stage.

/// Eight built-in voices' envelopes, one per lane. Every stage is the affine step env' = (env - a) m + b:
/// attack (0, 1, attackStep) up to 1, decay (sustain, decay, sustain) towards the sustain level, release
/// (0, release, 0) down to `silenceLevel`. A stage ends when env' >= upper or env' < lower.
struct LaneEnvelope {
    /// The shared shape of every lane: per-sample attack step, sustain level, decay and release coefficients.
    typealias Shape = (attackStep: Float, sustain: Float, decay: Float, release: Float)

    var level = Lanes()
    var stages = SIMD8<UInt8>()
    var a = Lanes(), m = Lanes(), b = Lanes()
    var upper = Lanes(repeating: .infinity), lower = Lanes(repeating: -1)
    let shape: Shape
    /// Lanes in use; the others stay free and silent.
    let count: Int

    @_noLocks @inline(__always)
    init(shape: Shape, count: Int) {
        self.shape = shape
        self.count = count
    }

    /// One stage as the affine step and the bounds whose crossing ends it, exactly the scalar stage's arithmetic.
    @_noLocks @inline(__always)
    static func segment(_ s: UInt8, shape: Shape) -> (a: Float, m: Float, b: Float, upper: Float, lower: Float) {
        switch s {
        case Synth.Stage.attack: (0, 1, shape.attackStep, 1, -1)
        // With sustain 0 (a pluck) the voice ends when silent instead of holding its slot.
        case Synth.Stage.decay:
            (shape.sustain, shape.decay, shape.sustain, .infinity, shape.sustain < silenceLevel ? silenceLevel : -1)
        case Synth.Stage.release: (0, shape.release, 0, .infinity, silenceLevel)
        default: (0, 0, 0, .infinity, -1) // free (or an empty lane): silent
        }
    }

    /// True when a decay step leaves `level` where it is: the decay's float arithmetic settles a few ulps off
    /// the sustain level, at a fixed point.
    @_noLocks @inline(__always)
    static func isSettled(_ level: Float, sustain: Float, decay: Float) -> Bool {
        sustain + (level - sustain) * decay == level
    }

    /// Lane `l` takes a voice in `stage` at `level`.
    @_noLocks @inline(__always)
    mutating func gather(lane l: Int, stage: UInt8, level value: Float) {
        stages[l] = stage
        level[l] = value
        enter(lane: l)
    }

    @_noLocks @inline(__always)
    mutating func enter(lane l: Int) {
        let s = LaneEnvelope.segment(stages[l], shape: shape)
        a[l] = s.a; m[l] = s.m; b[l] = s.b; upper[l] = s.upper; lower[l] = s.lower
    }

    /// One sample: every lane's step, then the lanes whose stage ended move on (attack to decay at 1,
    /// decay or release to free at 0). Returns the new levels.
    @_noLocks @inline(__always)
    mutating func process() -> Lanes {
        level = (level - a) * m + b
        let ended = (level .>= upper) .| (level .< lower)
        if anyLane(ended) {
            for l in 0..<count where ended[l] {
                if stages[l] == Synth.Stage.attack {
                    level[l] = 1
                    stages[l] = Synth.Stage.decay
                } else {
                    level[l] = 0
                    stages[l] = Synth.Stage.free
                }
                enter(lane: l)
            }
        }
        return level
    }
}
