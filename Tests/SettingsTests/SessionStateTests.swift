import Engine
import Foundation
import Settings
import Testing

@Suite struct SessionStateTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-session-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path

    @Test func savesAndLoadsBack() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try SessionState.load(directory: directory) == nil, "a new session has no state")
        let synth = SynthPreset(patch: 2)
        let state = SessionState(synth: synth, theme: "light",
                                 connections: ["midi_in": ["a2j:Keys \"1\": out"], "out_L": ["system:playback_1"], "out_R": []])
        try state.save(directory: directory)
        let loaded = try #require(try SessionState.load(directory: directory))
        #expect(loaded.synth == synth && loaded.theme == "light")
        #expect(loaded.connections["midi_in"] == ["a2j:Keys \"1\": out"] && loaded.connections["out_L"] == ["system:playback_1"])
        #expect((try FileManager.default.contentsOfDirectory(atPath: directory)).sorted() == ["session.toml", "synth.toml"], "no temporary files left")
    }

    /// The channel mixer travels in synth.toml: the engine's settings as a session saves them, loaded back and
    /// turned into the same settings; an untouched mixer writes no mixer keys (a session that never used it
    /// leaves the mixer alone when it opens).
    @Test func theMixerIsSavedAndRestoredWithTheSession() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var volume = [Int](repeating: 0, count: 16), pan = volume
        volume[0] = -24; volume[15] = 12; pan[3] = -64; pan[9] = 33
        let settings = ChannelMixerSettings(muted: 0b1000_0000_0000_0001, soloed: 0b10_0000_0000, volumeDB: volume, pan: pan)
        var synth = SynthPreset(patch: 4)
        synth.mixer = PresetMixer(saving: settings)
        try SessionState(synth: synth, theme: nil).save(directory: directory)
        let text = try String(contentsOfFile: SessionState.synthPath(directory), encoding: .utf8)
        #expect(text.contains("mixer_mute = [1, 16]") && text.contains("mixer_solo = [10]"), "\(text)")
        let loaded = try #require(try SessionState.load(directory: directory))
        #expect(loaded.synth == synth)
        #expect(loaded.synth?.mixer?.settings == settings)
        #expect(loaded.synth?.mixer?.settings.silenced == ~UInt16(0b10_0000_0000) | 0b1000_0000_0000_0001)

        #expect(PresetMixer(saving: ChannelMixerSettings()) == nil)
        var untouched = SynthPreset(patch: 4)
        untouched.mixer = PresetMixer(saving: ChannelMixerSettings())
        try SessionState(synth: untouched).save(directory: directory)
        #expect(try SessionState.load(directory: directory)?.synth?.mixer == nil)
        #expect(!(try String(contentsOfFile: SessionState.synthPath(directory), encoding: .utf8)).contains("mixer_"))
    }

    @Test func badSessionFileNamesFileAndLine() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "theme = \"dark\"\n[connections]\nout_X = [\"a:b\"]\n".write(toFile: directory + "/session.toml", atomically: true, encoding: .utf8)
        #expect(throws: ConfigFileError(file: directory + "/session.toml", line: 3, message: "unknown port \"out_X\"; Backbeat's ports: midi_in, out_L, out_R")) {
            try SessionState.load(directory: directory)
        }
    }
}
