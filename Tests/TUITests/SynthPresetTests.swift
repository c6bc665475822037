import DSP
import Engine
import Foundation
import MIDI
@testable import Settings
import Testing
@testable import TUI

/// A presets folder of its own for each test.
final class PresetFolder {
    let library: PresetLibrary
    init() {
        library = PresetLibrary(directory: FileManager.default.temporaryDirectory
            .appendingPathComponent("backbeat-presets-\(getpid())-\(UUID().uuidString)/presets").path)
    }
    deinit { try? FileManager.default.removeItem(atPath: (library.directory as NSString).deletingLastPathComponent) }
    func write(_ name: String, _ text: String) throws -> String {
        try FileManager.default.createDirectory(atPath: library.directory, withIntermediateDirectories: true)
        let path = library.path(of: name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

@Suite struct SynthPresetTests {
    /// Settings as the panel makes them: every parameter stepped away from a patch's value, the ends of the ranges.
    static func edited(patch: Int, steps: Int) -> SynthPreset {
        var preset = SynthPreset(patch: patch)
        for p in SynthParameter.allCases { preset.values[p.rawValue] = SynthPanel.step(p, preset.value(p), by: steps) }
        return preset
    }

    @Test func saveThenLoadGivesTheSameSettings() throws {
        let folder = PresetFolder()
        var presets = (0..<SynthPatch.builtIn.count).map { Self.edited(patch: $0, steps: $0 % 2 == 0 ? 3 : -2) }
        var extremes = SynthPreset(patch: 4)
        for p in SynthParameter.allCases { extremes.values[p.rawValue] = p == .cutoff ? p.range.upperBound : p.range.lowerBound }
        presets.append(extremes)
        var odd = SynthPreset(patch: 1)
        odd.values[SynthParameter.attack.rawValue] = 0.0024414062
        odd.values[SynthParameter.cutoff.rawValue] = 1_234.5677
        odd.values[SynthParameter.masterGain.rawValue] = -7.3
        presets.append(odd)
        for (i, preset) in presets.enumerated() {
            let path = try folder.library.save(preset, as: "p\(i)")
            #expect(path == folder.library.path(of: "p\(i)"))
            #expect(try folder.library.resolve("p\(i)") == preset, "p\(i):\n\(preset.toml)")
            #expect(try folder.library.resolve(path) == preset)
        }
        #expect(folder.library.names() == presets.indices.map { "p\($0)" })
        // Nothing but the presets is left in the folder (the temporary files were renamed into place).
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.library.directory).count == presets.count)
    }

    @Test func savingReplacesAtomicallyAndRefusesBadNames() throws {
        let folder = PresetFolder()
        try folder.library.save(SynthPreset(patch: 0), as: "bass")
        try folder.library.save(SynthPreset(patch: 2), as: "bass")
        #expect(try folder.library.resolve("bass").patch == 2)
        for bad in ["", "a/b", "../up", ".hidden", "tab\tname"] {
            do { try folder.library.save(SynthPreset(patch: 0), as: bad); Issue.record("saved \(bad)") } catch {
                #expect(error.line == 0)
            }
        }
        do { try folder.library.save(SynthPreset(patch: 0), as: "a/b") } catch {
            #expect(error.message.contains("cannot contain \"/\""))
        }
        #expect(folder.library.names() == ["bass"])
        #expect(folder.library.nextFreeName() == "preset-1")
        try folder.library.save(SynthPreset(patch: 0), as: "preset-1")
        try folder.library.save(SynthPreset(patch: 0), as: "preset-10")
        #expect(folder.library.nextFreeName() == "preset-2")
        #expect(folder.library.names() == ["bass", "preset-1", "preset-10"])
    }

    @Test func aPartialPresetTakesThePatchValues() throws {
        let preset = try SynthPreset.parse("patch = 2\ncutoff = 900\n", file: "p.toml")
        var expected = SynthPreset(patch: 2)
        expected.values[SynthParameter.cutoff.rawValue] = 900
        #expect(preset == expected)
        #expect(try SynthPreset.parse("", file: "e.toml") == SynthPreset(patch: 0))
        #expect(try SynthPreset.parse("waveform = \"square\"\n", file: "w.toml").value(.waveform) == 3)
    }

    @Test func badFilesNameFileLineAndWhatIsAccepted() {
        func error(_ text: String) -> ConfigFileError? {
            do { _ = try SynthPreset.parse(text, file: "bad.toml"); return nil } catch { return error }
        }
        let cases: [(String, String)] = [
            ("patch = 1\nvolume = 3\n", "bad.toml:2: unknown key \"volume\"; a preset has: patch, waveform, attack"),
            ("patch = 1\n\ncutoff = 50000\n", "bad.toml:3: \"cutoff\" must be a number in 20...20000 Hz; got 50000"),
            ("attack = \"slow\"\n", "bad.toml:1: \"attack\" must be a number in 0.0005...10 seconds; got \"slow\""),
            ("# mine\nwaveform = \"hiss\"\n", "bad.toml:2: \"waveform\" must be one of \"sine\", \"triangle\", \"saw\", \"square\", \"organ\""),
            ("patch = 141\n", "bad.toml:1: \"patch\" must be a built-in patch number 0...140 (0 sine keys, 1 saw lead"),
            ("patch = 1.5\n", "bad.toml:1: \"patch\" must be a built-in patch number"),
            ("master_gain = -80\n", "bad.toml:1: \"master_gain\" must be a number in -60...12 dB"),
            ("filter_envelope = nan\n", "bad.toml:1: \"filter_envelope\" must be a number in 0...8 octaves"),
            ("sustain = 0.5\n[extra]\n", "bad.toml:2: unknown key \"extra\""),
            ("patch = 1\ncutoff = \n", "bad.toml:2: TOML syntax"),
        ]
        for (text, prefix) in cases {
            let e = error(text)
            #expect(e?.description.hasPrefix(prefix) == true, "\(text.debugDescription): \(e?.description ?? "accepted")")
        }
    }

    @Test func resolveByNameAndByPath() throws {
        let folder = PresetFolder()
        do { _ = try folder.library.resolve("lead"); Issue.record("found nothing") } catch {
            #expect(error.message.contains("no preset named \"lead\"") && error.message.contains("none saved yet"), "\(error)")
        }
        let path = try folder.write("lead", "patch = 1\nresonance = 0.5\n")
        #expect(try folder.library.resolve("lead").value(.resonance) == 0.5)
        #expect(try folder.library.resolve(path).patch == 1)
        do { _ = try folder.library.resolve("leed"); Issue.record("found a typo") } catch {
            #expect(error.message.contains("saved: lead"), "\(error)")
        }
        do { _ = try folder.library.resolve("/nonexistent/x.toml"); Issue.record("found a missing file") } catch {
            #expect(error.description == "/nonexistent/x.toml: no such preset file")
        }
        #expect(PresetLibrary.defaultDirectory(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/backbeat/presets")
        #expect(PresetLibrary.defaultDirectory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]) == "/h/.local/share/backbeat/presets")
    }

    /// `--preset` at start: the engine's synth is made with the preset's patch, then gets every parameter.
    @Test func presetAppliedToTheEngineAtStart() {
        let preset = Self.edited(patch: 3, steps: 2)
        var options = EngineOptions()
        options.patch = 1  // --patch 1 --preset X: the preset wins
        let engine = Engine(options: options.applying(preset), log: { _ in })
        preset.apply(to: engine.synth)
        let view = engine.synthView()
        #expect(SynthPreset(view) == preset)
        #expect(view.patch == 3)
        #expect(options.applying(nil).patch == 1)
    }

    @Test func loadingSendsTheProgramChangeThenEveryParameter() {
        let preset = Self.edited(patch: 2, steps: 1)
        let events = preset.controlEvents(channel: 9)
        #expect(events.first == .midi(ShortMessage(status: 0xC9, data1: 32), .keyboard)) // GM 32 selects patch 2
        #expect(Array(events.dropFirst()) == SynthParameter.allCases.map { .parameter(index: UInt8($0.rawValue), value: preset.value($0)) })
    }

    @Test func configFileNamesAPreset() throws {
        #expect(try Config.parse("[engine]\npreset = \"bass\"\n", file: "c.toml").engine.preset == "bass")
        do { _ = try Config.parse("[engine]\npreset = 3\n", file: "c.toml"); Issue.record("accepted") } catch {
            #expect(error.description == "c.toml:2: \"preset\" must be a string")
        }
    }
}
