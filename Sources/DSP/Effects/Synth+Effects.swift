import MIDI

// The send buses in the synth's slice (EffectBuses.swift): settings and per-channel sends at the start of a
// slice, a sending group folded into the lane sums and the buses, the buses run at the end of the slice.

/// The SoundFont 2.01 default modulators' amount for CC91 -> reverb send and CC93 -> chorus send: 200 in
/// 0.1 % units, 20 % at the controller's full value; the built-in patches' sends follow the controllers alike.
var controllerSendShare: Float { @_noLocks get { 0.2 } }

/// A voice sends (left + right) x this x its send: the same share of a centred voice as of its mono signal.
var sendPanScale: Float { @_noLocks get { 0.707_106_8 } }

extension ReverbSettings {
    @_noLocks
    func same(as other: ReverbSettings) -> Bool {
        roomSize == other.roomSize && damping == other.damping && width == other.width && level == other.level
            && character == other.character && preLowPass == other.preLowPass && predelay == other.predelay
            && delayFeedback == other.delayFeedback
    }
}

extension ChorusSettings {
    @_noLocks
    func same(as other: ChorusSettings) -> Bool {
        voices == other.voices && level == other.level && rate == other.rate && depth == other.depth
            && feedback == other.feedback && delay == other.delay && sendToReverb == other.sendToReverb
    }
}

extension Synth {
    /// Sets an effect setting (clamped to its range) from any thread; it takes effect at the next slice and is
    /// what a system reset (GM/GS/XG) returns it to.
    @_noLocks
    public func setEffect(_ parameter: EffectParameter, _ value: Float) {
        let clamped = setEffectFromSysex(parameter, value)
        mix.effectControls.baseline[parameter.index].store(clamped.bitPattern, ordering: .relaxed)
    }

    /// Sets an effect setting until the next system reset (effect sysex); returns the value clamped.
    @_noLocks @discardableResult
    func setEffectFromSysex(_ parameter: EffectParameter, _ value: Float) -> Float {
        let (lower, upper) = parameter.bounds
        let clamped = value.isNaN ? lower : min(max(value, lower), upper)
        mix.effectControls.values[parameter.index].store(clamped.bitPattern, ordering: .relaxed)
        return clamped
    }

    /// Sets a GS-only effect setting (sysex, the real-time thread) until the next system reset.
    @_noLocks
    func setGSEffect(_ setting: GSEffectSetting, _ value: Float) {
        mix.effectControls.gs[setting.index].store(value.bitPattern, ordering: .relaxed)
    }

    /// A GS-only effect setting's value now. Any thread.
    @_noLocks
    func value(of setting: GSEffectSetting) -> Float { mix.effectControls.value(setting) }

    /// The value an effect setting was last set to. Any thread.
    @_noLocks
    public func value(of parameter: EffectParameter) -> Float {
        mix.effectControls.value(parameter)
    }

    /// Turns the reverb and the chorus on or off (both on by default). Any thread.
    @_noLocks
    public func setEffects(reverb: Bool, chorus: Bool) {
        setEffect(.reverbOn, reverb ? 1 : 0)
        setEffect(.chorusOn, chorus ? 1 : 0)
    }

    /// GM System On and panic: the reverb's and the chorus's tails cut (their state cleared), and with a system
    /// reset (`sends`) every channel's CC91 and CC93 back to their power-on 0, as FluidSynth's system reset does,
    /// and the effect settings that sysex changed back to what they were before (`EffectControls.reset`).
    @_noLocks
    func resetEffects(sends: Bool) {
        mix.effects.reverb.clear()
        mix.effects.chorus.clear()
        guard sends else { return }
        mix.effectControls.reset()
        for ch in 0..<channelCount {
            controls.midi.controllers[ch * 128 + Int(Controller.reverbSend.rawValue)] = 0
            controls.midi.controllers[ch * 128 + Int(Controller.chorusSend.rawValue)] = 0
        }
    }

