// The level a note gives an SFZ zone at its note-on (SampleZoneLevel in SampleZoneRule.swift): crossfades over
// key and velocity, a velocity curve and key tracking, and a release zone's decay over the time its note was held, as sfizz
// computes them, multiplied into the voice's gain once, when the voice starts; and the crossfades over
// controllers, which follow the controllers while the note sounds. Fonts without rules (every SF2 font) take 1.

extension Synth {
    /// Zone `z`'s level factor for `key` at `velocity`: 1 without rules.
    @_noLocks
    func noteGain(zone z: Int, channel ch: Int, key: UInt8, velocity: UInt8) -> Float {
        guard let rules = samples.font.rules else { return 1 }
        let level = rules[z].level
        var gain = level.key.gain(at: key) * level.velocity.gain(at: velocity)
        if level.velocityCurve.count > 0 || level.squaredVelocity {
            // sfizz's: the curve's distance from full, scaled by the velocity tracking (inverted below 0).
            let x = Float(velocity) * (1 / 127)
            let curve = level.velocityCurve.count > 0 ? level.velocityCurve.value(at: velocity) : x * x
            let distance = abs(level.velocityTrack) * (1 - curve)
            gain *= level.velocityTrack < 0 ? distance : 1 - distance
        }
        if level.keytrackDecibels != 0 {
            gain *= FastMath.linear(decibels: level.keytrackDecibels * (Float(key) - Float(level.keycenter)))
        }
        // A release zone starts lower the longer its note was held (`rt_decay`, dB per second). No `&&`: its
        // right side is an autoclosure capturing self.
        let decay = rules[z].onRelease ? rules[z].releaseDecay : 0
        let rate = rates.sampleRate
        if decay > 0 {
            if rate > 0 {
                let held = samples.ruleState.clock[0] - samples.ruleState.clock[1 + ch * 128 + Int(key & 0x7F)]
                gain *= FastMath.linear(decibels: -decay * Float(Double(max(held, 0)) / rate))
            }
        }
        return gain
    }
}

extension Synth {
    /// What zone `z`'s controllers do now on channel `ch` (`SampleZoneControllerFades`, `SampleZoneControllerLevels`):
    /// a gain factor and a pan offset in SF2's units (0.1 %); 1 and 0 without rules. `applyModulated` takes them
    /// into the voice's pan gains, at the note-on and whenever the channel's controllers change.
    @_noLocks
    func controllerLevels(zone z: Int, channel ch: Int) -> (gain: Float, pan: Float) {
        guard let rules = samples.font.rules else { return (1, 0) }
        let level = rules[z].level
        if level.controllerFades.count == 0 && level.controllerLevels.count == 0 { return (1, 0) }
        let values = controls.midi.controllers + ch * 128
        let moved = level.controllerLevels.evaluate(values)
        return (level.controllerFades.gain(values) * moved.gain, moved.pan * 5)
    }
}

extension SampleZoneFade {
    /// The fade's gain at `x`: 0 below the fade-in or above the fade-out, rising (power: as the square root)
    /// across the fade-in, falling across the fade-out, 1 between; an empty fade range is a step.
    @_noLocks @inline(__always)
    func gain(at x: UInt8) -> Float {
        if x < inLow || x > outHigh { return 0 }
        var gain: Float = 1
        if inHigh > inLow && x < inHigh {
            let position = Float(x - inLow) / Float(inHigh - inLow)
            gain = power ? squareRoot(position) : position
        }
        if outHigh > outLow && x > outLow {
            let position = 1 - Float(x - outLow) / Float(outHigh - outLow)
            gain *= power ? squareRoot(position) : position
        }
        return gain
    }
}
