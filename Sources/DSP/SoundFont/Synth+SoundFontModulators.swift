import MIDI
// SoundFont modulators (specification section 8.2) and the generator values a voice plays: the zone's resolved
// generators plus every modulator's `amount * source * amountSource`, with the channel's controllers as they
// are now. Evaluated at note-on and again, for the parameters that may change while a note sounds, when a
// controller, the pitch wheel or pressure changes on the voice's channel.

/// The generator values of one voice, indexed by `SoundFontGenerator` (`SoundFontGenerator.count` of them).
typealias GeneratorValues = InlineArray<61, Float>

/// The attenuation generator is scaled by this before the modulators are added: FluidSynth's EMU-compatible
/// reading of initialAttenuation, followed so that loudness matches FluidSynth (docs/soundfont.md).
var attenuationGeneratorScale: Float { @_noLocks get { 0.4 } }

/// The GM2 sound controllers a SoundFont voice obeys, as offsets to the SF2 generators that mean the same
/// (docs/soundfont.md): CC74 brightness to the filter cutoff, CC71 resonance (timbre) to the filter Q, CC73
/// attack, CC75 decay and CC72 release to the volume envelope's times. Each is centred: 64 (the power-on
/// value) changes nothing, 0 subtracts the amount, 127 adds 63/64 of it, as a bipolar linear SF2 modulator
/// does. FluidSynth has no default modulators for them (a font may bring its own, which then replace these);
/// the amounts are Backbeat's, in the generators' units. The filter follows at once, also for sounding notes;
/// the envelope times apply to the notes started after the change.
public enum SoundControllers {
    /// How many there are: brightness, resonance (timbre), attack, decay and release, in the order of
    /// `entry(_:)` and of their bits (1, 2, 4, 8, 16) in `bit(source:destination:)`.
    public static var count: Int { @_noLocks get { 5 } }

    /// The `index`th (0..<count) sound controller: MIDI's controller, the generator it offsets and its amount in
    /// that generator's units. CC74 0 lowers the cutoff by 5 octaves (6000 cents); CC71 127 raises the filter's
    /// resonance peak by 21.7 dB (220 cB at full scale); CC73 127 makes the attack 63 times longer, 0 64 times
    /// shorter (7200 timecents: 6 octaves of time); CC75 and CC72 make the decay and the release 16 times
    /// shorter to about 16 times longer (4800 timecents).
    @inlinable @_noLocks
    public static func entry(_ index: Int) -> (controller: Controller, generator: Int, amount: Float) {
        switch index {
        case 0: (.brightness, SoundFontGenerator.initialFilterFc, 6000)
        case 1: (.timbre, SoundFontGenerator.initialFilterQ, 220)
        case 2: (.attackTime, SoundFontGenerator.attackVolEnv, 7200)
        case 3: (.decayTime, SoundFontGenerator.decayVolEnv, 4800)
        default: (.releaseTime, SoundFontGenerator.releaseVolEnv, 4800)
        }
    }

    /// A controller value as a centred offset: -1 at 0, 0 at 64, 63/64 at 127.
    @_noLocks @inline(__always)
    public static func offset(_ value: UInt8) -> Float { (Float(value) - 64) / 64 }

    /// The bit of the sound controller a modulator maps as Backbeat would (a CC source onto the same
    /// generator), 0 for any other modulator.
    @_noLocks
    static func bit(source: UInt16, destination: Int) -> UInt8 {
        guard source & ModulatorSource.controllerFlag != 0 else { return 0 }
        let controller = UInt8(source & ModulatorSource.indexMask)
        for i in 0..<count {
            let sound = entry(i)
            if sound.controller.rawValue == controller {
                if sound.generator == destination { return 1 << UInt8(i) }
            }
        }
        return 0
    }
}

/// The modulator source word of the modulation wheel (CC 1, unipolar, positive, linear).
var modulationWheelSource: UInt16 { @_noLocks get { ModulatorSource.controllerFlag | 1 } }

