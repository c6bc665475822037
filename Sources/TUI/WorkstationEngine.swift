import DSP
import Engine
import Foundation
import MIDI
import Settings

/// What the workstation needs from the engine: a protocol so the panels and key handling run in tests
/// without JACK.
public protocol WorkstationEngine: LifecycleGateTarget {
    func status() -> EngineStatus
    func drainEvents(_ body: (EngineEvent) -> Void)
    func takeSysex(count: Int) -> [UInt8]
    func synthView() -> SynthView
    /// `synthView()` with, when the synth plays a SoundFont, the preset of `channel` (0...15).
    func synthView(channel: UInt8) -> SynthView
    /// With a SoundFont: moves `channel` (0...15) to the font's next (`steps` > 0) or previous preset and
    /// returns the status line's message; nil without a font (the caller changes the built-in patch).
    func stepPreset(by steps: Int, channel: UInt8) -> String?
    /// With a SoundFont: the preset a program change selects on `channel` with `bank` ("bank:program name",
    /// as the synth's fallbacks find it); nil without a font (the built-in patches).
    func programName(_ program: UInt8, bank: Int, channel: UInt8) -> String?
    /// With a SoundFont: its presets, for the browser; empty without a font.
    func presetEntries() -> [PresetEntry]
    /// With a SoundFont: plays preset `index` (into the font's presets) on `channel`; the status line's message.
    func choosePreset(_ index: Int, channel: UInt8) -> String?
    /// With a SoundFont: the preset playing on `channel` (index into its presets).
    func currentPreset(channel: UInt8) -> Int?
    /// With a SoundFont: a line for each channel that first played another preset than its bank and program
    /// (no font has them: the GS fallback), once per channel; empty otherwise.
    func takePresetSubstitutions() -> [String]
    /// Sets a send effect setting of the running synth (`Synth.setEffect`: an atomic store, applied by the
    /// real-time thread at its next slice; no lock, no ring).
    func setEffect(_ parameter: EffectParameter, _ value: Float)
    /// Sets the sample voices' interpolation of the running synth (`Synth.setInterpolation`: an atomic store,
    /// taken by the real-time thread at its next slice).
    func setInterpolation(_ mode: SampleInterpolation)
    /// The MIDI channel the synth answers (nil: omni).
    var synthChannel: UInt8? { get }
    /// With a SoundFont, the preset channel `channel` plays now ("bank:program name"); nil without a font.
    func channelPresetName(_ channel: UInt8) -> String?
    /// The channel mixer (`Engine.setChannelMixer`, `Engine.channelMixerSettings`, `Engine.takeChannelLevels`).
    func setChannelMixer(_ settings: ChannelMixerSettings)
    func channelMixerSettings() -> ChannelMixerSettings
    func takeChannelLevels() -> [Float]
    /// A live change of instrument (`Engine.changeInstrument`): the font playing, the change asked for, and
    /// its end once the synth has taken it. By default (tests' engines) none can be made.
    var playingFont: SoundFont? { get }
    func changeInstrument(_ instrument: SoundFont, keys: [Int32], channel: UInt8, path: String) -> Result<FontChange, InstrumentChangeRefusal>
    func finishInstrumentChange(_ change: FontChange) -> Bool
}

extension WorkstationEngine {
    public var playingFont: SoundFont? { nil }
    public func changeInstrument(_ instrument: SoundFont, keys: [Int32], channel: UInt8, path: String) -> Result<FontChange, InstrumentChangeRefusal> {
        .failure(.notLive)
    }
    public func finishInstrumentChange(_ change: FontChange) -> Bool { false }
    public func synthView(channel: UInt8) -> SynthView { synthView() }
    public func stepPreset(by steps: Int, channel: UInt8) -> String? { nil }
    public func programName(_ program: UInt8, bank: Int, channel: UInt8) -> String? { nil }
    public func presetEntries() -> [PresetEntry] { [] }
    public func choosePreset(_ index: Int, channel: UInt8) -> String? { nil }
    public func currentPreset(channel: UInt8) -> Int? { nil }
    public func takePresetSubstitutions() -> [String] { [] }
    public func setEffect(_ parameter: EffectParameter, _ value: Float) {}
    public func setInterpolation(_ mode: SampleInterpolation) {}
    public func channelPresetName(_ channel: UInt8) -> String? { nil }
    public func setChannelMixer(_ settings: ChannelMixerSettings) {}
    public func channelMixerSettings() -> ChannelMixerSettings { ChannelMixerSettings() }
    public func takeChannelLevels() -> [Float] { [Float](repeating: 0, count: 16) }
}

