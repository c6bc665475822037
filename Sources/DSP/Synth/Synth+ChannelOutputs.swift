// The per-channel outputs' side of the synth (ChannelOutputs.swift): turning them on, the split fold of a group
// of voices into its channels' rows, and what the engine reads after rendering a period.

extension Synth {
    /// Rows of `channelOutput(_:)`: channel ch's (0...15) left `2 ch` and right `2 ch + 1`, the reverb's return
    /// 32 (left) and 33, the chorus's 34 and 35.
    public static var channelOutputCount: Int { ChannelOutputs.bufferCount }

    /// Whether the synth renders per-channel outputs (`setChannelOutputs`).
    public var rendersChannelOutputs: Bool { mix.outputs.isOn }

    /// Turns the per-channel outputs on or off; their buffers are allocated now (and again by `prepare`) or
    /// freed. Not real-time safe: call it before rendering starts. Off by default: the main output alone.
    public func setChannelOutputs(_ on: Bool) {
        mix.outputs = on ? ChannelOutputs(frames: max(rates.maxFrames, 1)) : ChannelOutputs()
    }

    /// A period's start: the next `render` writes the per-channel outputs from their first sample on.
    @_noLocks
    public func startChannelOutputs() { mix.outputs.cursor = 0 }

    /// Frames of per-channel output the `render` calls since `startChannelOutputs` wrote (0 when off; fewer
    /// than were rendered when a period was longer than `ChannelOutputs.periodLimit`).
    public var channelOutputFrames: Int { @_noLocks get { mix.outputs.isOn ? mix.outputs.cursor : 0 } }

    /// Row `row` (`channelOutputCount` rows) of the per-channel outputs from the period's start, after the
    /// master gain: `channelOutputFrames` samples. nil when they are off.
    @_noLocks
    public func channelOutput(_ row: Int) -> UnsafePointer<Float>? {
        guard mix.outputs.isOn, row >= 0, row < ChannelOutputs.bufferCount else { return nil }
        return UnsafePointer(mix.outputs.base + row &* mix.outputs.capacity)
    }

    /// A group rendered into the group buffers with the per-channel outputs on: lane l (of `count`, the voice
    /// in `slots[l]`) added into its voice's channel rows, then folded into the lane sums as ever (and into the
    /// send buses when it `sends`): the main output is what it is with the outputs off.
    @_noLocks @inline(never)
    func foldSplit(_ slots: SIMD8<Int32>, count: Int, frames: Int, reverb: Lanes, chorus: Lanes, sends: Bool) {
        let gl = mix.effects.groupLeft, gr = mix.effects.groupRight, channels = voices.channel
        for l in 0..<min(count, 8) {
            let ch = Int(channels[Int(slots[l])] & 0x0F)
            let left = mix.outputs.at(2 &* ch), right = mix.outputs.at(2 &* ch &+ 1)
            let half = l >> 2, k = l & 3
            for n in 0..<frames {
                left[n] += gl[2 &* n &+ half][k]
                right[n] += gr[2 &* n &+ half][k]
            }
        }
        if sends {
            mix.foldGroup(frames: frames, reverb: reverb, chorus: chorus)
        } else {
            mix.foldDry(frames: frames)
        }
    }

    /// `foldSplit` for a group whose slots are in a list.
    @_noLocks @inline(__always)
    func foldSplit(_ slots: UnsafeMutablePointer<Int32>, count: Int, frames: Int, reverb: Lanes, chorus: Lanes, sends: Bool) {
        var lanes = SIMD8<Int32>(repeating: 0)
        for l in 0..<min(count, 8) { lanes[l] = slots[l] }
        foldSplit(lanes, count: count, frames: frames, reverb: reverb, chorus: chorus, sends: sends)
    }

    /// The send buses' returns at the end of a slice with the per-channel outputs on: the chorus and the
    /// reverb each into their rows, then both into `left`/`right` (which hold nothing else yet), the same
    /// additions in the same order as `processEffects` makes into them directly.
    @_noLocks
    func processEffectsSplit(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int,
                             reverbInput: UnsafeMutablePointer<Float>, chorusInput: UnsafeMutablePointer<Float>,
                             toReverb: UnsafeMutablePointer<Float>?) {
        let reverbLeft = mix.outputs.at(ChannelOutputs.reverbRow), reverbRight = mix.outputs.at(ChannelOutputs.reverbRow &+ 1)
        let chorusLeft = mix.outputs.at(ChannelOutputs.chorusRow), chorusRight = mix.outputs.at(ChannelOutputs.chorusRow &+ 1)
        mix.effects.chorus.process(chorusInput, left: chorusLeft, right: chorusRight, reverb: toReverb, frames: frames)
        mix.effects.reverb.process(reverbInput, left: reverbLeft, right: reverbRight, frames: frames)
        for n in 0..<frames {
            left[n] += chorusLeft[n]
            right[n] += chorusRight[n]
            left[n] += reverbLeft[n]
            right[n] += reverbRight[n]
        }
    }
}

extension SynthMix {
    /// A group rendered into `effects.groupLeft/Right` that sends nothing: added into the lane sums (as
    /// rendering there would have); the group buffers are left zeroed.
    @_noLocks @inline(never)
    mutating func foldDry(frames: Int) {
        let gl = effects.groupLeft, gr = effects.groupRight, sl = scratch.sumLeft, sr = scratch.sumRight
        for i in 0..<(2 &* frames) {
            sl[i] += gl[i]
            sr[i] += gr[i]
            gl[i] = .zero
            gr[i] = .zero
        }
    }
}