extension Synth {
    /// The zone's generators (initialAttenuation scaled as FluidSynth does) plus its modulators' outputs.
    @_noLocks
    func generatorValues(zone z: Int, channel ch: Int, key: UInt8, velocity: UInt8) -> GeneratorValues {
        let zone = samples.font.zones[z]
        var values = GeneratorValues(repeating: 0)
        for g in 0..<SoundFontGenerator.count { values[g] = Float(zone.generators[g]) }
        values[SoundFontGenerator.initialAttenuation] *= attenuationGeneratorScale
        let start = Int(zone.modulatorStart), count = Int(zone.modulatorCount)
        guard start >= 0, count >= 0, start + count <= samples.font.modulators.count else { return values }
        var own: UInt8 = 0 // the sound controllers the zone's own modulators already map (bits as `SoundControllers`)
        for m in start..<(start + count) {
            let modulator = samples.font.modulators[m]
            let destination = Int(modulator.destination)
            own |= SoundControllers.bit(source: modulator.source, destination: destination)
            guard destination < SoundFontGenerator.count, modulator.amount != 0 else { continue } // links (bit 15) are not followed
            let x = sourceValue(modulator.source, channel: ch, key: key, velocity: velocity)
            if x == 0 { continue }
            let y = sourceValue(modulator.amountSource, channel: ch, key: key, velocity: velocity)
            var output = Float(modulator.amount) * x * y
            if modulator.source == modulationWheelSource && destination == SoundFontGenerator.vibLFOToPitch {
                output *= controls.channels[ch].vibrato.depthRange * 2 // RPN 5: the default 50 cents is a range of 0.5 semitone
            }
            if modulator.transform == 2 { output = abs(output) }
            values[destination] += output
        }
        addSoundControllers(to: &values, channel: ch, except: own)
        return values
    }

    /// The GM2 sound controllers as generator offsets (`SoundControllers`), each one unless the zone maps that
    /// controller to that generator itself: 64 is no change, 0 the full amount down, 127 63/64 of it up.
    @_noLocks
    func addSoundControllers(to values: inout GeneratorValues, channel ch: Int, except own: UInt8) {
        let cc = controls.midi.controllers + ch * 128
        for i in 0..<SoundControllers.count where own & (1 << UInt8(i)) == 0 {
            let sound = SoundControllers.entry(i)
            values[sound.generator] += sound.amount * SoundControllers.offset(cc[Int(sound.controller.rawValue)])
        }
    }

    /// A modulator source (an SFModulator word) mapped to -1...1 or 0...1: the controller's value normalized,
    /// its direction, then its curve (linear, concave, convex, switch), unipolar or bipolar.
    @_noLocks
    func sourceValue(_ word: UInt16, channel ch: Int, key: UInt8, velocity: UInt8) -> Float {
        let index = Int(word & ModulatorSource.indexMask)
        var x: Float
        if word & ModulatorSource.controllerFlag != 0 {
            x = Float(controls.midi.controllers[ch * 128 + index]) / 127
        } else {
            switch index {
            case ModulatorSource.noController: return 1 // a constant 1
            case ModulatorSource.noteOnVelocity: x = Float(velocity) / 127
            case ModulatorSource.noteOnKey: x = Float(key) / 127
            case ModulatorSource.polyPressure: x = Float(controls.midi.keyPressure[ch * 128 + Int(key & 0x7F)]) / 127
            case ModulatorSource.channelPressure: x = Float(controls.midi.pressure[ch]) / 127
            case ModulatorSource.pitchWheel: x = Float(controls.midi.pitchWheel[ch]) / 16384
            case ModulatorSource.pitchWheelSensitivity: x = controls.channels[ch].pitch.bendRange / 127
            default: return 0 // a link or an unknown source contributes nothing
            }
        }
        if word & ModulatorSource.negativeDirection != 0 { x = 1 - x }
        let bipolar = word & ModulatorSource.bipolar != 0
        let type = word >> ModulatorSource.typeShift
        if bipolar {
            let u = 2 * x - 1
            let magnitude = curve(type, abs(u))
            return u < 0 ? -magnitude : magnitude
        }
        return curve(type, x)
    }

    /// The SoundFont curves on 0...1: 0 linear, 1 concave, 2 convex, 3 switch.
    @_noLocks @inline(__always)
    func curve(_ type: UInt16, _ x: Float) -> Float {
        switch type {
        case 1: concave(x)
        case 2: 1 - concave(1 - x)
        case 3: x >= 0.5 ? 1 : 0
        default: x
        }
    }

    /// The concave curve, -(20/96) log10((1 - x)^2): 0 at 0, 1 at the top (FluidSynth's table, as a function).
    @_noLocks @inline(__always)
    func concave(_ x: Float) -> Float {
        if x >= 126.5 / 127 { return 1 }
        if x <= 0 { return 0 }
        // -(40/96) log10(1 - x) = -(40/96) log10(2) log2(1 - x)
        return min(-0.125_429_165 * FastMath.log2(1 - x), 1)
    }

