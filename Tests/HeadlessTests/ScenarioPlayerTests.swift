import Engine
@testable import Headless
import Lifecycle
import Testing
import TestSupport

/// The headless scenario player's steps against an engine that is made but not started: the timeline goes
/// to standard output, the narration to standard error, and the expectations are counted for the exit code.
@Suite struct ScenarioPlayerTests {
    @Test func playsTheTimelineAndCountsTheExpectations() throws {
        let scenario = try Scenario.parse(fixtureText("scenarios/short-live-run.toml"), file: "short-live-run.toml")
        let engine = Engine(options: EngineOptions(), log: { _ in })
        let lines = Lines()
        let player = ScenarioPlayer(scenario, engine: engine, capture: CaptureController(engine: engine),
                                    out: { lines.out.append($0) }, info: { lines.info.append($0) })
        player.prepare()
        player.started()
        #expect(lines.info == ["narration: The user opens the app"])
        #expect(lines.out.contains { $0.contains("launch") })
        for t in stride(from: 0.5, through: 8.0, by: 0.5) { player.step(at: t) }
        #expect(player.checked == 1 && player.failed == 0)
        #expect(lines.info.contains("narration: Home, and no background mode"))
        #expect(lines.info.contains { $0.hasPrefix("scenario finished: 1 of 1 expectations passed") })
        #expect(lines.info.contains { $0.contains(" | app suspended") })  // the status line of each second
    }
}

/// What the player said, by stream.
final class Lines {
    var out: [String] = []
    var info: [String] = []
}
