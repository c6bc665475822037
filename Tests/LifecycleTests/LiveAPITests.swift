// The API the live panel and the engine use: runtime configuration, streams on/off, audible, gates.
import Testing
@testable import Lifecycle

@Test func liveConfigurationChangesWhatKeepsAlive() {
    var sim = makeSimulator(.swiftui, streams: [StreamConfig(name: "synth", kind: .audioOutput, playing: true)])
    _ = sim.apply(.launch, at: 0)
    #expect(sim.status(of: "synth")?.keepsAlive == false)
    _ = sim.setBackgroundModes([.audio], at: 1)
    _ = sim.setCategory(.playback, at: 2)
    #expect(sim.status(of: "synth")?.keepsAlive == true)
    let home = sim.apply(.home, at: 3)
    #expect(home.last?.aliveBy == ["synth"])
    let off = sim.setStream("synth", on: false, at: 10)
    #expect(off.last?.aliveBy == [])
    _ = sim.advance(to: 15)
    #expect(sim.state == .suspended)
    #expect(!sim.audioOutputPlays && !sim.midiInputDelivered)
}

@Test func mixWithOthersToggle() {
    var sim = makeSimulator(modes: [.audio], category: .playback, streams: [StreamConfig(name: "synth", kind: .audioOutput)])
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(.home, at: 1)
    _ = sim.setStream("synth", on: true, at: 2)
    #expect(sim.codes.contains(.cannotInterruptOthers))
    _ = sim.setMixWithOthers(true, at: 3)
    _ = sim.setStream("synth", on: true, at: 4)
    #expect(sim.aliveBy == ["synth"])
}

@Test func audibleFlagDrivesSilentKeepalive() {
    var sim = makeSimulator(modes: [.audio], category: .playback, active: true,
                            streams: [StreamConfig(name: "synth", kind: .audioOutput, playing: true, audible: true)])
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(.home, at: 1)
    #expect(!sim.codes.contains(.silentKeepalive))
    let quiet = sim.setAudible("synth", false, at: 2)
    #expect(quiet.last?.warnings.map(\.code) == [.silentKeepalive])
    #expect(sim.aliveBy == ["synth"], "the OS checks playing, not audible")
    #expect(sim.status(of: "synth")?.isAudible == false)
}

@Test func styleChangeAtRuntimeWarnsAboutAppDelegateHandlers() {
    var sim = makeSimulator(.appDelegate, handlers: [Handler(on: .applicationWillResignActive, actions: [.beginBackgroundTask])])
    #expect(sim.raisedWarnings.isEmpty)
    let e = sim.setStyle(.swiftui, at: 1)
    #expect(e.last?.warnings.map(\.code) == [.notCalledWithScenes])
    #expect(sim.run(.launch, .home).callbacks == ["scenePhase.inactive", "scenePhase.background"])
}

@Test func streamStatusesExplainWhy() {
    var sim = makeSimulator(modes: [.audio], category: .playback, options: [.mixWithOthers], active: true, streams: [
        StreamConfig(name: "keys", kind: .midiIn, playing: true),
        StreamConfig(name: "k", kind: .keepalivePlayer, content: .empty, playing: true),
        StreamConfig(name: "synth", kind: .audioOutput, playing: true),
    ])
    _ = sim.apply(.launch, at: 0)
    let statuses = sim.streamStatuses
    #expect(statuses.map(\.name) == ["keys", "k", "synth"])
    #expect(statuses[0].why.contains("no MIDI background mode"))
    #expect(statuses[1].why.contains("empty"))
    #expect(statuses[1].isRunning == false)
    #expect(statuses[2].keepsAlive && statuses[2].isRunning)
}

@Test func pendingConfigurationWarningsAreFlushedByAdvance() {
    var sim = makeSimulator(.scenes, handlers: [Handler(on: .applicationDidBecomeActive, actions: [])])
    let entries = sim.advance(to: 0)
    #expect(entries.count == 1)
    #expect(entries[0].warnings.map(\.code) == [.notCalledWithScenes])
    #expect(sim.advance(to: 1).isEmpty)
}

@Test func timeNeverMovesBackwards() {
    var sim = makeSimulator()
    _ = sim.apply(.launch, at: 5)
    _ = sim.apply(.home, at: 2)
    #expect(sim.now == 5)
    #expect(sim.nextDeadline == 10)
}

@Test func eventsWithoutEffectSayWhy() {
    var sim = makeSimulator()
    let e = sim.run(.home)
    #expect(e.state == .notRunning)
    #expect(!e.notes.isEmpty)
}

@Test func addAndRemoveStreamsLive() {
    var sim = makeSimulator(modes: [.audio], category: .playback, options: [.mixWithOthers])
    _ = sim.apply(.launch, at: 0)
    _ = sim.addStream(StreamConfig(name: "synth", kind: .audioOutput, playing: true), at: 1)
    _ = sim.apply(.home, at: 2)
    #expect(sim.aliveBy == ["synth"])
    let removed = sim.removeStream("synth", at: 3)
    #expect(removed.last?.aliveBy == [])
    _ = sim.advance(to: 8)
    #expect(sim.state == .suspended)
}
