// Issue 22: the config file's reverb and chorus switches under [engine].
@testable import Settings
import Testing

@Suite struct EffectConfigTests {
    @Test func reverbAndChorusKeysAreReadAndChecked() throws {
        let config = try Config.parse("[engine]\nreverb = false\nchorus = true\n", file: "c.toml")
        #expect(config.engine.reverb == false)
        #expect(config.engine.chorus == true)
        #expect(try Config.parse("[engine]\n", file: "c.toml").engine.reverb == nil)
        #expect(throws: ConfigFileError.self) { try Config.parse("[engine]\nreverb = \"off\"\n", file: "c.toml") }
    }
}