    /// Start of a slice: the settings applied (the built-in voices' sends are read per group, `wavetableSends`).
    @_noLocks
    func prepareEffectsSlice() {
        let reverbOn = mix.effectControls.value(.reverbOn) >= 0.5
        let chorusOn = mix.effectControls.value(.chorusOn) >= 0.5
        let wasReverb = mix.effects.reverbOn, wasChorus = mix.effects.chorusOn
        if !reverbOn && wasReverb { mix.effects.reverb.clear() }
        if !chorusOn && wasChorus { mix.effects.chorus.clear() }
        mix.effects.reverbOn = reverbOn
        mix.effects.chorusOn = chorusOn
        var reverb = ReverbSettings()
        reverb.level = mix.effectControls.value(.reverbLevel)
        reverb.roomSize = mix.effectControls.value(.roomSize)
        reverb.damping = mix.effectControls.value(.damping)
        reverb.width = mix.effectControls.value(.width)
        reverb.character = Int(mix.effectControls.value(.reverbCharacter))
        reverb.preLowPass = Int(mix.effectControls.value(.reverbPreLowPass))
        reverb.predelay = mix.effectControls.value(.reverbPredelay)
        reverb.delayFeedback = mix.effectControls.value(.reverbDelayFeedback)
        if !reverb.same(as: mix.effects.reverb.applied) { mix.effects.reverb.apply(reverb) }
        var chorus = ChorusSettings()
        chorus.level = mix.effectControls.value(.chorusLevel)
        chorus.voices = Int(mix.effectControls.value(.chorusVoices) + 0.5)
        chorus.rate = mix.effectControls.value(.chorusRate)
        chorus.depth = mix.effectControls.value(.chorusDepth)
        chorus.feedback = mix.effectControls.value(.chorusFeedback)
        chorus.delay = mix.effectControls.value(.chorusDelay)
        chorus.sendToReverb = mix.effectControls.value(.chorusSendToReverb)
        if !chorus.same(as: mix.effects.chorus.applied) { mix.effects.chorus.apply(chorus) }
        mix.effects.sent = false
    }

    /// The sends of a group of built-in voices, lane by lane, and whether any is above 0.
    @_noLocks @inline(never)
    func wavetableSends(_ slots: UnsafeMutablePointer<Int32>, count: Int) -> (reverb: Lanes, chorus: Lanes, any: Bool) {
        var reverb = Lanes(), chorus = Lanes()
        let reverbOn = mix.effects.reverbOn, chorusOn = mix.effects.chorusOn
        guard reverbOn || chorusOn else { return (reverb, chorus, false) }
        for l in 0..<count {
            let patch = builtIn.patches.values[Int(builtIn.slots.patch[Int(slots[l])])] // the patch the note started with
            let controllers = controllerSends(channel: Int(voices.channel[Int(slots[l])]))
            let r = patch.reverbSend + controllers.reverb
            let c = patch.chorusSend + controllers.chorus
            reverb[l] = reverbOn ? min(max(r, 0), 1) : 0
            chorus[l] = chorusOn ? min(max(c, 0), 1) : 0
        }
        let any = laneSum(reverb) + laneSum(chorus) > 0
        return (reverb, chorus, any)
    }

    /// What channel `ch`'s CC91 and CC93 add to a built-in voice's sends (the default modulators' 20 % at full).
    @_noLocks @inline(__always)
    func controllerSends(channel ch: Int) -> (reverb: Float, chorus: Float) {
        SynthMix.controllerSends(controls.midi.controllers, channel: ch)
    }

    /// End of a slice: the buses run on the summed sends; their output is added into `left` and `right`
    /// (which hold nothing else yet). Skipped when nothing was sent and both buses are silent.
    @_noLocks
    func processEffects(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        let sent = mix.effects.sent
        let reverbSilent = mix.effects.reverb.isSilent, chorusSilent = mix.effects.chorus.isSilent
        if !sent && reverbSilent && chorusSilent { return }
        let reverbInput = mix.effects.reverbInput, chorusInput = mix.effects.chorusInput
        if sent {
            let rl = mix.effects.reverbLanes, cl = mix.effects.chorusLanes
            for n in 0..<frames {
                let r = rl[2 &* n] + rl[2 &* n &+ 1], c = cl[2 &* n] + cl[2 &* n &+ 1]
                reverbInput[n] = (r[0] + r[1]) + (r[2] + r[3])
                chorusInput[n] = (c[0] + c[1]) + (c[2] + c[3])
            }
        } else {
            reverbInput.update(repeating: 0, count: frames)
            chorusInput.update(repeating: 0, count: frames)
        }
        // The chorus first: it may send on to the reverb (GS's chorus send to reverb).
        let reverbOn = mix.effects.reverbOn, sendsOn = mix.effects.chorus.sendToReverb > 0
        var toReverb: UnsafeMutablePointer<Float>? = nil
        if reverbOn { if sendsOn { toReverb = reverbInput } }
        if mix.outputs.isOn { // the returns on ports of their own too (Synth+ChannelOutputs.swift)
            processEffectsSplit(left: left, right: right, frames: frames, reverbInput: reverbInput,
                                chorusInput: chorusInput, toReverb: toReverb)
            return
        }
        mix.effects.chorus.process(chorusInput, left: left, right: right, reverb: toReverb, frames: frames)
        mix.effects.reverb.process(reverbInput, left: left, right: right, frames: frames)
    }
}

