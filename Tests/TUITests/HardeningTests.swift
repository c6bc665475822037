import DSP
import Engine
import Foundation
import MIDI
@testable import Settings
import Testing
@testable import TUI

@Suite struct MeterReadoutFloorTests {
    /// A decaying note reaches -114.6 dB: the 5-column readout used to show "114.6 pk", without its sign.
    @Test func levelsBelowTheReadoutFloorReadMinusInfinity() {
        var g = Grid(width: 64, height: 6)
        let readouts = [MeterReadout(peakDB: -114.6, rmsDB: -120.2, holdDB: -99.9), MeterReadout(peakDB: -99.9, rmsDB: -42)]
        MetersPanel.draw(readouts, loudness: LoudnessReadout(momentaryLUFS: nil, truePeakDB: -130), into: &g,
                         rect: Rect(x: 0, y: 0, width: 64, height: 6), context: DrawContext(glyphs: .ascii, focused: false))
        #expect(g.row(1).contains(" -inf pk  -inf rms"), "\(g.row(1))")
        #expect(!g.row(1).contains("114"))
        #expect(g.row(2).contains("-99.9 pk -42.0 rms"), "\(g.row(2))")
        #expect(g.row(4).contains("M -- ") && g.row(4).contains("TP -inf dBTP"), "\(g.row(4))")
        #expect(MetersPanel.format(-99.96) == "-inf")
        #expect(MetersPanel.format(-99.94) == "-99.9")
    }

    /// After a note, momentary loudness falls far below the -70 LUFS absolute gate: "--", not "M -261.4".
    @Test func loudnessBelowTheAbsoluteGateReadsDashes() throws {
        var m = LiveMeters()
        for _ in 0..<188 {
            m.consume(PeriodMeasure(frames: 256, peakLeft: 0.5, peakRight: 0.5, sumSquaresLeft: 64, sumSquaresRight: 64,
                                 kSumSquaresLeft: 64, kSumSquaresRight: 64, truePeakLeft: 0.5, truePeakRight: 0.5), sampleRate: 48_000)
        }
        #expect(m.loudness.momentaryLUFS != nil)
        for _ in 0..<188 {  // a second of near silence: about -260 LUFS
            m.consume(PeriodMeasure(frames: 256, peakLeft: 1e-13, peakRight: 1e-13, sumSquaresLeft: 1e-24, sumSquaresRight: 1e-24,
                                 kSumSquaresLeft: 1e-24, kSumSquaresRight: 1e-24, truePeakLeft: 1e-13, truePeakRight: 1e-13), sampleRate: 48_000)
        }
        #expect(m.loudness.momentaryLUFS == nil, "\(String(describing: m.loudness.momentaryLUFS))")
        var g = Grid(width: 64, height: 6)
        MetersPanel.draw(m.channels, loudness: m.loudness, into: &g, rect: Rect(x: 0, y: 0, width: 64, height: 6),
                         context: DrawContext(glyphs: .ascii, focused: false))
        #expect(g.row(4).contains("M -- "), "\(g.row(4))")
    }
}

@Suite struct ConfigHardeningTests {
    @Test func anExplicitConfigPathMustExist() throws {
        #expect(try Config.load(path: "/nonexistent/backbeat/config.toml") == Config())
        do {
            _ = try Config.load(path: "/nonexistent/backbeat/config.toml", mustExist: true)
            Issue.record("a missing --config was accepted")
        } catch {
            #expect(error.description == "/nonexistent/backbeat/config.toml: no such config file")
        }
    }

    @Test(arguments: [#""foo" = 1"#, #""foo bar" = 1"#, "'lit' = 2", #""a=b" = 3"#, #""x\"y" = 4"#])
    func unknownQuotedKeysAreReportedAtTheirLine(_ line: String) {
        let text = "theme = \"dark\"\n\n# a comment\n" + line + "\n"
        do {
            _ = try Config.parse(text, file: "c.toml")
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.line == 4, "\(error)")
            #expect(error.message.hasPrefix("unknown key"))
        }
        let theme = Theme.builtInDark.toml + line + "\n"
        do {
            _ = try Theme.parse(theme, file: "t.toml")
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.line == theme.split(separator: "\n", omittingEmptySubsequences: false).count - 1, "\(error)")
        }
    }

    @Test func themeSearchPathsAreListedOnceAndPlainly() {
        let environment = ["HOME": "/nonexistent"]
        let dirs = Theme.searchDirectories(environment: environment)
        #expect(Set(dirs).count == dirs.count, "\(dirs)")
        #expect(!dirs.contains { $0.contains("//") }, "\(dirs)")
        do {
            _ = try Theme.resolve("nosuch", environment: environment)
            Issue.record("found a theme named nosuch")
        } catch {
            #expect(!error.description.contains("//"), "\(error)")
            #expect(error.description.contains(dirs.joined(separator: ", ")), "\(error)")
        }
    }
}

/// Issue 27: any TOML file that was just `[` aborted Backbeat (SIGABRT inside toml++ through TOMLKit), through
/// every TOML input. Each malformed header is now an error with the file and its line, in every reader.
@Suite struct MalformedTOMLTests {
    static let inputs: [(text: String, line: Int)] = [
        ("[", 1), ("[[[1]]]", 1), ("[[=", 1), ("# theme\n\n[", 3), ("a = 1\n[[b]]\n[b]\n", 3), ("x = [[[[[[", 1),
        (String(repeating: "[", count: 100_000), 1), ("name = \"\u{1B}[2J", 1),
    ]

    @Test(arguments: 0..<inputs.count)
    func everyTOMLReaderGivesFileAndLine(index: Int) {
        let (text, line) = Self.inputs[index]
        let readers: [(String, (String) throws(ConfigFileError) -> Void)] = [
            ("config", { text throws(ConfigFileError) in _ = try Config.parse(text, file: "bad.toml") }),
            ("theme", { text throws(ConfigFileError) in _ = try Theme.parse(text, file: "bad.toml") }),
            ("preset", { text throws(ConfigFileError) in _ = try SynthPreset.parse(text, file: "bad.toml") }),
        ]
        for (what, read) in readers {
            do {
                try read(text)
                Issue.record("\(what) accepted \(text.prefix(20))")
            } catch {
                #expect(error.file == "bad.toml" && error.line == line, "\(what): \(error)")
                #expect(error.message.hasPrefix("TOML syntax"), "\(what): \(error)")
                #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 }, "\(what): \(error)")
            }
        }
    }
}
