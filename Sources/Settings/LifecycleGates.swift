import Engine
import Lifecycle
import MIDI

/// What a step of the lifecycle simulator needs of the engine: the keyboard ring and the two gates the
/// real-time thread reads. `Engine` is one; the workstation's `WorkstationEngine` refines it.
public protocol LifecycleGateTarget: AnyObject {
    /// Pushes onto the keyboard ring (one thread only: the UI's, or the headless loop's); false when the ring
    /// is full.
    func send(_ event: ControlEvent) -> Bool
    /// The lifecycle simulator's gates, read by the real-time thread.
    func setGates(midiDelivered: Bool, audioPlaying: Bool)
}

extension Engine: LifecycleGateTarget {
    public func send(_ event: ControlEvent) -> Bool { keyboardRing.push(event) }
}

extension LiveUpdate {
    /// Puts one step of the lifecycle simulator into the engine, for the workstation and the headless
    /// scenario player alike. The actions first (voices released while the gates may still be closed; the
    /// note-offs of `held`, the notes Backbeat's own keyboard holds, before them), then the gates (suspended:
    /// MIDI in is dropped and counted lost, audio out is silence), then the scenario's notes through the
    /// keyboard ring: the callback's gate delivers or drops them as the app's input. `dropped` hears of each
    /// event the full ring refused (counted in the ring's drops).
    public func apply(to engine: any LifecycleGateTarget, held: () -> [ShortMessage] = { [] },
                      dropped: (String) -> Void) {
        func send(_ event: ControlEvent, _ what: String) {
            if !engine.send(event) { dropped("keyboard ring full: \(what) dropped (counted in overflow)") }
        }
        for action in actions {
            switch action {
            case .releaseAllVoices:
                for message in held() { send(.midi(message, .keyboard), "note-off") }
                send(.releaseAllVoices, "release of every voice")
            }
        }
        engine.setGates(midiDelivered: gates.midiDelivered, audioPlaying: gates.audioPlaying)
        for note in notes { send(.midi(note.message, .keyboard), "scenario note") }
    }
}

extension LiveNote {
    /// The note as a MIDI message on channel 1 (note-on at velocity 100).
    public var message: ShortMessage {
        switch self {
        case .on(let n): ShortMessage.noteOn(n & 0x7F, velocity: 100)
        case .off(let n): ShortMessage.noteOff(n & 0x7F)
        }
    }
}
