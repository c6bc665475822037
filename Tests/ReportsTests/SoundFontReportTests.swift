import DSP
import Foundation
import Reports
import Testing

/// TimGM6mb, the small General MIDI font of Debian's timgm6mb-soundfont (`scripts/setup test`).
private let timGM6mb = "/usr/share/sounds/sf2/TimGM6mb.sf2"

/// `backbeat soundfont info`'s report, line for line.
@Suite struct SoundFontReportTests {
    @Test func saysMebibytesWithOneDecimal() {
        #expect(SoundFontReport.mebibytes(2_621_440) == "2.5 MiB")
        #expect(SoundFontReport.mebibytes(0) == "0.0 MiB")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: timGM6mb)))
    func listsAFontsPresets() throws {
        let font = try SoundFont.load(path: timGM6mb)
        let text = SoundFontReport(files: [timGM6mb], json: false).lines(font)
        #expect(text.count == 2 + 136)
        #expect(Array(text.prefix(4)) == ["name: TimGM6mb1.sf2", "presets: 136", "0:0 Piano 1", "0:1 Piano 2"])
        let json = SoundFontReport(files: [timGM6mb], json: true).lines(font)
        #expect(Array(json.prefix(2)) == [
            #"{"type":"font","path":"/usr/share/sounds/sf2/TimGM6mb.sf2","name":"TimGM6mb1.sf2","presets":136,"zones":2063,"samples":520,"sampleFrames":2882168,"24bit":false}"#,
            #"{"type":"preset","bank":0,"program":0,"name":"Piano 1","zones":33}"#,
        ])
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: timGM6mb)))
    func marksThePresetsAHigherFontShadows() throws {
        let fonts = [try SoundFont.load(path: timGM6mb), try SoundFont.load(path: timGM6mb)]
        let report = SoundFontReport(files: [timGM6mb, timGM6mb], json: false)
        let text = report.stackLines(fonts)
        #expect(Array(text.prefix(6)) == [
            "stack: 2 fonts, the last named on top; a preset is looked up from the top down",
            "",
            "font 2 (top): /usr/share/sounds/sf2/TimGM6mb.sf2",
            "name: TimGM6mb1.sf2",
            "presets: 136, 136 played, 0 shadowed",
            "0:0 Piano 1",
        ])
        let bottom = try #require(text.firstIndex(of: "font 1 (bottom): /usr/share/sounds/sf2/TimGM6mb.sf2"))
        #expect(text[bottom + 2] == "presets: 136, 0 played, 136 shadowed")
        #expect(text[bottom + 3] == "0:0 Piano 1 (shadowed by TimGM6mb.sf2)")
        #expect(Array(text.suffix(2)) == ["", "stack presets: 136"])
        let json = SoundFontReport(files: [timGM6mb, timGM6mb], json: true).stackLines(fonts)
        #expect(json.first == #"{"type":"font","path":"/usr/share/sounds/sf2/TimGM6mb.sf2","name":"TimGM6mb1.sf2","presets":136,"zones":2063,"samples":520,"sampleFrames":2882168,"24bit":false,"layer":1,"top":true}"#)
        #expect(json.last == #"{"type":"stack","fonts":2,"presets":136}"#)
    }
}