extension Engine: WorkstationEngine {
    public func synthView(channel: UInt8) -> SynthView {
        var view = synthView()
        guard let font = synth.soundFont else { return view }
        view.soundFont = font.displayName
        let preset = synth.preset(onChannel: Int(channel))
        view.preset = preset.map { font.presetLabel($0) }
        // A stack: which font the preset came from.
        if let preset, !font.layers.isEmpty { view.presetFont = font.source(ofPreset: preset).fileName }
        return view
    }

    public func takePresetSubstitutions() -> [String] {
        synth.takePresetSubstitutions().map { $0.message(synth.soundFont) }
    }

    public func stepPreset(by steps: Int, channel: UInt8) -> String? {
        guard let font = synth.soundFont else { return nil }
        let count = font.presets.count
        guard count > 0 else { return "the SoundFont has no presets" }
        let current = synth.preset(onChannel: Int(channel)) ?? (steps > 0 ? -1 : 0)
        var next = ((current + steps) % count + count) % count
        // An instrument a live change let go (no samples left) is stepped over.
        for _ in 0..<count where font.source(ofPreset: next).isHollow { next = ((next + (steps < 0 ? -1 : 1)) % count + count) % count }
        select(next, font: font, channel: channel)
        let source = font.layers.isEmpty ? "" : " (\(font.source(ofPreset: next).fileName))"
        return "channel \(channel + 1): preset \(font.presetLabel(next))\(source)"
    }

    public func channelPresetName(_ channel: UInt8) -> String? {
        guard let font = synth.soundFont else { return nil }
        return synth.preset(onChannel: Int(channel)).map { font.presetLabel($0) } ?? "(no preset)"
    }

    public func programName(_ program: UInt8, bank: Int, channel: UInt8) -> String? {
        guard let font = synth.soundFont else { return nil }
        guard let index = font.preferredPreset(bank: bank, program: Int(program), percussion: channel == 9) else {
            return "(no preset in the font)"
        }
        return font.presetLabel(index)
    }

    public func presetEntries() -> [PresetEntry] {
        guard let font = synth.soundFont else { return [] }
        // An instrument a live change let go stays in the stack without its samples: not offered.
        return font.presets.enumerated().filter { !font.source(ofPreset: $0.offset).isHollow }
            .map { PresetEntry(index: $0, bank: Int($1.bank), program: Int($1.program), name: $1.name) }
    }

    public func choosePreset(_ index: Int, channel: UInt8) -> String? {
        guard let font = synth.soundFont, font.presets.indices.contains(index) else { return nil }
        select(index, font: font, channel: channel)
        return "channel \(channel + 1): preset \(font.presetLabel(index))"
    }

    /// Plays preset `index` on `channel` as MIDI would: its bank select and program change go through the
    /// keyboard ring, like a built-in patch change, so the monitor shows them and a take keeps them. The
    /// request beside them makes `preset(onChannel:)` answer at once (a second key press steps on from it)
    /// and covers the presets no bank select reaches (`Self.selection` is nil).
    func select(_ index: Int, font: SoundFont, channel: UInt8) {
        synth.requestPreset(index, onChannel: Int(channel))
        for m in Self.selection(of: index, in: font, channel: channel) ?? [] { _ = keyboardRing.push(.midi(m, .keyboard)) }
    }

