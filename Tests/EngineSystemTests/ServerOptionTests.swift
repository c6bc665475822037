import Foundation
import Testing

/// `--server` as the binary checks it (the rule itself: PrivateServerFilesTests in EngineTests).
@Suite struct ServerOptionTests {
    @Test func serverOptionIsCheckedBeforeAnythingStarts() throws {
        for bad in ["../x", "a/b", ".hidden"] {
            let result = try run(backbeatExecutable(), ["--headless", "--server", bad])
            #expect(result.status == 2, "\(bad): \(result.output)")
            #expect(result.output.contains("--server \"\(bad)\" is not a JACK server name"), "\(result.output)")
            #expect(!result.output.contains("posix_spawn") && !result.output.contains("started a private"))
        }
        let monitor = try run(backbeatExecutable(), ["monitor", "--server", "x/y"])
        #expect(monitor.status == 2 && monitor.output.contains("--server \"x/y\""), "\(monitor.output)")
    }
}
