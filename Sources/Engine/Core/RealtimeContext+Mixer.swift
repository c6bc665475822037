import DSP
import Realtime
import Synchronization

/// The channel mixer between the UI and the real-time callback (live only; an offline render has none): the
/// muted channels (mute and solo folded into one mask), each channel's volume and pan offsets, written by the UI;
/// each channel's level, written by the callback. Atomics only: no lock on either side.
final class ChannelMixer: @unchecked Sendable {
    /// Channels whose notes the synth does not get (bit n: channel n).
    let muted = Atomic<UInt16>(0)
    /// Float bits: a gain on each channel's volume (1: none), a pan offset (-1 ... 1).
    let gains: InlineArray<16, Atomic<UInt32>>
    let pans: InlineArray<16, Atomic<UInt32>>
    /// Float bits: each channel's level (`Synth.channelLevels`), the highest since the UI last took it.
    let levels: InlineArray<16, Atomic<UInt32>>
    /// Real-time thread only: the mask applied last, and room for 16 gains, 16 pans and 16 levels.
    @exclusivity(unchecked) private var applied: UInt16 = 0
    private let scratch = FixedArray<Float>(48, 0)
    /// The settings as the user set them, for a session save (never touched by the real-time thread).
    let settings = Mutex(ChannelMixerSettings())

    init() {
        gains = InlineArray { _ in Atomic(Float(1).bitPattern) }
        pans = InlineArray { _ in Atomic(Float(0).bitPattern) }
        levels = InlineArray { _ in Atomic(0) }
    }

    /// At a period's start: the settings into the synth, a channel muted since the last period silenced at
    /// this frame (`Synth.applyMixer`). Returns the muted channels, whose note-ons `deliver` then keeps from it.
    @_noLocks
    func apply(to synth: Unmanaged<Synth>) -> UInt16 {
        let mask = muted.load(ordering: .relaxed)
        let newly = mask & ~applied
        applied = mask
        let g = scratch.baseAddress, p = scratch.baseAddress + 16
        for ch in 0..<16 {
            g[ch] = Float(bitPattern: gains[ch].load(ordering: .relaxed))
            p[ch] = Float(bitPattern: pans[ch].load(ordering: .relaxed))
        }
        synth._withUnsafeGuaranteedRef { $0.applyMixer(newlyMuted: newly, gains: g, pans: p) }
        return mask
    }

    /// After a period: each channel's level, kept when higher than what the UI has not taken yet.
    @_noLocks
    func measure(_ synth: Unmanaged<Synth>) {
        let l = scratch.baseAddress + 32
        synth._withUnsafeGuaranteedRef { $0.channelLevels(into: l) }
        for ch in 0..<16 where l[ch] > Float(bitPattern: levels[ch].load(ordering: .relaxed)) {
            levels[ch].store(l[ch].bitPattern, ordering: .relaxed)
        }
    }
}

extension Engine {
    /// The channel mixer's settings, heard from the next period (`setChannelMixer(muted:gains:pans:)`), and
    /// kept for `channelMixerSettings()`. Any thread.
    public func setChannelMixer(_ settings: ChannelMixerSettings) {
        context.mixer.settings.withLock { $0 = settings }
        setChannelMixer(muted: settings.silenced, gains: settings.gains, pans: settings.pans)
    }

    /// The settings set last with `setChannelMixer(_:)` (none muted or offset at start). Any thread.
    public func channelMixerSettings() -> ChannelMixerSettings {
        context.mixer.settings.withLock { $0 }
    }

    /// The channel mixer's settings, heard from the next period: `muted` channels (bit n: channel n) silenced
    /// and their notes kept from the synth, `gains` on each channel's volume (1: none) and `pans` offsets
    /// (-1 ... 1), 16 of each (missing ones: none). Any thread.
    public func setChannelMixer(muted: UInt16, gains: [Float], pans: [Float]) {
        let mixer = context.mixer
        mixer.muted.store(muted, ordering: .relaxed)
        for ch in 0..<16 {
            mixer.gains[ch].store((ch < gains.count ? gains[ch] : 1).bitPattern, ordering: .relaxed)
            mixer.pans[ch].store((ch < pans.count ? min(max(pans[ch], -1), 1) : 0).bitPattern, ordering: .relaxed)
        }
    }

    /// Each channel's highest level (0 ... 1) since the last call (`Synth.channelLevels`). Any one thread.
    public func takeChannelLevels() -> [Float] {
        (0..<16).map { Float(bitPattern: context.mixer.levels[$0].exchange(0, ordering: .relaxed)) }
    }
}
