import DSP
import Engine
import Foundation
import SFZ
import Synchronization

// The preset browser's SFZ instruments (docs/sfz.md, "Changing instrument live"): the `.sfz` files of
// `instrument_dir`, listed after the font's presets; the chosen one is read on a thread of its own (the screen
// and the audio go on), put on the keyboard's channel by the synth between two periods, and the old one let go.

/// One instrument being loaded for a channel, then handed to the synth.
final class InstrumentLoad: @unchecked Sendable {
    let path: String
    let channel: UInt8
    let started = ContinuousClock.now
    /// The loader thread's result: the instrument and what to say of it, or why it cannot play.
    let result = Mutex<Result<LoadedInstrument, InstrumentLoadFailure>?>(nil)
    /// Once handed to the synth: the change it takes at its next period.
    var change: FontChange?

    init(path: String, channel: UInt8) {
        self.path = path
        self.channel = channel
    }

    /// `$XDG_DATA_HOME/backbeat/instruments`, `~/.local/share/backbeat/instruments` without it.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return data + "/backbeat/instruments"
    }

    /// The `.sfz` files in `directory` (not its subfolders), sorted by name; none when it cannot be read.
    static func files(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.lowercased().hasSuffix(".sfz") }.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }
}

struct InstrumentLoadFailure: Error { let message: String }

/// A loaded instrument and the warnings to say of it, handed from the loader thread to the workstation's (the
/// font is not touched by the loader after this).
struct LoadedInstrument: @unchecked Sendable {
    let font: SFZSoundFont
    let notes: [String]
}

extension Workstation {
    /// The browser's entries for the `.sfz` files of `instrumentDirectory`.
    func instrumentEntries() -> [PresetEntry] {
        InstrumentLoad.files(in: instrumentDirectory).enumerated().map { i, name in
            PresetEntry(index: -1 - i, bank: -1, program: -1, name: name, file: instrumentDirectory + "/" + name)
        }
    }

    /// Starts reading `path` for `channel` on a thread of its own; one load at a time.
    func loadInstrument(_ path: String, channel: UInt8) {
        guard instrumentLoad == nil else { say("an instrument is being loaded; wait for it"); return }
        let name = (path as NSString).lastPathComponent
        let bank = (engine.playingFont?.nextInstrumentBank(from: SFZInstrument.firstBank)) ?? SFZInstrument.firstBank
        let load = InstrumentLoad(path: path, channel: channel)
        let cache = instrumentCacheBytes
        instrumentLoad = load
        say("loading \(name) for channel \(channel + 1)...")
        let thread = Thread {
            let outcome: Result<LoadedInstrument, InstrumentLoadFailure>
            do {
                let instrument = try SFZInstrument.load(path: path)
                var notes = instrument.diagnostics.map { "warning: \($0)" }
                if !instrument.unknownOpcodes.isEmpty {
                    notes.append("warning: '\(name)': opcodes Backbeat does not know: "
                        + instrument.unknownOpcodes.map { "\($0.name) (\($0.count))" }.joined(separator: ", "))
                }
                // Bigger than the sample cache: streamed from disk, as at start (the engine serves its store).
                let font = try instrument.soundFont(bank: bank, sampleCacheBytes: cache)
                notes += font.notes.map { "warning: '\(name)': approximated: \($0)" }
                outcome = .success(LoadedInstrument(font: font, notes: notes))
            } catch {
                outcome = .failure(InstrumentLoadFailure(message: "\(error)"))
            }
            load.result.withLock { $0 = outcome }
        }
        thread.name = "backbeat-instrument"
        thread.start()
    }

    /// From `tick`: a finished load is handed to the synth; a change the synth has taken is finished and said.
    func advanceInstrumentLoad() {
        guard let load = instrumentLoad else { return }
        let name = (load.path as NSString).lastPathComponent
        if let change = load.change {
            guard engine.finishInstrumentChange(change) else { return }
            instrumentLoad = nil
            let seconds = Double((ContinuousClock.now - load.started).components.attoseconds) * 1e-18
                + Double((ContinuousClock.now - load.started).components.seconds)
            let top = change.font.stack.last
            let bytes = top.map { $0.sampleData.count * 2 + ($0.sampleLowBytes?.count ?? 0) } ?? 0
            let streamed = top?.sampleStream.map { String(format: ", streamed from disk, %.1f MB in memory", Double($0.status.residentBytes) / 1_048_576) } ?? ""
            say(String(format: "channel %d: instrument %@ (%.1f MB of samples%@, loaded in %.2f s)", Int(load.channel) + 1, name,
                       Double(bytes) / 1_048_576, streamed, seconds))
            synthView = engine.synthView(channel: keyboard.channel)
            return
        }
        guard let result = load.result.withLock({ $0 }) else { return }
        switch result {
        case .failure(let failure):
            instrumentLoad = nil
            say("instrument not loaded: \(failure.message)")
        case .success(let loaded):
            for note in loaded.notes { say(note) }
            switch engine.changeInstrument(loaded.font.font, keys: loaded.font.channelPresetKeys, channel: load.channel, path: load.path) {
            case .success(let change): load.change = change
            case .failure(let refusal):
                instrumentLoad = nil
                say("instrument \(name) not loaded: \(refusal)")
            }
        }
    }
}
