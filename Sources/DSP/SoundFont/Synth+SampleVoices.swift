// SoundFont notes: a note-on starts one sample voice per zone of the channel's preset that contains its key
// and velocity, in slots taken by the synth's own policy (lowest free slot; at capacity the quietest released
// voice, else the oldest, fades out in its own slot). Note-off, the pedal, all-notes-off and all-sound-off
// are the synth's own code (Synth+Channels.swift, Synth+VoiceAllocation.swift): they act on every slot.

extension Synth {
    @_noLocks
    func sampleNoteOn(channel ch: Int, note: UInt8, velocity: UInt8) {
        let p = Int(fontChannels.preset[ch]), presets = font.presetCount // `&&` must not capture self
        guard p >= 0 && p < presets else { return }
        let range = font.presetZones[p]
        let first = Int(range[0]), last = first + Int(range[1])
        // The same key again: its sounding voices are released (not stacked at full level, not cut).
        for v in 0..<slotLimit where voices.kind[v] == VoiceKind.sample {
            if voices.note[v] == note, isHeldNote(v, channel: ch) { voices.stage[v] = Stage.release }
        }
        // Exclusive classes first, so the voices this note starts are not cut by their own class.
        for z in first..<last where zoneContains(z, key: note, velocity: velocity) {
            let exclusive = font.zones[z].generators[Generator.exclusiveClass]
            if exclusive > 0 && exclusive <= 127 { cutExclusiveClass(UInt8(exclusive), channel: ch, preset: p) }
        }
        for z in first..<last where zoneContains(z, key: note, velocity: velocity) {
            startSampleVoice(zone: z, preset: p, channel: ch, note: note, velocity: velocity)
        }
    }

    /// Whether zone `z`'s key and velocity ranges hold the note.
    @_noLocks @inline(__always)
    func zoneContains(_ z: Int, key: UInt8, velocity: UInt8) -> Bool {
        let zone = font.zones[z]
        if key < zone.keyLow || key > zone.keyHigh { return false }
        return velocity >= zone.velocityLow && velocity <= zone.velocityHigh
    }

    /// A note of exclusive class `exclusive` (an open hi-hat closed by a pedal hi-hat): the other voices of
    /// that class in the same preset on the channel fade out as a stolen voice does (3 ms: no click).
    @_noLocks
    func cutExclusiveClass(_ exclusive: UInt8, channel ch: Int, preset p: Int) {
        let stages = voices.stage, kinds = voices.kind // `&&` must not capture self
        for v in 0..<slotLimit where kinds[v] == VoiceKind.sample && stages[v] != Stage.free {
            guard Int(voices.channel[v]) == ch else { continue }
            let voice = sampleVoices.state[v]
            if voice.exclusiveClass == exclusive && Int(voice.preset) == p { startFade(v, step: stealFadeStep) }
        }
    }

    @_noLocks
    func startSampleVoice(zone z: Int, preset p: Int, channel ch: Int, note: UInt8, velocity: UInt8) {
        let zone = font.zones[z]
        let s = Int(zone.sample)
        let sampleCount = font.samples.count // `&&` must not capture self
        guard s >= 0 && s < sampleCount, sampleRate > 0 else { return }
        let sample = font.samples[s]
        // ROM samples are not in the file; a header outside the data or without a rate cannot play.
        guard sample.type & 0x8000 == 0, sample.sampleRate > 0, sample.end > sample.start,
              Int(sample.end) <= font.dataCount else { return }
        let velocityGenerator = zone.generators[Generator.velocity]
        let playedVelocity = velocityGenerator >= 1 && velocityGenerator <= 127 ? UInt8(velocityGenerator) : velocity
        let keyGenerator = zone.generators[Generator.keynum]
        let modulatorKey = keyGenerator >= 0 && keyGenerator <= 127 ? UInt8(keyGenerator) : note
        let values = generatorValues(zone: z, channel: ch, key: modulatorKey, velocity: playedVelocity)
        let v = allocateSampleSlot()
        guard v >= 0 else { return }

        var voice = SampleVoice()
        voice.zone = Int32(z)
        voice.preset = Int32(p)
        voice.key = modulatorKey
        voice.velocity = playedVelocity
        voice.exclusiveClass = UInt8(min(max(zone.generators[Generator.exclusiveClass], 0), 127))
        voice.rateRatio = Float(Double(sample.sampleRate) / sampleRate)
        applyModulated(values, to: &voice, key: note, root: rootKey(values, sample: sample),
                       correction: sample.pitchCorrection)
        setAddresses(of: &voice, zone: zone, sample: sample)

        let rate = Float(sampleRate)
        let keyOffset = Float(60 - Int(note))
        voice.volumeEnvelope = SampleEnvelope(
            delay: values[Generator.delayVolEnv], attack: values[Generator.attackVolEnv],
            hold: values[Generator.holdVolEnv] + values[Generator.keynumToVolEnvHold] * keyOffset,
            decay: values[Generator.decayVolEnv] + values[Generator.keynumToVolEnvDecay] * keyOffset,
            // sustainVolEnv is attenuation in cB; FluidSynth reads 1000 cB as silence.
            sustain: 1 - 0.001 * min(max(values[Generator.sustainVolEnv], 0), 1440),
            release: values[Generator.releaseVolEnv], rate: rate)
        voice.modulationEnvelope = SampleEnvelope(
            delay: values[Generator.delayModEnv], attack: values[Generator.attackModEnv],
            hold: values[Generator.holdModEnv] + values[Generator.keynumToModEnvHold] * keyOffset,
            decay: values[Generator.decayModEnv] + values[Generator.keynumToModEnvDecay] * keyOffset,
            // sustainModEnv is in 0.1 % below full.
            sustain: 1 - 0.001 * min(max(values[Generator.sustainModEnv], 0), 1000),
            release: values[Generator.releaseModEnv], rate: rate)
        voice.modulationLFO = SampleLFO(delay: values[Generator.delayModLFO],
                                        frequency: values[Generator.freqModLFO], rate: rate)
        voice.vibratoLFO = SampleLFO(delay: values[Generator.delayVibLFO],
                                     frequency: values[Generator.freqVibLFO], rate: rate)
        sampleVoices.state[v] = voice

        slotLimit = max(slotLimit, v + 1)
        voices.stage[v] = Stage.attack
        voices.kind[v] = VoiceKind.sample
        sounding += 1
        voices.held[v] = 0
        voices.channel[v] = UInt8(ch)
        voices.note[v] = note
        voices.age[v] = nextAge
        nextAge &+= 1
        voices.envelope[v] = 0
        voices.ic1[v] = 0
        voices.ic2[v] = 0
        voices.fade[v] = 1
        voices.fadeStep[v] = 0
    }

