import Synchronization

// SoundFont notes: a note-on starts one sample voice per zone of the channel's preset that contains its key
// and velocity, each in a slot from the synth's one `VoiceAllocator` (VoiceAllocator.swift), which also cuts
// exclusive classes. Note-off, the pedal, all-notes-off and all-sound-off are the synth's own code
// (Synth+Channels.swift, Synth+VoiceAllocation.swift): they act on every slot.

extension Synth {
    @_noLocks
    func sampleNoteOn(channel ch: Int, note: UInt8, velocity: UInt8) {
        let p = Int(controls.midi.preset[ch]), presets = samples.font.presetCount
        publishSubstitution(ch)
        guard p >= 0 && p < presets else { return }
        let range = samples.font.presetZones[p]
        let first = Int(range[0]), last = first + Int(range[1])
        // The same key again: its sounding voices are released (not stacked at full level, not cut).
        for v in 0..<slotLimit where voices.kind[v] == VoiceKind.sample {
            if voices.note[v] == note, isHeldNote(v, channel: ch) { voices.stage[v] = Stage.release }
        }
        // SFZ zones' round robins, key switches... (Synth+SampleZoneRules.swift; nothing for an SF2 font).
        chooseSampleZones(channel: ch, note: note, velocity: velocity, first: first, last: last)
        // Exclusive classes first, so the voices this note starts are not cut by their own class.
        for z in first..<last where zoneContains(z, key: note, velocity: velocity) {
            if !zoneChosen(z) { continue }
            let key = VoiceAllocator.exclusiveKey(Int(samples.font.zones[z].generators[SoundFontGenerator.exclusiveClass]), preset: p)
            if key != 0 { cutExclusive(key, channel: ch) } // as each cut zone's off_mode says (Synth+SampleZoneOff.swift)
        }
        for z in first..<last where zoneContains(z, key: note, velocity: velocity) {
            if !zoneChosen(z) { continue }
            startSampleVoice(zone: z, preset: p, channel: ch, note: note, velocity: velocity)
        }
        notePlayed(channel: ch, note: note) // portamento's origin for the next note (Synth+Portamento.swift)
    }

    /// Whether zone `z`'s key and velocity ranges hold the note.
    @_noLocks @inline(__always)
    func zoneContains(_ z: Int, key: UInt8, velocity: UInt8) -> Bool {
        let zone = samples.font.zones[z]
        if key < zone.keyLow || key > zone.keyHigh { return false }
        return velocity >= zone.velocityLow && velocity <= zone.velocityHigh
    }

