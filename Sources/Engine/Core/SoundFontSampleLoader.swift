import DSP
import MIDI
import Foundation
import Realtime

/// Live playing with a SoundFont 3 font: a loader thread that decodes, ahead of the notes, the samples of the
/// presets selected on the 16 channels. It starts with the presets the channels start with, then watches the
/// channels' preset selection (`Synth.preset(onChannel:)`, atomics the real-time thread publishes) and decodes
/// a preset's samples as soon as a program change or bank select chooses it. The real-time thread never
/// waits for it: a note whose sample is not decoded does not sound and is counted; the loader reports such
/// notes in one line per burst and cause (not decoded yet, did not fit in the cache, a stream that does not
/// decode). The presets selected now are never evicted from the cache. A sample whose stream does not decode
/// is named once and left out; every other sample decodes.
public final class SoundFontSampleLoader: @unchecked Sendable {
    private let synth: Synth
    /// The SoundFont 3 fonts' caches (a stack's layers each have their own).
    private let stores: [SoundFontSampleStore]
    private let log: @Sendable (String) -> Void
    private let thread = LoaderThread(name: "backbeat-sf3-loader")

    /// A loader for `synth`'s font, or nil when it has no SoundFont 3 font, alone or in its stack (nothing to
    /// decode).
    public init?(synth: Synth, log: @escaping @Sendable (String) -> Void) {
        guard let font = synth.soundFont, !font.sampleStores.isEmpty else { return nil }
        self.synth = synth
        self.stores = font.sampleStores
        self.log = log
    }

    /// Starts the thread (once).
    public func start() { thread.start { [self] in run() } }

    /// Stops the thread and waits for it (it finishes the sample it is decoding). Idempotent.
    public func stop() { thread.stop() }

    private func run() {
        var loaded: [Int?] = Array(repeating: -2, count: 16)
        // The missed voices reported so far, by cause; the broken samples named so far.
        var reported = (notDecoded: 0, overLimit: 0, broken: 0)
        var named = Set<String>()
        var first = true
        while !thread.stopping {
            let selected = (0 ..< 16).map { synth.preset(onChannel: $0) }
            // The synth's font now: a live change of instrument gives it another stack (the same layers and
            // indices, an instrument added), and the one let go must not be kept alive here.
            if selected != loaded, let font = synth.soundFont {
                // Every sample of every preset selected now: what the next note on any channel may need.
                let presets = Set(selected.compactMap { $0 })
                var samples = Set<Int>()
                for p in presets { samples.formUnion(font.samples(ofPreset: p)) }
                // A stack: each font's cache decodes its own samples.
                for (owner, indices) in font.samplesByFont(samples) {
                    for failure in owner.sampleStore?.decode(indices) ?? [] where named.insert(failure.description).inserted {
                        log("SoundFont 3: \(failure); its notes will not sound")
                    }
                }
                if first && !presets.isEmpty {
                    let decoded = stores.reduce(0) { $0 + $1.status.decodedSamples }
                    let bytes = stores.reduce(0) { $0 + $1.status.decodedBytes }
                    let broken = named.isEmpty ? "" : " (\(named.count) left out: their streams do not decode)"
                    log("SoundFont 3: decoded \(decoded) samples (\(bytes >> 20) MiB) for the channels' presets" + broken)
                    first = false
                }
                loaded = selected
            }
            let statuses = stores.map(\.status)
            let notDecoded = statuses.reduce(0) { $0 + $1.missedNotDecoded }
            if notDecoded > reported.notDecoded {
                log("SoundFont 3: \(counted(notDecoded - reported.notDecoded, "voice")) did not sound: their samples were not decoded yet")
                reported.notDecoded = notDecoded
            }
            let overLimit = statuses.reduce(0) { $0 + $1.missedOverLimit }
            if overLimit > reported.overLimit {
                let limit = statuses.map(\.limitBytes).max() ?? 0
                log("SoundFont 3: \(counted(overLimit - reported.overLimit, "voice")) did not sound: their samples did not fit in the sample cache (--sample-cache \(limit >> 20) MiB)")
                reported.overLimit = overLimit
            }
            let broken = statuses.reduce(0) { $0 + $1.missedBroken }
            if broken > reported.broken {
                let names = stores.flatMap(\.brokenSamples)
                let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? " and \(names.count - 3) more" : "")
                log("SoundFont 3: \(counted(broken - reported.broken, "voice")) did not sound: their samples' Ogg Vorbis streams do not decode (\(shown))")
                reported.broken = broken
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }
}
