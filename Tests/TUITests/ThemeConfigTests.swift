import Foundation
@testable import Settings
import Testing
@testable import TUI

@Suite struct ThemeTests {
    @Test(arguments: ["dark", "light", "high-contrast", "monochrome"])
    func shippedThemesNameEveryElement(name: String) throws {
        let theme = try Theme.load(path: repositoryRoot.appendingPathComponent("themes/\(name).toml").path)
        #expect(theme.name == name)
        #expect(theme.styles.count == Role.allCases.count)
    }

    @Test func builtInDarkMatchesTheFile() throws {
        let file = try Theme.load(path: repositoryRoot.appendingPathComponent("themes/dark.toml").path)
        #expect(file == Theme.builtInDark)
    }

    @Test func badThemeNamesFileLineKeyAndExpectation() {
        var text = Theme.builtInDark.toml
        text = text.replacingOccurrences(of: "meter_mid = { fg = \"#d7d75f\"", with: "meter_mid = { fg = \"chartreuse\"")
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("meter_mid") }! + 1
        #expect(throws: ConfigFileError.self) { try Theme.parse(text, file: "t.toml") }
        do { _ = try Theme.parse(text, file: "t.toml") } catch {
            #expect(error.line == line)
            #expect(error.description.hasPrefix("t.toml:\(line): \"meter_mid.fg\": expected a colour"))
        }
    }

    @Test func unknownAndMissingElements() {
        let extra = Theme.builtInDark.toml + "sparkles = \"red\"\n"
        do { _ = try Theme.parse(extra, file: "x.toml"); Issue.record("accepted") } catch {
            #expect(error.message.contains("unknown element \"sparkles\""))
            #expect(error.line == extra.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
        }
        let missing = Theme.builtInDark.toml.split(separator: "\n").filter { !$0.hasPrefix("help =") }.joined(separator: "\n")
        do { _ = try Theme.parse(missing, file: "m.toml"); Issue.record("accepted") } catch {
            #expect(error.message.contains("\"help\""))
        }
        do { _ = try Theme.parse("name = \"x\"\n[styles\n", file: "s.toml"); Issue.record("accepted") } catch {
            #expect(error.message.contains("TOML syntax"))
            #expect(error.line == 2)
        }
    }

    @Test func colourParsingAndMapping() {
        #expect(ThemeColor(text: "#ff0000") == .rgb(255, 0, 0))
        #expect(ThemeColor(text: "red") == .indexed(1))
        #expect(ThemeColor(text: "bright-red") == .indexed(9))
        #expect(ThemeColor(text: "214") == .indexed(214))
        #expect(ThemeColor(text: "256") == nil)
        #expect(ThemeColor(text: "default") == .terminalDefault)
        #expect(Palette.number(for: .rgb(255, 0, 0), depth: .palette256) == 196 || Palette.number(for: .rgb(255, 0, 0), depth: .palette256) == 9)
        #expect(Palette.number(for: .rgb(255, 0, 0), depth: .eight) == 1)
        #expect(Palette.number(for: .rgb(0, 0, 0), depth: .sixteen) == 0)
        #expect(Palette.number(for: .indexed(214), depth: .eight) == 3)  // orange -> yellow
        #expect(Palette.number(for: .rgb(1, 2, 3), depth: .direct) == 0x010203)
        #expect(Palette.number(for: .terminalDefault, depth: .palette256) == -1)
        #expect(Palette.xterm(196) == (255, 0, 0))
        #expect(Palette.xterm(232) == (8, 8, 8))
        #expect(ColorDepth(colors: 256) == .palette256)
        #expect(ColorDepth(colors: 8) == .eight)
    }

    @Test func resolveFindsNamesAndPaths() throws {
        let env = ["BACKBEAT_THEMES": repositoryRoot.appendingPathComponent("themes").path, "HOME": "/nonexistent"]
        #expect(try Theme.resolve("light", environment: env).name == "light")
        #expect(try Theme.resolve("default", environment: env).name == "dark")
        #expect(throws: ConfigFileError.self) { try Theme.resolve("nosuch", environment: env) }
    }
}