    /// The bank select (CC 0) and program change that make `channel` play preset `index` (General MIDI's drum
    /// channel 10 assumed for drum banks), checked against the synth's own lookup; nil when none does.
    static func selection(of index: Int, in font: SoundFont, channel: UInt8) -> [ShortMessage]? {
        guard font.presets.indices.contains(index) else { return nil }
        let bank = Int(font.presets[index].bank), program = Int(font.presets[index].program)
        let drumChannel = channel == 9
        // (CC 0 value, the bank the synth then looks in, percussion): Synth.selectFontPreset's rules.
        var candidates: [(Int, Int, Bool)] = []
        if drumChannel {
            if bank >= 128 && bank - 128 < 120 { candidates.append((bank - 128, bank - 128, true)) }
            if bank == 0 { candidates.append((121, 0, false)) }
        } else {
            if bank < 120 { candidates.append((bank, bank, false)) }
            if bank == 128 { candidates.append((127, 0, true)) }
        }
        for (cc, lookBank, percussion) in candidates where font.preferredPreset(bank: lookBank, program: program, percussion: percussion) == index {
            return [ShortMessage.controlChange(.bankSelect, value: UInt8(cc), channel: channel),
                    ShortMessage.programChange(UInt8(program), channel: channel)]
        }
        return nil
    }

    public func currentPreset(channel: UInt8) -> Int? { synth.soundFont == nil ? nil : synth.preset(onChannel: Int(channel)) }

    public func setEffect(_ parameter: EffectParameter, _ value: Float) { synth.setEffect(parameter, value) }
    public func setInterpolation(_ mode: SampleInterpolation) { synth.setInterpolation(mode) }
    public var synthChannel: UInt8? { synth.channel }
}

/// The keys that start and stop what other parts of Backbeat own (demo sequencer, MIDI and audio capture),
/// and the capture's side of the event stream. Each toggle returns the status line's message.
public protocol WorkstationActions: AnyObject {
    func toggleDemo() -> String
    func toggleMIDIRecording() -> String
    func toggleAudioRecording() -> String
    /// MIDI and audio together, one take name for both (`R`): starts both, or stops whatever records.
    func toggleTake() -> String
    /// Whether the demo sequencer plays now.
    var demoPlaying: Bool { get }
    /// Every MIDI event the workstation drained from the engine (it is the only consumer), with its whole
    /// message (a sysex with its payload).
    func record(_ event: MonitorEvent, message: MIDIMessage?)
    /// What is being recorded, for the header.
    func recordings() -> [Recording]
    /// A transport key for the song player (`backbeat play`); what the status line says.
    func transport(_ request: SongPlayer.Transport) -> String
    /// The song player of `backbeat play` (nil: no song plays).
    var songPlayer: SongPlayer? { get }
}

extension WorkstationActions {
    public func toggleTake() -> String { [toggleMIDIRecording(), toggleAudioRecording()].joined(separator: "; ") }
    /// The song player's transport keys, where no song plays.
    public func transport(_ request: SongPlayer.Transport) -> String { SessionActions.noSong }
    public var songPlayer: SongPlayer? { nil }
}

/// One recording in progress, as the header shows it.
public struct Recording: Equatable, Sendable {
    /// "MIDI" or "audio".
    public var kind: String
    public var path: String
    public var seconds: Double
    /// Set when writing failed: what was captured so far is kept, the recording has stopped growing.
    public var failure: String?
    public init(kind: String, path: String, seconds: Double, failure: String? = nil) {
        self.kind = kind; self.path = path; self.seconds = seconds; self.failure = failure
    }
}

/// Without an engine to act on (tests): every action says so.
public final class UnavailableActions: WorkstationActions {
    public init() {}
    public func toggleDemo() -> String { "demo sequencer: not available" }
    public func toggleMIDIRecording() -> String { "MIDI recording: not available" }
    public func toggleAudioRecording() -> String { "audio recording: not available" }
    public func toggleTake() -> String { "recording: not available" }
    public var demoPlaying: Bool { false }
    public func record(_ event: MonitorEvent, message: MIDIMessage?) {}
    public func recordings() -> [Recording] { [] }
}

/// The real actions: `Engine.demo` and a `CaptureController`; keys record to time-stamped files in the
/// current directory.
public final class SessionActions: WorkstationActions {
    public let engine: Engine
    public let capture: CaptureController
    /// The song player of `backbeat play`, which the transport keys drive.
    public var player: SongPlayer?
    public var songPlayer: SongPlayer? { player }
    private let directory: String

