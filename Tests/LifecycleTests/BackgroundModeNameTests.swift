import Testing
@testable import Lifecycle

/// `BackgroundMode.rawValue` is spelled out (it was made from `"\(self)"` by reflection, every frame): each
/// is still the case's name in kebab-case, Apple's spelling, and reads back to its case.
@Suite struct BackgroundModeNameTests {
    @Test func everyValueIsTheCaseNameInKebabCase() {
        for mode in BackgroundMode.allCases {
            let kebab = "\(mode)".map { $0.isUppercase ? "-" + $0.lowercased() : String($0) }.joined()
            #expect(mode.rawValue == kebab)
            #expect(BackgroundMode(rawValue: kebab) == mode)
        }
    }
}

/// The cheap per-frame reads agree with the full status they stand in for.
@Suite struct StreamFlagsTests {
    @Test func flagsAndRunningMatchTheStatus() {
        let live = LiveSession()
        for (i, key) in [LifecycleKey.toggleSynth, .event(.home), .keepAlive, .event(.foreground), .toggleSynth, .event(.home)].enumerated() {
            live.perform(key, at: Double(i + 1))
            let sim = live.simulator
            for s in sim.streamStatuses {
                #expect(sim.isRunning(s.name) == s.isRunning, "\(s.name) after \(key)")
                #expect(sim.streamFlags(of: s.name)?.isOn == s.isOn && sim.streamFlags(of: s.name)?.isAudible == s.isAudible, "\(s.name) after \(key)")
            }
        }
        live.advance(to: 20)
        for s in live.simulator.streamStatuses { #expect(live.simulator.isRunning(s.name) == s.isRunning, "\(s.name) suspended") }
        #expect(live.simulator.isRunning("nothing") == nil && live.simulator.streamFlags(of: "nothing") == nil)
    }
}