/// What the effects' state holds, for tests and the long-silence bench row (off the real-time path: it reads
/// every sample of the delay memory).
public struct EffectStateCheck: Sendable, Equatable {
    /// Values in the state (delay lines, diffusers, filters, the chorus's LFO) that are NaN or infinite.
    public var nonFinite = 0
    /// Values that are subnormal (non-zero and below Float.leastNormalMagnitude): each costs a slow path.
    public var subnormal = 0
    /// Both buses have cleared their state (their silent periods are skipped).
    public var silent = true
    /// The chorus's LFO phasor stays on the unit circle (its radius minus 1).
    public var phasorError: Float = 0

    public var isClean: Bool { nonFinite == 0 && subnormal == 0 }
}

extension Synth {
    /// Every value of the reverb's and the chorus's state checked: NaN, infinities, subnormals. Call it from
    /// the thread that renders, between periods.
    public func checkEffectState() -> EffectStateCheck {
        var check = EffectStateCheck()
        func look(_ x: Float) {
            if !x.isFinite { check.nonFinite += 1 } else if x.isSubnormal { check.subnormal += 1 }
        }
        let total = mix.effects.reverb.memory.count
        let memory = mix.effects.reverb.memory.samples, lowPass = mix.effects.reverb.lowPass
        for i in 0..<total { look(memory[i]) }
        for i in 0..<8 { look(lowPass[i]) }
        let line = mix.effects.chorus.line.samples, length = mix.effects.chorus.line.count
        let c = mix.effects.chorus.cosine, s = mix.effects.chorus.sine
        for i in 0..<length { look(line[i]) }
        look(c); look(s)
        check.phasorError = abs((c * c + s * s).squareRoot() - 1)
        let reverbSilent = mix.effects.reverb.isSilent, chorusSilent = mix.effects.chorus.isSilent
        check.silent = reverbSilent && chorusSilent
        return check
    }
}

/// The buses' side of a slice that every kind of voice shares: clearing the send lanes at the first send,
/// a channel's controller sends, and folding a group rendered apart into the sums and the send lanes.
extension SynthMix {
    /// The first send of a slice clears the buses' lanes (the slices without one leave them as they were).
    @_noLocks @inline(__always)
    mutating func beginSends(frames: Int) {
        if effects.sent { return }
        effects.reverbLanes.update(repeating: .zero, count: 2 * frames)
        effects.chorusLanes.update(repeating: .zero, count: 2 * frames)
        effects.sent = true
    }

    /// What a channel's CC91 and CC93 (in `controllers`, 128 a channel) add to a voice's sends: the default
    /// modulators' 20 % at full.
    @_noLocks @inline(__always)
    static func controllerSends(_ controllers: UnsafeMutablePointer<UInt8>, channel ch: Int) -> (reverb: Float, chorus: Float) {
        let cc = controllers + ch * 128
        let share = controllerSendShare / 127
        return (share * Float(cc[Int(Controller.reverbSend.rawValue)]), share * Float(cc[Int(Controller.chorusSend.rawValue)]))
    }

    /// A group rendered into `effects.groupLeft/Right`: added into the lane sums (as rendering there would
    /// have) and, times each lane's sends, into the buses' lanes; the group buffers are left zeroed.
    @_noLocks @inline(never)
    mutating func foldGroup(frames: Int, reverb: Lanes, chorus: Lanes) {
        beginSends(frames: frames)
        let reverbLanes = effects.reverbLanes, chorusLanes = effects.chorusLanes
        let gl = effects.groupLeft, gr = effects.groupRight, sl = scratch.sumLeft, sr = scratch.sumRight
        let r0 = reverb.lowHalf * sendPanScale, r1 = reverb.highHalf * sendPanScale
        let c0 = chorus.lowHalf * sendPanScale, c1 = chorus.highHalf * sendPanScale
        for n in 0..<frames {
            let i = 2 &* n, j = 2 &* n &+ 1
            let l0 = gl[i], l1 = gl[j], q0 = gr[i], q1 = gr[j]
            sl[i] += l0; sl[j] += l1
            sr[i] += q0; sr[j] += q1
            let m0 = l0 + q0, m1 = l1 + q1
            reverbLanes[i] += m0 * r0; reverbLanes[j] += m1 * r1
            chorusLanes[i] += m0 * c0; chorusLanes[j] += m1 * c1
            gl[i] = .zero; gl[j] = .zero; gr[i] = .zero; gr[j] = .zero
        }
    }
}
