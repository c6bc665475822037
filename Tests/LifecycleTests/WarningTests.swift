// docs/lifecycle-rules.md, "Warnings": every warning code, each raised by the situation it describes.
import Testing
@testable import Lifecycle

/// A small situation raising `code`; returns the simulator afterwards.
func situation(raising code: WarningCode) -> LifecycleSimulator {
    let playback = (modes: [BackgroundMode.audio], category: SessionCategory.playback, options: [SessionOption.mixWithOthers])
    let silentKeepalive = StreamConfig(name: "k", kind: .keepalivePlayer, content: .nearSilent, playing: true)
    let synth = StreamConfig(name: "s", kind: .audioOutput, playing: true)
    let video = StreamConfig(name: "v", kind: .videoPlayer, content: .audible, playing: true)
    switch code {
    case .silentKeepalive:
        return makeSimulator(modes: playback.modes, category: playback.category, options: playback.options, active: true,
                             streams: [silentKeepalive])
            .after(.launch, .home)
    case .keepaliveNeverPlays:
        return makeSimulator(.swiftui, modes: playback.modes, category: playback.category, options: playback.options,
                             streams: [StreamConfig(name: "k", kind: .keepalivePlayer, content: .empty)],
                             handlers: [Handler(on: .scenePhaseBackground, actions: [.activateSession, .play("k")])])
            .after(.launch, .home)
    case .resumeOnBegan:
        return makeSimulator(modes: playback.modes, category: playback.category, options: playback.options, active: true,
                             streams: [silentKeepalive],
                             handlers: [Handler(on: .interruptionBegan, actions: [.play("k")])])
            .after(.launch, .callIncoming)
    case .notCalledWithScenes:
        return makeSimulator(.scenes, handlers: [Handler(on: .applicationDidEnterBackground, actions: [.beginBackgroundTask])])
    case .keepaliveOnResignActive:
        return makeSimulator(modes: playback.modes, category: playback.category, options: playback.options,
                             streams: [StreamConfig(name: "k", kind: .keepalivePlayer, content: .nearSilent)],
                             handlers: [Handler(on: .applicationWillResignActive, actions: [.play("k")])])
            .after(.launch, .controlCenter)
    case .cannotInterruptOthers:
        return makeSimulator(modes: playback.modes, category: .playback,
                             handlers: [Handler(on: .applicationDidEnterBackground, actions: [.activateSession])])
            .after(.launch, .home)
    case .categoryCannotBackground:
        return makeSimulator(modes: [.audio], category: .ambient, streams: [synth]).after(.launch, .lock)
    case .missingBackgroundMode:
        return makeSimulator(modes: [], category: .playback, streams: [synth]).after(.launch, .home)
    case .videoAutopaused:
        return makeSimulator(modes: [.audio], category: .playback, streams: [video]).after(.launch, .home)
    case .pipDetachConflict:
        return makeSimulator(.scenes, modes: [.audio], category: .playback, streams: [video],
                             handlers: [Handler(on: .sceneDidEnterBackground, actions: [.detachVideo("v")])])
            .after(.launch, .pipStart)
    case .handlerNeverCalled:
        return makeSimulator(.appDelegate, handlers: [Handler(on: .sceneDidEnterBackground, actions: [.beginBackgroundTask])])
    case .backgroundTaskExpired:
        var sim = makeSimulator(handlers: [Handler(on: .applicationDidEnterBackground, actions: [.beginBackgroundTask])])
        sim.run(.launch, .home)
        _ = sim.advance(to: 100)
        return sim
    case .voipPushNotReported, .deprecatedMode, .missingTaskIdentifiers, .missingUsageDescription, .unknownBackgroundMode:
        preconditionFailure("\(code.rawValue) is tested elsewhere (see checkOnlyCodes)")
    }
}

/// Codes tested elsewhere: those only `lifecycle check` raises, which need what an Info.plist says
/// (InfoPlistTests), and the two of background modes' rules (BackgroundModeRulesTests:
/// `voipPushNotReportedTerminates`, and `deprecated-mode` for newsstand-content).
let checkOnlyCodes: Set<WarningCode> = [.voipPushNotReported, .deprecatedMode, .missingTaskIdentifiers, .missingUsageDescription, .unknownBackgroundMode]

@Test("each warning code is raised by its situation", arguments: WarningCode.allCases.filter { !checkOnlyCodes.contains($0) })
func warningRaised(code: WarningCode) {
    let sim = situation(raising: code)
    let warning = sim.raisedWarnings.first { $0.code == code }
    #expect(warning != nil)
    #expect(!(warning?.message.isEmpty ?? true))
    #expect(!(warning?.message.contains("\n") ?? true), "one line")
}

// Issue 11 added handler-never-called to the contract's codes.
@Test("codes are the contract's spellings")
func codeSpellings() {
    #expect(WarningCode.allCases.map(\.rawValue).sorted() == [
        "background-task-expired", "cannot-interrupt-others", "category-cannot-background", "deprecated-mode", "handler-never-called",
        "keepalive-never-plays", "keepalive-on-resign-active", "missing-background-mode", "missing-task-identifiers",
        "missing-usage-description", "not-called-with-scenes", "pip-detach-conflict",
        "resume-on-began", "silent-keepalive", "unknown-background-mode", "video-autopaused", "voip-push-not-reported",
    ])
}

@Test func silentKeepaliveIsSeparateFromAlive() {
    let sim = situation(raising: .silentKeepalive)
    #expect(sim.aliveBy == ["k"], "alive")
    #expect(sim.codes.contains(.silentKeepalive), "and a review risk")
}

@Test func audibleStreamRaisesNoSilentKeepalive() {
    var sim = makeSimulator(modes: [.audio], category: .playback, active: true,
                            streams: [StreamConfig(name: "synth", kind: .audioOutput, playing: true, audible: true)])
    sim.run(.launch, .home)
    #expect(!sim.codes.contains(.silentKeepalive))
}

@Test func resumeOnBeganDoesNotResume() {
    var sim = situation(raising: .resumeOnBegan)
    #expect(sim.status(of: "k")?.isOn == false)
    sim.run(.callDeclined)
    #expect(sim.status(of: "k")?.isOn == false, "nothing restarts it after ended")
}

@Test func conditionWarningsAreRaisedOncePerEpisode() {
    var sim = situation(raising: .silentKeepalive)
    sim.run(.controlCenter)
    _ = sim.advance(to: sim.now + 30)
    #expect(sim.raisedWarnings.filter { $0.code == .silentKeepalive }.count == 1)
    sim.run(.foreground, .home)
    #expect(sim.raisedWarnings.filter { $0.code == .silentKeepalive }.count == 2)
}
