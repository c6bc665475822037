import MIDI

// The channel mixer's side of the synth (the workstation's mixer panel, live only): each channel's volume and
// pan offsets, a muted channel's voices silenced, and each channel's level for its meter.
extension Synth {
    /// The mixer's settings at a period's start: channels in `newlyMuted` are silenced (all sound off: their
    /// voices fade within milliseconds, pedals and held notes let go); `gains` (a gain on the channel's volume, 1
    /// none) and `pans` (-1 ... 1, added to its pan as half the range each way) are 16 values each, taken in
    /// through the channels' smoothed gains.
    @_noLocks
    public func applyMixer(newlyMuted: UInt16, gains: UnsafePointer<Float>, pans: UnsafePointer<Float>) {
        for ch in 0..<min(channelCount, 16) {
            if newlyMuted & (1 << UInt16(ch)) != 0 {
                handle(ShortMessage(status: 0xB0 | UInt8(ch), data1: Controller.allSoundOff.rawValue, data2: 0))
                handle(ShortMessage(status: 0xB0 | UInt8(ch), data1: Controller.sustain.rawValue, data2: 0))
            }
            controls.channels[ch].levels.mixerGain = gains[ch]
            controls.channels[ch].levels.mixerPan = pans[ch]
        }
    }

    /// Each channel's level now, 0 ... 1, into `levels` (16 values): its loudest sounding voice's envelope (and
    /// fade), times the channel's gain (volume, expression, pan, the mixer's offset). A meter's reading, not a
    /// sample peak: the voices of all channels are summed together before any output.
    @_noLocks
    public func channelLevels(into levels: UnsafeMutablePointer<Float>) {
        for ch in 0..<16 { levels[ch] = 0 }
        let stages = voices.stage, envelopes = voices.envelope, fades = voices.fade, channels = voices.channel
        for v in 0..<allocator.slotLimit where stages[v] != Stage.free {
            let ch = Int(channels[v] & 0x0F)
            let level = envelopes[v] * fades[v]
            if level > levels[ch] { levels[ch] = level }
        }
        for ch in 0..<min(channelCount, 16) {
            let gains = controls.channels[ch].levels
            levels[ch] *= gains.gainLeft > gains.gainRight ? gains.gainLeft : gains.gainRight
        }
    }
}