    public init(engine: Engine, capture: CaptureController, directory: String = FileManager.default.currentDirectoryPath) {
        self.engine = engine
        self.capture = capture
        self.directory = directory
    }

    public var demoPlaying: Bool { engine.demo.isPlaying }

    public func toggleDemo() -> String {
        if engine.demo.isPlaying {
            engine.demo.stop()
            return "demo sequencer stopped"
        }
        engine.demo.start()
        return "demo sequencer playing (\(Int(engine.demo.bpm)) BPM, MIDI clock on)"
    }

    public func toggleMIDIRecording() -> String {
        if capture.isRecordingMIDI {
            do { return try capture.stopMIDIRecording()?.message ?? "not recording MIDI" } catch { return error.description }
        }
        return startMIDI(to: takePath("mid", sharing: capture.status().audio?.path))
    }

    public func toggleAudioRecording() -> String {
        if capture.isRecordingAudio { return capture.stopAudioRecording()?.message ?? "not recording audio" }
        return startAudio(to: takePath("wav", sharing: capture.status().midi?.path))
    }

    public func toggleTake() -> String {
        if capture.isRecordingMIDI || capture.isRecordingAudio {
            var said: [String] = []
            if capture.isRecordingMIDI { said.append(toggleMIDIRecording()) }
            if capture.isRecordingAudio { said.append(toggleAudioRecording()) }
            return said.joined(separator: "; ")
        }
        let stem = SessionActions.takeStem(directory: directory)
        let midi = startMIDI(to: stem + ".mid")
        guard capture.isRecordingMIDI else { return midi }
        let audio = startAudio(to: stem + ".wav")
        guard capture.isRecordingAudio else { return audio }
        return "recording MIDI and audio to \(stem).mid/.wav (R stops and saves both)"
    }

    private func startMIDI(to path: String) -> String {
        do { try capture.startMIDIRecording(to: path) } catch { return "cannot record MIDI: \(error.description)" }
        return "recording MIDI to \(path) (M stops and saves)"
    }

    private func startAudio(to path: String) -> String {
        do { try capture.startAudioRecording(to: path) } catch { return "cannot record audio: \(error.description)" }
        return "recording audio to \(path) (A stops and saves)"
    }

    /// A take's file: the stem of the other kind's take in progress when there is one (a MIDI and an audio
    /// take started together share their name), else a new time-stamped one.
    func takePath(_ ext: String, sharing other: String?) -> String {
        if let other { return SessionActions.stem(of: other) + "." + ext }
        return SessionActions.takeStem(directory: directory) + "." + ext
    }

    /// "DIR/backbeat-YYYYMMDD-HHMMSS" for now, or with "-2", "-3"... when a take of that second already has a
    /// file of either kind there: a new take never replaces an earlier one.
    static func takeStem(directory: String, date: Date = Date()) -> String {
        let base = stem(of: CaptureController.timestampedPath(extension: "x", directory: directory, date: date))
        var candidate = base, n = 1
        while ["mid", "wav"].contains(where: { FileManager.default.fileExists(atPath: candidate + "." + $0) }) {
            n += 1
            candidate = base + "-\(n)"
        }
        return candidate
    }

    /// The path without its extension.
    static func stem(of path: String) -> String { (path as NSString).deletingPathExtension }

    public func record(_ event: MonitorEvent, message: MIDIMessage?) { capture.record(event, message: message) }
    public func recordings() -> [Recording] {
        let status = capture.status()
        return [status.midi.map { Recording(kind: "MIDI", path: $0.path, seconds: $0.seconds, failure: $0.failure) },
                status.audio.map { Recording(kind: "audio", path: $0.path, seconds: $0.seconds, failure: $0.failure) }].compactMap { $0 }
    }
}

extension SoundFont {
    /// The font's name, or its file name when it has none.
    public var displayName: String {
        name.isEmpty ? (path as NSString).lastPathComponent : name
    }

    /// "bank:program name" of preset `index`, e.g. "000:000 Acoustic Grand Piano".
    public func presetLabel(_ index: Int) -> String {
        guard presets.indices.contains(index) else { return "none" }
        let p = presets[index]
        return String(format: "%03d:%03d ", Int(p.bank), Int(p.program)) + p.name
    }
}
