import MIDI

// The built-in drum kit (DrumKit.swift) on drum parts: which channel is one, a drum note-on through the one
// `VoiceAllocator` (exclusive classes: a closed hi-hat cuts an open one), and the drum voices' render, one
// voice at a time (a song has a few drum notes sounding, not hundreds), into the lane sums the wavetable
// groups fill. Drums are one-shots: a note-off, the pedal and all notes off leave them to their decay; all
// sound off and stealing fade them as any voice.

extension Synth {
    /// A drum part plays the kit: channel 10 (index 9) unless GS Use For Rhythm Part says otherwise, any
    /// channel that GS message makes one, and any channel whose bank MSB is 120 (GM2 rhythm) or 127 (XG drum
    /// kit); bank MSB 121 (GM2 melodic) makes a channel melodic. The rule the SoundFont synth applies to
    /// choose its drum banks (`selectFontPreset`, Synth+SoundFont.swift, with the bank its preset lookup holds).
    @_noLocks @inline(__always)
    func isDrumPart(_ ch: Int) -> Bool { isDrumPart(ch, bank: Int(controls.channels[ch].bank)) }

    @_noLocks @inline(__always)
    func isDrumPart(_ ch: Int, bank: Int) -> Bool {
        if bank == 120 || bank == 127 { return true }
        if bank == 121 { return false }
        let rhythm = controls.channels[ch].rhythm
        return rhythm >= 0 ? rhythm != 0 : ch == 9
    }

    /// A drum note-on: the key's sound from the kit the channel's program chose (silent where the kit has
    /// none), its class's other notes cut.
    @_noLocks
    func drumNoteOn(channel ch: Int, note: UInt8, velocity: UInt8) {
        let sound = drums.kit.entries[Int(controls.channels[ch].drumKit) &* 128 &+ Int(note & 0x7F)]
        guard sound.plays, sampleRate > 0 else { return }
        let exclusive = sound.exclusiveClass > 0 ? VoiceAllocator.exclusiveKey(Int(sound.exclusiveClass), preset: drumKitPreset) : 0
        if exclusive != 0 { allocator.cut(voices, exclusive: exclusive, channel: ch) }
        let v = allocator.take(voices, channel: ch, note: note, sameKey: .fade)
        guard v >= 0 else { return }
        allocator.start(voices, v, kind: VoiceKind.drum, channel: ch, note: note, exclusive: exclusive)
        drums.start(v, sound: sound, velocity: velocity, voices: voices, inverseRate: rates.inverseRate)
        notePlayed(channel: ch, note: note)
        publishSubstitution(ch) // a kit number with no kit of its own: said once (Synth+BuiltInSubstitution.swift)
    }

    /// The drum kit's exclusive class keys are those of a preset number no SoundFont has.
    var drumKitPreset: Int { @_noLocks get { 0xFFFF } }

    /// Renders every drum voice over the slice (`DrumVoices.render`).
    @_noLocks
    func renderDrumVoices(frames: Int) {
        drums.render(frames: frames, voices: voices, allocator: &allocator, mix: &mix,
                     controllers: controls.midi.controllers, stride: maxFrames)
    }
}

/// The drum kind's own work: setting a voice up in the slot the synth took for it, and rendering them all.
extension DrumVoices {
    /// Sets up slot `v`'s drum voice for the kit's `sound` at `velocity` (`voices` holds what every voice has).
    @_noLocks
    func start(_ v: Int, sound: DrumKitTable.Entry, velocity: UInt8, voices: borrowing VoiceSlots, inverseRate: Float) {
        let normalized = Float(velocity) / 127
        let rate = inverseRate
        voices.amplitude[v] = voiceGain * (0.2 + 0.8 * normalized * normalized)
        voices.envelope[v] = 1 // for stealing: a drum is loud until it has decayed
        self.tonePhase[v] = 0
        self.toneEnd[v] = sound.toneEnd * rate
        self.toneSweep[v] = (sound.toneStart - sound.toneEnd) * rate
        self.pitchCoefficient[v] = FastMath.exp2(-1.442_695 * rate / max(sound.pitchTime, 1e-4)) // e-fold time
        self.toneLevel[v] = sound.toneGain
        self.toneCoefficient[v] = FastMath.exp2(-9.965_784 * rate / max(sound.toneDecay, 1e-3)) // -60 dB
        self.noiseLevel[v] = sound.noiseGain
        self.noiseCoefficient[v] = FastMath.exp2(-9.965_784 * rate / max(sound.noiseDecay, 1e-3))
        // A different noise for every note (the note-on serial), the same in every render of the same MIDI.
        let age = voices.age[v] &* 0x9E37_79B9_7F4A_7C15
        self.seed[v] = UInt32(truncatingIfNeeded: age >> 32) | 1
        self.filter[v] = sound.filter
        // The SVF's g = tan(pi fc / fs) as StateVariableFilter.swift's Padé quotient.
        let w = Float.pi * min(sound.filterHz * rate, 0.45)
        let g = w * (15 - w * w) / (15 - 6 * w * w)
        let k = sound.filterK
        let a1 = 1 / (1 + g * (g + k))
        self.a1[v] = a1
        self.a2[v] = g * a1
        self.a3[v] = g * g * a1
        self.k[v] = k
    }

