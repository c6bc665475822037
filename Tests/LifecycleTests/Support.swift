import Foundation
import Testing
@testable import Lifecycle

/// The package root, found from this file (Tests/LifecycleTests/Support.swift).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let scenariosFolder = packageRoot.appendingPathComponent("scenarios")
/// Real Info.plists from public iOS projects, kept in the repository (Tests/Fixtures/plists/README.md).
let plistFolder = packageRoot.appendingPathComponent("Tests/Fixtures/plists")
let plistsPresent = FileManager.default.fileExists(atPath: plistFolder.path)

func bundledScenarios() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: scenariosFolder.path)) ?? [])
        .filter { $0.hasSuffix(".toml") }.sorted()
}

func plistFiles() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: plistFolder.path)) ?? []).filter { $0.hasSuffix(".plist") }.sorted()
}

/// A simulator with an audible audio-output "synth" stream under the given rules.
func makeSimulator(_ style: LifecycleStyle = .appDelegate, modes: [BackgroundMode] = [], category: SessionCategory = .soloAmbient,
                   options: [SessionOption] = [], active: Bool? = nil, streams: [StreamConfig] = [],
                   handlers: [Handler] = [], ios: Int = 17) -> LifecycleSimulator {
    LifecycleSimulator(configuration: LifecycleConfiguration(
        style: style, backgroundModes: modes, iOSVersion: ios, category: category, options: options,
        sessionActive: active, streams: streams, handlers: handlers))
}

extension LifecycleSimulator {
    /// Applies events one second apart starting at `now + 1`; returns the last event's entry.
    @discardableResult
    mutating func run(_ events: LifecycleEvent...) -> TimelineEntry {
        var last: TimelineEntry?
        for e in events { last = apply(e, at: now + 1).last }
        return last!
    }

    /// This simulator after `events`, applied as `run` does.
    func after(_ events: LifecycleEvent...) -> LifecycleSimulator {
        var sim = self
        for e in events { _ = sim.apply(e, at: sim.now + 1) }
        return sim
    }

    /// Advances to `before` and expects the app still in background there, then to `time` and expects it
    /// suspended; returns the entries of that last step.
    @discardableResult
    mutating func expectSuspension(at time: Double, stillInBackgroundAt before: Double,
                                   sourceLocation: SourceLocation = #_sourceLocation) -> [TimelineEntry] {
        _ = advance(to: before)
        #expect(state == .background, sourceLocation: sourceLocation)
        let entries = advance(to: time)
        #expect(state == .suspended, sourceLocation: sourceLocation)
        return entries
    }

    var codes: Set<WarningCode> { Set(raisedWarnings.map(\.code)) }
}