    /// The sample's points moved by the zone's address offsets (fine + 32768 x coarse), kept inside the
    /// sample; a loop shorter than two frames, or outside the played range, does not loop.
    @_noLocks
    func setAddresses(of voice: inout SampleVoice, zone: SoundFontZone, sample: SoundFontSample) {
        @inline(__always) func offset(_ fine: Int, _ coarse: Int) -> Int {
            Int(zone.generators[fine]) + 32768 * Int(zone.generators[coarse])
        }
        let low = Int(sample.start), high = Int(sample.end)
        let start = min(max(low + offset(Generator.startAddressOffset, Generator.startAddressCoarseOffset), low), high - 1)
        let end = min(max(high + offset(Generator.endAddressOffset, Generator.endAddressCoarseOffset), start + 1), high)
        let loopStart = min(max(Int(sample.loopStart)
            + offset(Generator.startLoopAddressOffset, Generator.startLoopAddressCoarseOffset), start), end)
        let loopEnd = min(max(Int(sample.loopEnd)
            + offset(Generator.endLoopAddressOffset, Generator.endLoopAddressCoarseOffset), loopStart), end)
        var mode = UInt8(truncatingIfNeeded: zone.generators[Generator.sampleModes] & 3)
        if mode == 2 || loopEnd - loopStart < 2 { mode = 0 }
        voice.loopMode = mode
        voice.position = Int32(mode != 0 && start >= loopEnd ? loopStart : start)
        voice.fraction = 0
        voice.end = Int32(end)
        voice.loopStart = Int32(loopStart)
        voice.loopEnd = Int32(loopEnd)
    }

    /// A slot for a sample voice, by the synth's policy: at `voiceCapacity` sounding voices the quietest
    /// released one, else the oldest, starts fading; the lowest free slot, or a new one at `slotLimit`, or
    /// (every slot busy) the faintest fading tail. -1 if none.
    @_noLocks
    func allocateSampleSlot() -> Int {
        var playing = 0
        var freeSlot = -1
        var oldest = -1, oldestAge = UInt64.max
        var quietestReleased = -1, quietestLevel = Float.infinity
        var quietestFading = -1, quietestFade = Float.infinity
        for v in 0..<slotLimit {
            let s = voices.stage[v]
            if s == Stage.free {
                if freeSlot < 0 { freeSlot = v }
                continue
            }
            if voices.fadeStep[v] > 0 {
                let level = voices.fade[v] * voices.envelope[v]
                if level < quietestFade { quietestFade = level; quietestFading = v }
                continue
            }
            playing += 1
            if s == Stage.release {
                if voices.envelope[v] < quietestLevel { quietestLevel = voices.envelope[v]; quietestReleased = v }
            } else if voices.age[v] < oldestAge {
                oldestAge = voices.age[v]; oldest = v
            }
        }
        if playing >= voiceCapacity {
            let victim = quietestReleased >= 0 ? quietestReleased : oldest
            if victim >= 0 { startFade(victim, step: stealFadeStep) }
        }
        let limit = slotLimit, slots = slotCount // `&&` must not capture self
        if freeSlot < 0 && limit < slots { freeSlot = limit }
        if freeSlot < 0 { freeSlot = quietestFading }
        if freeSlot >= 0, voices.stage[freeSlot] != Stage.free { freeVoice(freeSlot) }
        return freeSlot
    }
}
