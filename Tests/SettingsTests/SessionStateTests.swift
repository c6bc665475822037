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

    @Test func badSessionFileNamesFileAndLine() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "theme = \"dark\"\n[connections]\nout_X = [\"a:b\"]\n".write(toFile: directory + "/session.toml", atomically: true, encoding: .utf8)
        #expect(throws: ConfigFileError(file: directory + "/session.toml", line: 3, message: "unknown port \"out_X\"; Backbeat's ports: midi_in, out_L, out_R")) {
            try SessionState.load(directory: directory)
        }
    }
}
