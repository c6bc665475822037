// What a note's velocity and a controller do to an SFZ zone's volume envelope (`ampeg_vel2*`,
// `ampeg_*_onccN`; SampleZoneEnvelope in SampleZoneRule.swift): seconds added to its times and percent to its
// sustain level, velocity / 127 (the controller's value / 127 at the note-on) of each, as sfizz adds them, worked into the voice's generator values once, at its note-on, before its envelope is
// made; and the level its attack starts from (`ampeg_start`), set in the envelope once it is made. Fonts
// without rules (every SF2 font) are left as they are.

extension Synth {
    /// Zone `z`'s volume envelope in `values` (timecents; the sustain in centibels below full) moved by the
    /// note's `velocity` and by channel `ch`'s controller the zone names, as it is at the note-on.
    @_noLocks
    func applyNoteEnvelope(_ values: inout GeneratorValues, zone z: Int, channel ch: Int, velocity: UInt8) {
        guard let rules = samples.font.rules else { return }
        let envelope = rules[z].envelope
        if envelope.isEmpty { return }
        let v = Float(velocity) / 127
        var delay = envelope.delay * v, attack = envelope.attack * v, hold = envelope.hold * v
        var decay = envelope.decay * v, sustain = envelope.sustain * v, release = envelope.release * v
        if envelope.controller >= 0 {
            // sfizz adds each the same way: the controller's value / 127 times the amount.
            let c = Float(controls.midi.controllers[ch * 128 + Int(envelope.controller & 0x7F)]) / 127
            let on = envelope.onController
            delay += on.delay * c
            attack += on.attack * c
            hold += on.hold * c
            decay += on.decay * c
            sustain += on.sustain * c
            release += on.release * c
        }
        typealias G = SoundFontGenerator
        values[G.delayVolEnv] = SampleZoneEnvelope.timecents(values[G.delayVolEnv], adding: delay)
        values[G.attackVolEnv] = SampleZoneEnvelope.timecents(values[G.attackVolEnv], adding: attack)
        values[G.holdVolEnv] = SampleZoneEnvelope.timecents(values[G.holdVolEnv], adding: hold)
        values[G.decayVolEnv] = SampleZoneEnvelope.timecents(values[G.decayVolEnv], adding: decay)
        values[G.releaseVolEnv] = SampleZoneEnvelope.timecents(values[G.releaseVolEnv], adding: release)
        if sustain != 0 {
            // Centibels below full as percent of full (-200 log10 (percent / 100)) and back.
            let percent = 100 * FastMath.exp2(-values[G.sustainVolEnv] / 200 * 3.321_928)
            let moved = min(max(percent + sustain, 0), 100)
            values[G.sustainVolEnv] = moved <= 0 ? 1440 : min(-200 / 3.321_928 * FastMath.log2(moved / 100), 1440)
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

    /// The volume envelope's attack from zone `z`'s start level (`ampeg_start`): it rises from there at the
    /// attack's rate, reaching full sooner, as sfizz's does (the delay before it stays silent).
    @_noLocks
    func startNoteEnvelope(_ envelope: inout SampleEnvelope, zone z: Int) {
        guard let rules = samples.font.rules else { return }
        let start = rules[z].envelope.start
        if start > 0 { envelope.value = min(start, 1) }
    }
}

extension SampleZoneEnvelope {
    /// `timecents` (SF2's instant -12000 as 0 s) with `seconds` added, kept at 0 s or more.
    @_noLocks @inline(__always)
    static func timecents(_ timecents: Float, adding seconds: Float) -> Float {
        if seconds == 0 { return timecents }
        let now = timecents <= -12000 ? 0 : FastMath.exp2(timecents / 1200)
        let moved = now + seconds
        return moved <= 0.0001 ? -12000 : 1200 * FastMath.log2(moved)
    }
}
