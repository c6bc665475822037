// What a note's velocity and the channel's controllers do to an SFZ zone's envelopes (`ampeg_vel2*`,
// `ampeg_*_onccN`, and `fileg_`/`pitcheg_` `vel2*` and `*_onccN` for the modulation envelope; SampleZoneEnvelope.swift):
// seconds added to their times and percent to their sustain levels, velocity / 127 (each controller's value / 127 at
// the note-on) of each, as sfizz adds them, worked into the voice's generator values once, at its note-on, before its
// envelopes are made; and the level the volume envelope's attack starts from (`ampeg_start`, `ampeg_start_onccN`),
// set in the envelope once it is made. Fonts without rules (every SF2 font) are left as they are.

extension Synth {
    /// Zone `z`'s volume and modulation envelopes in `values` (timecents; the sustains in centibels and 0.1 %
    /// below full) moved by the note's `velocity` and by channel `ch`'s controllers the zone names, as they are
    /// at the note-on.
    @_noLocks
    func applyNoteEnvelope(_ values: inout GeneratorValues, zone z: Int, channel ch: Int, velocity: UInt8) {
        guard let rules = samples.font.rules else { return }
        let envelope = rules[z].envelope
        if envelope.isEmpty { return }
        let v = Float(velocity) / 127
        let controllers = controls.midi.controllers + ch * 128
        var volume = SampleZoneEnvelopeShift()
        volume.delay = envelope.delay * v
        volume.attack = envelope.attack * v
        volume.hold = envelope.hold * v
        volume.decay = envelope.decay * v
        volume.sustain = envelope.sustain * v
        volume.release = envelope.release * v
        if envelope.controllers.count > 0 {
            let moved = envelope.controllers.shift(controllers)
            volume = moved.added(to: volume, times: 1)
        }
        typealias G = SoundFontGenerator
        SampleZoneEnvelope.shiftTimes(&values, volume, first: G.delayVolEnv)
        if volume.sustain != 0 {
            // Centibels below full as percent of full (-200 log10 (percent / 100)) and back.
            let percent = 100 * FastMath.exp2(-values[G.sustainVolEnv] / 200 * 3.321_928)
            let moved = min(max(percent + volume.sustain, 0), 100)
            values[G.sustainVolEnv] = moved <= 0 ? 1440 : min(-200 / 3.321_928 * FastMath.log2(moved / 100), 1440)
        }
        var modulation = envelope.modulationVelocity.added(to: SampleZoneEnvelopeShift(), times: v)
        if envelope.modulationControllers.count > 0 {
            let moved = envelope.modulationControllers.shift(controllers)
            modulation = moved.added(to: modulation, times: 1)
        }
        SampleZoneEnvelope.shiftTimes(&values, modulation, first: G.delayModEnv)
        if modulation.sustain != 0 {
            // 0.1 % below full as percent of full and back.
            let percent = 100 - 0.1 * min(max(values[G.sustainModEnv], 0), 1000)
            let moved = min(max(percent + modulation.sustain, 0), 100)
            values[G.sustainModEnv] = 1000 - 10 * moved
        }
    }

    /// The voice's LFOs as sines where zone `z`'s rule says so (SFZ's v1 LFOs and `lfoN_wave=1`).
    @_noLocks
    func shapeNoteLFOs(_ voice: inout SampleVoice, zone z: Int) {
        guard let rules = samples.font.rules else { return }
        let sines = rules[z].sineLFOs
        voice.modulationLFO.isSine = sines & SampleZoneRule.sineModulationLFO != 0
        voice.vibratoLFO.isSine = sines & SampleZoneRule.sineVibratoLFO != 0
    }

    /// The volume envelope's attack from zone `z`'s start level (`ampeg_start`, plus channel `ch`'s controllers'
    /// `ampeg_start_onccN` shares at the note-on, percent / 100): it rises from there at the attack's rate,
    /// reaching full sooner, as sfizz's does (the delay before it stays silent).
    @_noLocks
    func startNoteEnvelope(_ envelope: inout SampleEnvelope, zone z: Int, channel ch: Int) {
        guard let rules = samples.font.rules else { return }
        var start = rules[z].envelope.start
        let controllers = rules[z].envelope.controllers
        if controllers.count > 0 { start += controllers.shift(controls.midi.controllers + ch * 128).start / 100 }
        if start > 0 { envelope.value = min(start, 1) }
    }
}

extension SampleZoneEnvelope {
    /// `shift`'s seconds added to the envelope whose generators start at `first` (delay, attack, hold, decay,
    /// sustain, release: SF2's order for both envelopes; the sustain is left to the caller).
    @_noLocks @inline(__always)
    static func shiftTimes(_ values: inout GeneratorValues, _ shift: SampleZoneEnvelopeShift, first: Int) {
        values[first] = SampleZoneEnvelope.timecents(values[first], adding: shift.delay)
        values[first + 1] = SampleZoneEnvelope.timecents(values[first + 1], adding: shift.attack)
        values[first + 2] = SampleZoneEnvelope.timecents(values[first + 2], adding: shift.hold)
        values[first + 3] = SampleZoneEnvelope.timecents(values[first + 3], adding: shift.decay)
        values[first + 5] = SampleZoneEnvelope.timecents(values[first + 5], adding: shift.release)
    }

    /// `timecents` (SF2's instant -12000 as 0 s) with `seconds` added, kept at 0 s or more.
    @_noLocks @inline(__always)
    static func timecents(_ timecents: Float, adding seconds: Float) -> Float {
        if seconds == 0 { return timecents }
        let now = timecents <= -12000 ? 0 : FastMath.exp2(timecents / 1200)
        let moved = now + seconds
        return moved <= 0.0001 ? -12000 : 1200 * FastMath.log2(moved)
    }
}