    /// Sets the voice's parameters that follow the channel's controllers from `values`: pitch (the key's
    /// tuning, `voice.modulation.tuningCents`, scaled by scaleTuning as the key is, and the channel's tuning added, as
    /// FluidSynth does), attenuation, pan (master balance applied), filter, and the LFO and envelope amounts.
    @_noLocks
    func applyModulated(_ values: GeneratorValues, to voice: inout SampleVoice, channel ch: Int, key: UInt8, root: Int, correction: Int8) {
        let scaleTuning = min(max(values[SoundFontGenerator.scaleTuning], 0), 1200)
        let keynum = values[SoundFontGenerator.keynum]
        let playedKey = keynum >= 0 && keynum <= 127 ? keynum : Float(key)
        let tuned: Float = voice.modulation.tuningCents * scaleTuning / 100 + channelTuningCents(ch)
        voice.modulation.pitchCents = (playedKey - Float(root)) * scaleTuning
            + min(max(values[SoundFontGenerator.coarseTune], -120), 120) * 100
            + values[SoundFontGenerator.fineTune] + values[SoundFontGenerator.initialPitch] + Float(correction)
            + tuned
        voice.modulation.attenuation = min(max(values[SoundFontGenerator.initialAttenuation], 0), 1440)
        let controlled = controllerLevels(zone: Int(voice.zone), channel: ch) // SFZ's CC crossfades, volume, amplitude, pan
        let pan = min(max(values[SoundFontGenerator.pan] + controlled.pan, -500), 500)
        let angle = Double(pan + 500) * (Double.pi / 2000)
        // SF2 attenuation stops at 0 cB; the voice's gain (SFZ zones only; exactly 1 for every SF2 zone) lifts
        // the level above it, in the pan gains.
        let gain = voice.gain * controlled.gain
        voice.modulation.panLeft = Float(FastMath.cos(angle)) * controls.master[2] * gain
        voice.modulation.panRight = Float(FastMath.sin(angle)) * controls.master[3] * gain
        voice.modulation.reverbSend = min(max(values[SoundFontGenerator.reverbEffectsSend], 0), 1000) * 0.001
        voice.modulation.chorusSend = min(max(values[SoundFontGenerator.chorusEffectsSend], 0), 1000) * 0.001
        voice.modulation.filterCents = min(max(values[SoundFontGenerator.initialFilterFc], 1500), 13500)
        // initialFilterQ is the resonance peak in cB; 0 is a flat (Butterworth, Q = 1/sqrt(2)) response.
        let q = min(max(values[SoundFontGenerator.initialFilterQ], 0), 960)
        let qLinear = FastMath.linear(decibels: q / 10 - 3.01)
        let shape = samples.font.zones[Int(voice.zone)].filterShape
        // A one-pole shape is the SVF at damping 2 (resonance has no part in it).
        voice.modulation.filterDamping = shape.onePole ? 2 : min(max(1 / qLinear, 0.02), 2)
        (voice.modulation.filterMixInput, voice.modulation.filterMixBand, voice.modulation.filterMixLow)
            = shape.mix(damping: voice.modulation.filterDamping)
        voice.modulation.modLFOToPitch = min(max(values[SoundFontGenerator.modLFOToPitch], -12000), 12000)
        voice.modulation.vibLFOToPitch = min(max(values[SoundFontGenerator.vibLFOToPitch], -12000), 12000)
        voice.modulation.modEnvToPitch = min(max(values[SoundFontGenerator.modEnvToPitch], -12000), 12000)
        voice.modulation.modLFOToFilter = min(max(values[SoundFontGenerator.modLFOToFilterFc], -12000), 12000)
        voice.modulation.modEnvToFilter = min(max(values[SoundFontGenerator.modEnvToFilterFc], -12000), 12000)
        voice.modulation.modLFOToVolume = min(max(values[SoundFontGenerator.modLFOToVolume], -960), 960)
    }

    /// Channels whose controllers changed since the last slice: their sample voices' modulated parameters are
    /// evaluated again, so the change is heard from the event's frame.
    @_noLocks
    func refreshModulatedVoices(channels mask: UInt16) {
        let stages = voices.stage, kinds = voices.kind
        for v in 0..<slotLimit where stages[v] != Stage.free && kinds[v] == VoiceKind.sample {
            let ch = Int(voices.channel[v])
            guard mask & (1 << UInt16(ch)) != 0 else { continue }
            let voice = samples.slots.state.baseAddress + v
            let z = Int(voice.pointee.zone)
            let values = generatorValues(zone: z, channel: ch, key: voice.pointee.key, velocity: voice.pointee.velocity)
            let sample = samples.font.samples[Int(samples.font.zones[z].sample)] // checked when the voice started
            applyModulated(values, to: &voice.pointee, channel: ch, key: voice.pointee.key,
                           root: rootKey(values, sample: sample), correction: sample.pitchCorrection)
        }
    }

    /// The key at which the sample plays at its recorded pitch: overridingRootKey, else the sample's own.
    @_noLocks @inline(__always)
    func rootKey(_ values: GeneratorValues, sample: SoundFontSample) -> Int {
        let overriding = Int(values[SoundFontGenerator.overridingRootKey])
        if overriding >= 0 && overriding <= 127 { return overriding }
        return sample.originalPitch <= 127 ? Int(sample.originalPitch) : 60
    }
}
