import DSP
@testable import Engine
import Foundation
import MIDI
@testable import TUI
@testable import Settings
import TextOutput

/// An engine without JACK: events the test queues, control events the workstation sends.
final class FakeEngine: WorkstationEngine {
    var pending: [EngineEvent] = []
    var sent: [ControlEvent] = []
    var sysex: [UInt8] = []
    var serverName = "test"
    var values = SynthParameter.allCases.map { SynthPatch.builtIn[0].value(of: $0) }
    var patch = 0
    /// The header's ALSA MIDI line (`EngineStatus.alsaMIDI`): the sequencer open, unless a test says otherwise.
    var alsaMIDI: String? = "ALSA MIDI backbeat:midi_in (128:0)"
    /// JACK's DSP load the header shows.
    var load: Float = 1.5

    func status() -> EngineStatus {
        EngineStatus(server: ServerDescription(name: serverName, isPrivate: true, driver: "dummy"), clientName: "backbeat",
                     connected: true, sampleRate: 48_000, periodFrames: 256, jackLoad: load, callbackLoad: 0.01,
                     maxCallbackLoad: 0.02, xruns: 0, voicesInUse: 1, voiceCapacity: 64, midiReceived: 0, midiLost: 0, ringDrops: 0, alsaMIDI: alsaMIDI)
    }
    func drainEvents(_ body: (EngineEvent) -> Void) {
        let events = pending
        pending.removeAll()
        events.forEach(body)
    }
    func takeSysex(count: Int) -> [UInt8] {
        let out = Array(sysex.prefix(count)); sysex.removeFirst(min(count, sysex.count)); return out
    }
    /// Control events and gate changes in the order they reached the engine.
    var journal: [String] = []
    /// The keyboard ring is full: `send` refuses every event.
    var ringFull = false
    func send(_ event: ControlEvent) -> Bool {
        guard !ringFull else { return false }
        sent.append(event); journal.append("\(event)"); return true
    }
    /// The send effects' settings as `setEffect` left them, by `EffectParameter.rawValue`.
    var effects = EffectParameter.allCases.map(\.defaultValue)
    func setEffect(_ parameter: EffectParameter, _ value: Float) {
        effects[parameter.rawValue] = min(max(value, parameter.range.lowerBound), parameter.range.upperBound)
    }
    /// The sample voices' interpolation as `setInterpolation` left it.
    var interpolation = SampleInterpolation.cubic
    func setInterpolation(_ mode: SampleInterpolation) { interpolation = mode }
    func synthView() -> SynthView {
        var view = SynthView(patch: patch, values: values, voicesInUse: 1, voiceCapacity: 64)
        view.effects = effects
        view.interpolation = interpolation
        return view
    }
    var synthChannel: UInt8? { nil }
    /// The channel mixer as the workstation set it last (`Engine.setChannelMixer(_:)` keeps it so).
    var mixerSettings = ChannelMixerSettings()
    func setChannelMixer(_ settings: ChannelMixerSettings) { mixerSettings = settings }
    func channelMixerSettings() -> ChannelMixerSettings { mixerSettings }
    var gates: (midi: Bool, audio: Bool) = (true, true)
    func setGates(midiDelivered: Bool, audioPlaying: Bool) {
        if gates != (midiDelivered, audioPlaying) { journal.append("gates \(midiDelivered) \(audioPlaying)") }
        gates = (midiDelivered, audioPlaying)
    }

    func midi(_ status: UInt8, _ d1: UInt8 = 0, _ d2: UInt8 = 0, frame: UInt32 = 0, source: MIDISource = .jack, lost: Bool = false) {
        pending.append(.midi(MonitorEvent(frameTime: frame, message: ShortMessage(status: status, data1: d1, data2: d2), source: source, lost: lost)))
    }
}

extension Grid {
    func contains(_ text: String) -> Bool { (0..<height).contains { row($0).contains(text) } }
    /// Every scalar on screen is printable: nothing can be an escape sequence.
    var allPrintable: Bool { cells.allSatisfy { TerminalText.isPrintable(Unicode.Scalar($0.scalar)!) } }
}

func render(_ w: Workstation, _ width: Int = 120, _ height: Int = 40) -> Grid {
    var grid = Grid(width: width, height: height)
    w.draw(into: &grid)
    return grid
}

/// The repository root (themes/ lives there).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

extension Grid {
    /// Whether `word` is shown in the presenter badge's capitals three rows high (on three consecutive rows).
    func containsBig(_ word: String, ascii: Bool) -> Bool {
        guard let big = LifecyclePresenter.bigText(word, ascii: ascii) else { return false }
        return (0..<max(0, height - 2)).contains { y in (0..<3).allSatisfy { row(y + $0).contains(big[$0]) } }
    }
}
