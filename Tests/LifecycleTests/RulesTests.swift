// docs/lifecycle-rules.md: time limits, and what keeps the process running.
import Testing
@testable import Lifecycle

// MARK: - docs/lifecycle-rules.md, section 2

@Test func suspendedFiveSecondsAfterDidEnterBackground() {
    var sim = makeSimulator()
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(.home, at: 10)
    let entries = sim.expectSuspension(at: 15, stillInBackgroundAt: 14.9)
    #expect(entries.first?.reason == "nothing keeps the app alive 5 s after didEnterBackground")
}

@Test("background task budget by iOS version", arguments: [(17, 30.0), (13, 30.0), (12, 180.0), (7, 180.0), (6, 600.0)])
func backgroundTaskBudget(ios: Int, budget: Double) {
    var sim = makeSimulator(handlers: [Handler(on: .applicationDidEnterBackground, actions: [.beginBackgroundTask])], ios: ios)
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(.home, at: 10)
    _ = sim.advance(to: 10 + budget - 0.1)
    #expect(sim.state == .background)
    #expect(sim.aliveBy == ["background-task"])
    let entries = sim.advance(to: 10 + budget)
    #expect(sim.state == .terminated)
    #expect(entries.last?.callbacks == ["backgroundTask.expiration"])
    #expect(entries.last?.reason?.contains("0x8badf00d") == true)
    #expect(entries.last?.reason?.contains("observed") == true)
    #expect(entries.last?.warnings.map(\.code) == [.backgroundTaskExpired])
}

@Test func backgroundTaskEndedByExpirationHandlerIsNotKilled() {
    var sim = makeSimulator(handlers: [Handler(on: .applicationDidEnterBackground, actions: [.beginBackgroundTask]),
                                       Handler(on: .backgroundTaskExpiration, actions: [.endBackgroundTask])])
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(.home, at: 10)
    _ = sim.advance(to: 40)
    #expect(sim.state == .background)
    #expect(!sim.codes.contains(.backgroundTaskExpired))
    _ = sim.advance(to: 45)
    #expect(sim.state == .suspended)
}

@Test func backgroundTaskBudgetCountsFromBackground() {
    var sim = makeSimulator(streams: [StreamConfig(name: "job", kind: .backgroundTask)])
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(.streamStart("job"), at: 1)
    _ = sim.apply(.home, at: 100)
    _ = sim.advance(to: 129)
    #expect(sim.state == .background)
    _ = sim.advance(to: 130)
    #expect(sim.state == .terminated)
}

// Issue 11: the termination comes about 5 s after applicationWillTerminate, not with it.
@Test func applicationWillTerminateInBackground() {
    var sim = makeSimulator(.appDelegate)
    let e = sim.run(.launch, .home, .terminate)
    #expect(e.callbacks == ["applicationWillTerminate"])
    #expect(e.state == .background)
    #expect(e.notes.contains { $0.contains("about 5 s") })
    _ = sim.advance(to: sim.now + 4.9)
    #expect(sim.state == .background, "no suspension during applicationWillTerminate's time")
    let end = sim.advance(to: sim.now + 0.1)
    #expect(end.last?.state == .terminated)
    #expect(end.last?.reason?.contains("about 5 s") == true)
}

@Test("BLE event and silent push wake a suspended app for about 10 s",
      arguments: [(LifecycleEvent.bleEvent("ble"), BackgroundMode.bluetoothCentral), (.silentPush, .remoteNotification)])
func wakeUps(event: LifecycleEvent, mode: BackgroundMode) {
    var sim = makeSimulator(modes: [mode], streams: [StreamConfig(name: "ble", kind: .bluetooth, playing: true)])
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(.home, at: 1)
    _ = sim.advance(to: 20)
    #expect(sim.state == .suspended)
    let woken = sim.apply(event, at: 30)
    #expect(woken.last?.state == .background)
    #expect(sim.midiInputDelivered)
    let back = sim.expectSuspension(at: 40, stillInBackgroundAt: 39.9)
    #expect(back.last?.reason?.contains("up to 30 s") == true)
}

@Test func wakeNeedsItsMode() {
    var sim = makeSimulator(streams: [StreamConfig(name: "ble", kind: .bluetooth, playing: true)])
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(.home, at: 1)
    let e = sim.apply(.bleEvent("ble"), at: 20)
    #expect(e.last?.state == .suspended)
}

// MARK: - docs/lifecycle-rules.md, section 3