    @_noLocks
    func startSampleVoice(zone z: Int, preset p: Int, channel ch: Int, note: UInt8, velocity: UInt8) {
        limitSampleVoices(zone: z, preset: p, note: note, velocity: velocity) // SFZ's off_by, polyphony (Synth+SampleZoneLimits.swift)
        let zone = samples.font.zones[z]
        let s = Int(zone.sample)
        let sampleCount = samples.font.samples.count
        guard s >= 0 && s < sampleCount, sampleRate > 0 else { return }
        let sample = samples.font.samples[s]
        // The sample's own font's data (a stack's layer).
        let layer = samples.font.layer(ofSample: s)
        // ROM samples are not in the file; a header outside the data or without a rate cannot play.
        guard sample.type & 0x8000 == 0, sample.sampleRate > 0, sample.end > sample.start,
              Int(sample.end) <= samples.font.layerDataCount[layer] else { return }
        // SoundFont 3: the sample plays once its loader has published it (acquire pairs with its release);
        // a missed note is counted under the sample's state (not decoded yet, did not fit, does not decode).
        if let ready = samples.font.layerReady[layer], let missed = samples.font.layerMissed[layer] {
            let state = ready[s - samples.font.layerSampleBase[layer]].load(ordering: .acquiring)
            if state != SampleState.decoded {
                missed[Int(state & 3)].wrappingAdd(1, ordering: .relaxed)
                return
            }
        }
        // A streamed instrument: the sample's rest is asked for now (Synth+SampleStream.swift).
        if let stream = samples.font.layerStream[layer] { stream.noteOn(sample: s - samples.font.layerSampleBase[layer]) }
        let velocityGenerator = zone.generators[SoundFontGenerator.velocity]
        let playedVelocity = velocityGenerator >= 1 && velocityGenerator <= 127 ? UInt8(velocityGenerator) : velocity
        let keyGenerator = zone.generators[SoundFontGenerator.keynum]
        let modulatorKey = keyGenerator >= 0 && keyGenerator <= 127 ? UInt8(keyGenerator) : note
        var values = generatorValues(zone: z, channel: ch, key: modulatorKey, velocity: playedVelocity)
        applyNoteEnvelope(&values, zone: z, channel: ch, velocity: playedVelocity) // SFZ's ampeg_vel2*, fileg_vel2*... (Synth+SampleZoneEnvelopes.swift)
        let v = allocator.take(voices, channel: ch, note: note, sameKey: .keep)
        guard v >= 0 else { return }

        var voice = SampleVoice()
        voice.zone = Int32(z)
        voice.preset = Int32(p)
        voice.layer = UInt8(truncatingIfNeeded: layer)
        voice.key = modulatorKey
        voice.velocity = playedVelocity
        voice.exclusiveClass = UInt8(min(max(zone.generators[SoundFontGenerator.exclusiveClass], 0), 127))
        voice.playback.rateRatio = Float(Double(sample.sampleRate) / sampleRate)
        voice.modulation.tuningCents = keyTuning(channel: ch, key: note) // MTS and scale tuning (Synth+Tuning.swift)
        voice.gain = zone.gain * noteGain(zone: z, channel: ch, key: note, velocity: playedVelocity) // before the pan gains
        applyModulated(values, to: &voice, channel: ch, key: note, root: rootKey(values, sample: sample),
                       correction: sample.pitchCorrection)
        setAddresses(of: &voice, zone: zone, sample: sample)

        let rate = Float(sampleRate)
        let keyOffset = Float(60 - Int(note))
        // sustainVolEnv is attenuation in cB; FluidSynth reads 1000 cB as silence.
        voice.volumeEnvelope = SampleEnvelope(
            values, delay: SoundFontGenerator.delayVolEnv, sustain: 1 - 0.001 * min(max(values[SoundFontGenerator.sustainVolEnv], 0), 1440),
            keyOffset: keyOffset, rate: rate)
        startNoteEnvelope(&voice.volumeEnvelope, zone: z, channel: ch) // SFZ's ampeg_start
        // sustainModEnv is in 0.1 % below full.
        voice.modulationEnvelope = SampleEnvelope(
            values, delay: SoundFontGenerator.delayModEnv, sustain: 1 - 0.001 * min(max(values[SoundFontGenerator.sustainModEnv], 0), 1000),
            keyOffset: keyOffset, rate: rate)
        voice.modulationLFO = SampleLFO(delay: values[SoundFontGenerator.delayModLFO],
                                        frequency: values[SoundFontGenerator.freqModLFO], rate: rate)
        voice.vibratoLFO = SampleLFO(delay: values[SoundFontGenerator.delayVibLFO],
                                     frequency: values[SoundFontGenerator.freqVibLFO], rate: rate)
        shapeNoteLFOs(&voice, zone: z) // SFZ's sine LFOs
        useGM2Vibrato(&voice.vibratoLFO, zone: zone, channel: ch) // after RPN 5 (Synth+GM2Vibrato.swift)
        samples.slots.state[v] = voice
        allocator.start(voices, v, kind: VoiceKind.sample, channel: ch, note: note,
                        exclusive: VoiceAllocator.exclusiveKey(Int(voice.exclusiveClass), preset: p))
        sampleVoiceStarted(v)
        startGlide(v, channel: ch, note: note)
    }

    /// The sample's points moved by the zone's address offsets (`SampleAddresses`).
    @_noLocks
    func setAddresses(of voice: inout SampleVoice, zone: SoundFontZone, sample: SoundFontSample) {
        let a = SampleAddresses(zone: zone, sample: sample)
        voice.loopMode = a.mode
        voice.playback.position = Int32(a.mode != 0 && a.start >= a.loopEnd ? a.loopStart : a.start)
        voice.playback.fraction = 0
        voice.playback.end = Int32(a.end)
        voice.playback.first = Int32(sample.start)
        voice.playback.loopStart = Int32(a.loopStart)
        voice.playback.loopEnd = Int32(a.loopEnd)
    }
}

/// Where a zone plays its sample: the sample's points moved by the zone's address offsets (fine + 32768 x
/// coarse), kept inside the sample; a loop shorter than two frames, or outside the played range, does not
/// loop (`mode` 0). The voice starts from them (`Synth.setAddresses`), and the synth sizes its loop copies by
/// them (`LoopCopies.needed`).
struct SampleAddresses {
    var start: Int, end: Int, loopStart: Int, loopEnd: Int
    /// SF2's sampleModes: 0 no loop, 1 loops, 3 loops until released.
    var mode: UInt8

    @_noLocks
    init(zone: SoundFontZone, sample: SoundFontSample) {
        @inline(__always) func offset(_ fine: Int, _ coarse: Int) -> Int {
            Int(zone.generators[fine]) + 32768 * Int(zone.generators[coarse])
        }
        let low = Int(sample.start), high = Int(sample.end)
        start = min(max(low + offset(SoundFontGenerator.startAddressOffset, SoundFontGenerator.startAddressCoarseOffset), low), high - 1)
        end = min(max(high + offset(SoundFontGenerator.endAddressOffset, SoundFontGenerator.endAddressCoarseOffset), start + 1), high)
        loopStart = min(max(Int(sample.loopStart)
            + offset(SoundFontGenerator.startLoopAddressOffset, SoundFontGenerator.startLoopAddressCoarseOffset), start), end)
        loopEnd = min(max(Int(sample.loopEnd)
            + offset(SoundFontGenerator.endLoopAddressOffset, SoundFontGenerator.endLoopAddressCoarseOffset), loopStart), end)
        mode = UInt8(truncatingIfNeeded: zone.generators[SoundFontGenerator.sampleModes] & 3)
        if mode == 2 || loopEnd - loopStart < 2 { mode = 0 }
    }
}
