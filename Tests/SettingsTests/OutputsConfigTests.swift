// Issue 39, section 4: the config file's `outputs` key under [engine], as `--outputs`.
@testable import Settings
import Testing

@Suite struct OutputsConfigTests {
    @Test func outputsKeyIsReadAndChecked() throws {
        #expect(try Config.parse("[engine]\noutputs = \"channels\"\n", file: "c.toml").engine.outputs == "channels")
        #expect(try Config.parse("[engine]\noutputs = \"main\"\n", file: "c.toml").engine.outputs == "main")
        #expect(try Config.parse("[engine]\n", file: "c.toml").engine.outputs == nil)
        do {
            _ = try Config.parse("[engine]\noutputs = \"all\"\n", file: "c.toml")
            Issue.record("outputs = \"all\" was accepted")
        } catch {
            #expect("\(error)".contains("\"outputs\" must be \"main\" or \"channels\""), "\(error)")
            #expect("\(error)".contains("c.toml"), "\(error)")
        }
    }
}