    /// Renders every drum voice over the slice into the lane sums (lane 0 of each frame's first half), and by
    /// its channel's CC91/CC93 (`controllers`, 128 a channel) into the send buses' lanes; frees the voices that
    /// end. `stride`: the scratch's frames per channel row.
    @_noLocks
    func render(frames: Int, voices: borrowing VoiceSlots, allocator: inout VoiceAllocator, mix: inout SynthMix,
                controllers: UnsafeMutablePointer<UInt8>, stride: Int) {
        let sl = mix.scratch.sumLeft, sr = mix.scratch.sumRight
        let gl = mix.scratch.left, gr = mix.scratch.right
        let silence = silenceLevel
        let stages = voices.stage, kinds = voices.kind
        for v in 0..<allocator.slotLimit where stages[v] != Synth.Stage.free && kinds[v] == VoiceKind.drum {
            let offset = Int(voices.channel[v]) * stride
            var phase = self.tonePhase[v], sweep = self.toneSweep[v]
            let end = self.toneEnd[v], pitchCoefficient = self.pitchCoefficient[v]
            var tone = self.toneLevel[v], noise = self.noiseLevel[v]
            let toneCoefficient = self.toneCoefficient[v], noiseCoefficient = self.noiseCoefficient[v]
            var seed = self.seed[v]
            var z1 = voices.ic1[v], z2 = voices.ic2[v]
            let a1 = self.a1[v], a2 = self.a2[v], a3 = self.a3[v], k = self.k[v]
            let mode = self.filter[v]
            var fade = voices.fade[v]
            let fadeStep = voices.fadeStep[v], gain = voices.amplitude[v]
            // Its channel's CC91/CC93 sends, into lane 0 of the buses' lanes (Synth+Effects.swift).
            let (reverb, chorus) = SynthMix.controllerSends(controllers, channel: Int(voices.channel[v]))
            // Each 0 when its bus is off, scaled as `SynthMix.foldGroup` scales a voice's (left + right).
            let reverbSend = mix.effects.reverbOn ? reverb * sendPanScale : 0
            let chorusSend = mix.effects.chorusOn ? chorus * sendPanScale : 0
            let sends = reverbSend > 0 || chorusSend > 0
            // With per-channel outputs on, into its channel's rows too (Synth+ChannelOutputs.swift).
            let split = mix.outputs.isOn, row = 2 &* Int(voices.channel[v] & 0x0F)
            let channelLeft = mix.outputs.at(split ? row : 0), channelRight = mix.outputs.at(split ? row &+ 1 : 0)
            if sends { mix.beginSends(frames: frames) }
            let reverbLanes = mix.effects.reverbLanes, chorusLanes = mix.effects.chorusLanes
            var ended = false
            for n in 0..<frames {
                // Ends at the sample both parts are below -100 dB, whatever the slice (live and offline alike).
                if tone < silence { if noise < silence { ended = true; break } }
                // The tone: a sine (parabolic, refined) at the swept frequency.
                phase += end + sweep
                if phase >= 1 { phase -= 1 }
                sweep *= pitchCoefficient
                let x = 2 * phase - 1 // -1...1: sin(pi x) is -sin of the phase
                let y = 4 * x * (1 - abs(x))
                let sine = -(0.225 * (y * abs(y) - y) + y)
                // The noise: a 32-bit LCG, its top bits as -1...1, through the SVF.
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let white = Float(Int32(bitPattern: seed)) * (1.0 / 2_147_483_648)
                let v3 = white - z2
                let v1 = a1 * z1 + a2 * v3
                let v2 = z2 + a2 * z1 + a3 * v3
                z1 = 2 * v1 - z1
                z2 = 2 * v2 - z2
                let filtered = mode == 0 ? v2 : (mode == 1 ? v1 : white - k * v1 - v2)
                let out = (sine * tone + filtered * noise) * gain * fade
                tone *= toneCoefficient
                noise *= noiseCoefficient
                fade = max(fade - fadeStep, 0)
                let left = out * gl[offset &+ n], right = out * gr[offset &+ n]
                sl[2 &* n][0] += left
                sr[2 &* n][0] += right
                if split {
                    channelLeft[n] += left
                    channelRight[n] += right
                }
                if sends {
                    reverbLanes[2 &* n][0] += (left + right) * reverbSend
                    chorusLanes[2 &* n][0] += (left + right) * chorusSend
                }
            }
            if ended || fade <= 0 {
                allocator.free(voices, v)
                continue
            }
            self.tonePhase[v] = phase; self.toneSweep[v] = sweep
            self.toneLevel[v] = tone; self.noiseLevel[v] = noise
            self.seed[v] = seed
            voices.ic1[v] = abs(z1) < 1e-30 ? 0 : z1
            voices.ic2[v] = abs(z2) < 1e-30 ? 0 : z2
            voices.fade[v] = fade
            voices.envelope[v] = max(tone, noise)
        }
    }
}
