@testable import Engine
@testable import Lifecycle
import MIDI
@testable import Settings
import Testing
@testable import TUI

/// `LiveUpdate.apply`, the one place a step of the lifecycle simulator reaches the engine (the workstation
/// and `backbeat --headless --scenario` both call it).
@Suite struct LifecycleGatesTests {
    let suspended = LiveGates(midiDelivered: false, audioPlaying: false)
    let heldOff = ShortMessage(status: 0x80, data1: 64, data2: 0)

    @Test func heldNotesAndVoicesAreReleasedBeforeTheGatesAndScenarioNotesComeAfter() {
        let engine = FakeEngine()
        let update = LiveUpdate(gates: suspended, actions: [.releaseAllVoices], notes: [.on(60), .off(60)])
        var dropped: [String] = []
        update.apply(to: engine, held: { [heldOff] }, dropped: { dropped.append($0) })
        #expect(engine.journal == [
            "\(ControlEvent.midi(heldOff, .keyboard))", "\(ControlEvent.releaseAllVoices)", "gates false false",
            "\(ControlEvent.midi(LiveNote.on(60).message, .keyboard))", "\(ControlEvent.midi(LiveNote.off(60).message, .keyboard))",
        ])
        #expect(dropped.isEmpty)
    }

    @Test func heldNotesAreAskedForOnlyWhenVoicesAreReleased() {
        let engine = FakeEngine()
        var asked = false
        LiveUpdate(gates: suspended, actions: [], notes: [.on(60)]).apply(to: engine, held: { asked = true; return [] }, dropped: { _ in })
        #expect(!asked)
        #expect(engine.journal == ["gates false false", "\(ControlEvent.midi(LiveNote.on(60).message, .keyboard))"])
    }

    @Test func aFullRingIsToldOfEachEventItRefusedAndTheGatesStillClose() {
        let engine = FakeEngine()
        engine.ringFull = true
        var dropped: [String] = []
        LiveUpdate(gates: suspended, actions: [.releaseAllVoices], notes: [.on(60)])
            .apply(to: engine, held: { [heldOff] }, dropped: { dropped.append($0) })
        #expect(dropped.count == 3)
        #expect(dropped.allSatisfy { $0.hasPrefix("keyboard ring full: ") && $0.hasSuffix("dropped (counted in overflow)") })
        #expect(dropped.last?.contains("scenario note") == true)
        #expect(engine.gates == (false, false))
    }

    @Test func scenarioNotesPlayOnChannelOne() {
        #expect(LiveNote.on(200).message == ShortMessage(status: 0x90, data1: 72, data2: 100))
        #expect(LiveNote.off(60).message == ShortMessage(status: 0x80, data1: 60, data2: 0))
    }
}