@Suite struct ConfigTests {
    @Test func everyKey() throws {
        let text = """
            theme = "light"
            ascii = true
            gate = 0.5
            hold = true
            octave = 3
            velocity = 80
            middle_c = "C3"
            [engine]
            server = "studio"
            name = "bb"
            rate = 44100
            period = 128
            voices = 32
            channel = 2
            patch = 3
            autoconnect = false
            connect_midi = ["a:out"]
            connect_audio = ["system:playback_1"]
            """
        let c = try Config.parse(text, file: "c.toml")
        #expect(c.theme == "light" && c.ascii == true && c.gate == 0.5 && c.hold == true && c.octave == 3 && c.velocity == 80 && c.middleC == .c3)
        #expect(c.engine.server == "studio" && c.engine.rate == 44100 && c.engine.period == 128 && c.engine.voices == 32)
        #expect(c.engine.channel == 2 && c.engine.patch == 3 && c.engine.autoconnect == false)
        #expect(c.engine.connectMIDI == ["a:out"] && c.engine.connectAudio == ["system:playback_1"])
    }

    @Test func unknownKeysAndBadValuesNameFileAndLine() {
        do { _ = try Config.parse("theme = \"dark\"\ncolour = 1\n", file: "c.toml"); Issue.record("accepted") } catch {
            #expect(error.description.hasPrefix("c.toml:2: unknown key \"colour\""))
        }
        do { _ = try Config.parse("[engine]\nrate = 48000\nperiods = 2\n", file: "c.toml"); Issue.record("accepted") } catch {
            #expect(error.description.hasPrefix("c.toml:3: unknown key \"periods\" in [engine]"))
        }
        do { _ = try Config.parse("octave = \"four\"\n", file: "c.toml"); Issue.record("accepted") } catch {
            #expect(error.description == "c.toml:1: \"octave\" must be an integer in 0...8")
        }
        do { _ = try Config.parse("\n\nmiddle_c = \"C5\"\n", file: "c.toml"); Issue.record("accepted") } catch {
            #expect(error.line == 3)
        }
    }

    // Issue 36: `patch` is a built-in patch (name or number, refused out of range), `program` a GM program.
    @Test func patchIsABuiltInPatchAndProgramAGeneralMIDIProgram() throws {
        #expect(try Config.parse("[engine]\npatch = 12\n", file: "c.toml").engine.patch == 12)
        #expect(try Config.parse("[engine]\npatch = \"soft pad\"\n", file: "c.toml").engine.patch == 3)
        #expect(try Config.parse("[engine]\npatch = \"Square-Bass\"\n", file: "c.toml").engine.patch == 2)
        let program = try Config.parse("[engine]\nprogram = 29\n", file: "c.toml").engine
        #expect(program.program == 29 && program.patch == nil)
        for bad in ["patch = 141", "patch = 290", "patch = -1", "patch = \"harpsichords\"", "patch = 1.5"] {
            do { _ = try Config.parse("[engine]\n\(bad)\n", file: "c.toml"); Issue.record("accepted \(bad)") } catch {
                #expect(error.description.hasPrefix("c.toml:2: \"patch\" must be a built-in patch, its number 0...140 or its name as a string: 0 sine keys, 1 saw lead,"), "\(error)")
                #expect(error.description.contains("12 flute; 13-140 the General MIDI programs 0-127 by name; \"program\" chooses by General MIDI program (0...127)"), "\(error)")
            }
        }
        do { _ = try Config.parse("[engine]\nprogram = 128\n", file: "c.toml"); Issue.record("accepted") } catch {
            #expect(error.description == "c.toml:2: \"program\" must be an integer in 0...127")
        }
        do { _ = try Config.parse("[engine]\npatch = 1\nprogram = 29\n", file: "c.toml"); Issue.record("accepted both") } catch {
            #expect(error.description.hasPrefix("c.toml:3: \"patch\" and \"program\" both choose"), "\(error)")
        }
    }

    @Test func missingFileIsEmptyAndXDGIsHonoured() throws {
        #expect(try Config.load(path: "/nonexistent/config.toml") == Config())
        #expect(Config.defaultPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/backbeat/config.toml")
        #expect(Config.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/backbeat/config.toml")
    }
}
