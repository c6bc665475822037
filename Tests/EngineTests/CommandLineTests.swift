import Foundation
import Testing

/// The command line as a user meets it (the built binary, not the parsers in isolation).
@Suite struct CommandLineTests {
    /// A root option would shadow a subcommand's option of the same name; each subcommand must get its own.
    @Test func subcommandsParseTheirOwnOptions() throws {
        let render = try run(backbeatExecutable(), ["render", "/nonexistent.mid", "-o", "/tmp/x.wav", "--voices", "5000"])
        #expect(render.status == 64)
        #expect(render.output.contains("backbeat render"), "\(render.output)")
        let runOptions = try run(backbeatExecutable(), ["--headless", "--voices", "5000"])
        #expect(runOptions.status == 64)
        #expect(runOptions.output.contains("--voices must be between 1 and 1024"), "\(runOptions.output)")
    }

    @Test func helpListsEverySubcommand() throws {
        let help = try run(backbeatExecutable(), ["--help"])
        #expect(help.status == 0)
        for name in ["run", "monitor", "decode", "render", "lifecycle", "bench"] {
            #expect(help.output.contains("  \(name)"), "help lacks \(name)")
        }
    }
}
