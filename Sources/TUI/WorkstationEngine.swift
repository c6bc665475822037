import DSP
import Engine

/// What the workstation needs from the engine: a protocol so the panels and key handling run in tests
/// without JACK.
public protocol WorkstationEngine: AnyObject {
    func status() -> EngineStatus
    func drainEvents(_ body: (EngineEvent) -> Void)
    func takeSysex(count: Int) -> [UInt8]
    /// Pushes onto the keyboard ring (UI thread only); false when the ring is full.
    func send(_ event: ControlEvent) -> Bool
    func synthView() -> SynthView
    /// The MIDI channel the synth answers (nil: omni).
    var synthChannel: UInt8? { get }
}

extension Engine: WorkstationEngine {
    public func send(_ event: ControlEvent) -> Bool { keyboardRing.push(event) }
    public func synthView() -> SynthView {
        SynthView(patch: synth.currentPatch, values: SynthParameter.allCases.map { synth.value(of: $0) },
                  voicesInUse: synth.activeVoiceCount, voiceCapacity: synth.voiceCapacity)
    }
    public var synthChannel: UInt8? { synth.channel }
}

/// The keys that start and stop what other parts of Backbeat own (demo sequencer, MIDI and audio capture).
/// Each returns the status line's message.
public protocol WorkstationActions {
    mutating func toggleDemo() -> String
    mutating func toggleMIDIRecording() -> String
    mutating func toggleAudioRecording() -> String
}

extension WorkstationActions {
    public mutating func toggleDemo() -> String { "demo sequencer: not available yet" }
    public mutating func toggleMIDIRecording() -> String { "MIDI recording: not available yet" }
    public mutating func toggleAudioRecording() -> String { "audio recording: not available yet" }
}

/// Until the demo and capture arrive: every action says so.
public struct UnavailableActions: WorkstationActions {
    public init() {}
}