struct AliveCase: Sendable, CustomTestStringConvertible {
    var label: String
    var stream: StreamConfig
    var modes: [BackgroundMode]
    var category: SessionCategory = .playback
    var options: [SessionOption] = [.mixWithOthers]
    var active: Bool? = true
    var handlers: [Handler] = []
    var pip = false
    var keepsAlive: Bool
    var testDescription: String { label }
}

let aliveCases: [AliveCase] = [
    AliveCase(label: "audio-output playing, audio mode, playback", stream: .init(name: "s", kind: .audioOutput, playing: true), modes: [.audio], keepsAlive: true),
    AliveCase(label: "audio-output, playAndRecord", stream: .init(name: "s", kind: .audioOutput, playing: true), modes: [.audio], category: .playAndRecord, keepsAlive: true),
    AliveCase(label: "audio-output, multiRoute", stream: .init(name: "s", kind: .audioOutput, playing: true), modes: [.audio], category: .multiRoute, keepsAlive: true),
    AliveCase(label: "audio-output, no audio mode", stream: .init(name: "s", kind: .audioOutput, playing: true), modes: [], keepsAlive: false),
    AliveCase(label: "audio-output, ambient", stream: .init(name: "s", kind: .audioOutput, playing: true), modes: [.audio], category: .ambient, keepsAlive: false),
    AliveCase(label: "audio-output, soloAmbient", stream: .init(name: "s", kind: .audioOutput, playing: true), modes: [.audio], category: .soloAmbient, keepsAlive: false),
    AliveCase(label: "audio-output, session inactive", stream: .init(name: "s", kind: .audioOutput, playing: true), modes: [.audio], active: false, keepsAlive: false),
    AliveCase(label: "audio-output, not playing", stream: .init(name: "s", kind: .audioOutput, playing: false), modes: [.audio], keepsAlive: false),
    AliveCase(label: "audio-output inaudible still keeps alive (playing, not audible)", stream: .init(name: "s", kind: .audioOutput, playing: true, audible: false), modes: [.audio], keepsAlive: true),
    AliveCase(label: "audio-input, record", stream: .init(name: "s", kind: .audioInput, playing: true), modes: [.audio], category: .record, keepsAlive: true),
    AliveCase(label: "audio-input, playAndRecord", stream: .init(name: "s", kind: .audioInput, playing: true), modes: [.audio], category: .playAndRecord, keepsAlive: true),
    AliveCase(label: "audio-input, playback cannot record", stream: .init(name: "s", kind: .audioInput, playing: true), modes: [.audio], category: .playback, keepsAlive: false),
    AliveCase(label: "audio-input, no audio mode", stream: .init(name: "s", kind: .audioInput, playing: true), modes: [], category: .record, keepsAlive: false),
    AliveCase(label: "keepalive-player empty never plays", stream: .init(name: "s", kind: .keepalivePlayer, content: .empty, playing: true), modes: [.audio], keepsAlive: false),
    AliveCase(label: "keepalive-player near-silent plays", stream: .init(name: "s", kind: .keepalivePlayer, content: .nearSilent, playing: true), modes: [.audio], keepsAlive: true),
    AliveCase(label: "video-player attached: auto-paused", stream: .init(name: "s", kind: .videoPlayer, content: .audible, playing: true, pictureInPicture: false), modes: [.audio], keepsAlive: false),
    AliveCase(label: "video-player detached plays its audio", stream: .init(name: "s", kind: .videoPlayer, content: .audible, playing: true, pictureInPicture: false), modes: [.audio], handlers: [Handler(on: .applicationDidEnterBackground, actions: [.detachVideo("s")])], keepsAlive: true),
    AliveCase(label: "video-player in PiP keeps playing", stream: .init(name: "s", kind: .videoPlayer, content: .audible, playing: true), modes: [.audio], pip: true, keepsAlive: true),
    AliveCase(label: "midi-in never", stream: .init(name: "s", kind: .midiIn, playing: true), modes: BackgroundMode.allCases, keepsAlive: false),
    AliveCase(label: "midi-out never", stream: .init(name: "s", kind: .midiOut, playing: true), modes: BackgroundMode.allCases, keepsAlive: false),
    AliveCase(label: "location with the location mode", stream: .init(name: "s", kind: .location, playing: true), modes: [.location], keepsAlive: true),
    AliveCase(label: "location without the mode", stream: .init(name: "s", kind: .location, playing: true), modes: [.audio], keepsAlive: false),
    AliveCase(label: "voip no longer keeps alive", stream: .init(name: "s", kind: .voip, playing: true), modes: [.voip, .audio], keepsAlive: false),
    AliveCase(label: "bluetooth only wakes", stream: .init(name: "s", kind: .bluetooth, playing: true), modes: [.bluetoothCentral, .bluetoothPeripheral], keepsAlive: false),
    AliveCase(label: "background-task until it ends", stream: .init(name: "s", kind: .backgroundTask, playing: true), modes: [], keepsAlive: true),
]

