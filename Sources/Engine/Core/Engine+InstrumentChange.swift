import DSP

// A live change of instrument on one channel (the workstation's preset browser; docs/sfz.md, "Changing
// instrument live"): the caller loads the instrument off the real-time thread, the synth takes it between two
// periods (Synth+FontChange.swift), every other channel playing on.

extension Engine {
    /// The font the synth plays, stack and pins included (nil: the built-in synth alone).
    public var playingFont: SoundFont? { synth.soundFont }

    /// Puts `instrument` (its presets in banks above the playing font's, `SoundFont.nextInstrumentBank`; `keys`
    /// the preset key each channel plays of it) on `channel` (0...15): the change the synth takes at its next
    /// period, or why it cannot (an engine not made for live changes, another change under way, a full stack).
    /// `path` is remembered for the session (`liveInstruments`).
    public func changeInstrument(_ instrument: SoundFont, keys: [Int32], channel: UInt8, path: String) -> Result<FontChange, InstrumentChangeRefusal> {
        guard options.liveInstrumentChanges else { return .failure(.notLive) }
        guard let made = SoundFont.changingInstrument(of: synth.soundFont, to: instrument, keys: keys, channel: Int(channel)) else {
            return .failure(.full)
        }
        guard let change = synth.changeFont(to: made.font, channel: Int(channel), ending: made.ending) else { return .failure(.busy) }
        streamLoader?.serve(made.font, keeping: true) // a streamed instrument's rests are read from its first note
        liveChanges.withLock { $0.append((Int(channel) + 1, path)) }
        return .success(change)
    }

    /// The instruments changed live, in order: channel (1...16) and file, for what a session saves.
    public func liveInstruments() -> [(channel: Int, path: String)] { liveChanges.withLock { $0 } }

    /// Once the synth has taken `change` (`FontChange.isApplied`): the old font is let go here. False before.
    public func finishInstrumentChange(_ change: FontChange) -> Bool {
        guard synth.finishFontChange(change) else { return false }
        streamLoader?.serve(change.font, keeping: false) // the let-go instrument's store is served no more
        return true
    }
}

/// Why an instrument cannot be changed now.
public enum InstrumentChangeRefusal: Error, CustomStringConvertible {
    case notLive, busy, full
    public var description: String {
        switch self {
        case .notLive: "this engine was not started for live instrument changes"
        case .busy: "another instrument is being changed"
        case .full: "\(SoundFont.maxLayers) fonts and instruments loaded in this run, the most a stack holds: restart Backbeat to load more"
        }
    }
}