@Test("section 3 rows", arguments: aliveCases)
func keepsAlive(c: AliveCase) {
    var sim = makeSimulator(.appDelegate, modes: c.modes, category: c.category, options: c.options, active: c.active,
                            streams: [c.stream], handlers: c.handlers)
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(c.pip ? .pipStart : .home, at: 1)
    _ = sim.advance(to: 20)
    #expect(sim.aliveBy == (c.keepsAlive ? ["s"] : []))
    #expect(sim.state == (c.keepsAlive ? .background : .suspended))
    #expect(!(sim.status(of: "s")?.why.isEmpty ?? true))
}

@Test func playbackStopsThenSuspendedAfterGrace() {
    var sim = makeSimulator(modes: [.audio], category: .playback, active: true,
                            streams: [StreamConfig(name: "synth", kind: .audioOutput, playing: true)])
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(.home, at: 1)
    _ = sim.advance(to: 50)
    #expect(sim.state == .background)
    _ = sim.apply(.streamStop("synth"), at: 50)
    let e = sim.expectSuspension(at: 55, stillInBackgroundAt: 54.9)
    #expect(e.last?.reason?.contains("synth stopped") == true)
}

@Test func midiLostWhileSuspendedAndGatesClosed() {
    var sim = makeSimulator(streams: [StreamConfig(name: "keys", kind: .midiIn, playing: true)])
    _ = sim.apply(.launch, at: 0)
    #expect(sim.apply(.midi("keys"), at: 1).last?.delivered == true)
    #expect(sim.midiInputDelivered && sim.audioOutputPlays)
    _ = sim.apply(.home, at: 2)
    _ = sim.advance(to: 10)
    #expect(sim.apply(.midi("keys"), at: 11).last?.delivered == false)
    #expect(!sim.midiInputDelivered && !sim.audioOutputPlays)
    _ = sim.apply(.foreground, at: 12)
    #expect(sim.midiInputDelivered && sim.audioOutputPlays)
}

@Test func nonMixableSessionCannotBeActivatedInBackground() {
    let handlers = [Handler(on: .applicationDidEnterBackground, actions: [.activateSession, .play("synth")])]
    var plain = makeSimulator(modes: [.audio], category: .playback, active: false,
                              streams: [StreamConfig(name: "synth", kind: .audioOutput)], handlers: handlers)
    _ = plain.apply(.launch, at: 0)
    _ = plain.apply(.home, at: 1)
    #expect(plain.codes.contains(.cannotInterruptOthers))
    #expect(plain.aliveBy.isEmpty)
    var mixing = makeSimulator(modes: [.audio], category: .playback, options: [.mixWithOthers], active: false,
                               streams: [StreamConfig(name: "synth", kind: .audioOutput)], handlers: handlers)
    _ = mixing.apply(.launch, at: 0)
    _ = mixing.apply(.home, at: 1)
    #expect(!mixing.codes.contains(.cannotInterruptOthers))
    #expect(mixing.aliveBy == ["synth"])
}

@Test func suspendedAppGetsNoInterruptionEnded() {
    var sim = makeSimulator(.appDelegate, modes: [.audio], category: .playback, active: true,
                            streams: [StreamConfig(name: "synth", kind: .audioOutput, playing: true)],
                            handlers: [Handler(on: .interruptionEnded, actions: [.activateSession, .play("synth")])])
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(.home, at: 1)
    _ = sim.apply(.callIncoming, at: 10)
    _ = sim.apply(.callAnswered, at: 11)
    _ = sim.advance(to: 30)
    #expect(sim.state == .suspended)
    let ended = sim.apply(.callEnded, at: 60)
    #expect(ended.last?.callbacks.isEmpty == true)
    #expect(sim.state == .suspended)
}

@Test func interruptionEndedWithResumeRestartsPlayback() {
    var sim = makeSimulator(.scenes, modes: [.audio], category: .playback, options: [.mixWithOthers], active: true,
                            streams: [StreamConfig(name: "synth", kind: .audioOutput, playing: true)],
                            handlers: [Handler(on: .interruptionEnded, actions: [.activateSession, .play("synth")])])
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(.home, at: 1)
    _ = sim.apply(.callIncoming, at: 10)
    #expect(sim.aliveBy.isEmpty)
    _ = sim.apply(.callDeclined, at: 12)
    #expect(sim.aliveBy == ["synth"])
    _ = sim.advance(to: 100)
    #expect(sim.state == .background)
}
