// A song's lyrics, markers and track names (`SongText`): a .kar file's text events (`\` a paragraph, `/` a
// line, `@` headers left out) and lyric meta events (a carriage return ends the line), line by line in time.
@testable import Engine
import MIDI
import Testing

@Suite struct SongTextTests {
    /// One track at 96 ticks a quarter, 120 BPM: each (quarter, type, text) a meta event.
    static func file(_ events: [(Int, UInt8, String)]) throws -> StandardMIDIFile {
        var track: [UInt8] = [], last = 0
        for (quarter, type, text) in events {
            let tick = quarter * 96, bytes = Array(text.utf8)
            var delta = tick - last, vlq = [UInt8(delta & 0x7F)]
            delta >>= 7
            while delta > 0 { vlq.insert(UInt8(delta & 0x7F) | 0x80, at: 0); delta >>= 7 }
            track += vlq + [0xFF, type, UInt8(bytes.count)] + bytes
            last = tick
        }
        track += [0x00, 0xFF, 0x2F, 0x00]
        let n = track.count
        return try StandardMIDIFile(bytes: Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8)
                                    + [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + track)
    }

    /// A .kar file as karaoke players write them: headers, then syllables, `\` and `/` breaking lines.
    static func karaoke() throws -> StandardMIDIFile {
        try file([(0, 0x03, "Melody"), (0, 0x01, "@KMIDI KARAOKE FILE"), (0, 0x01, "@TTwinkle"),
                  (1, 0x01, "\\Twin"), (2, 0x01, "kle "), (3, 0x01, "twin"), (4, 0x01, "kle"),
                  (5, 0x06, "Verse 2"), (5, 0x01, "/Lit"), (6, 0x01, "tle "), (7, 0x01, "star")])
    }

    @Test func karaokeTextEventsMakeLinesInTime() throws {
        let text = SongText(try Self.karaoke())
        #expect(text.lines.map(\.text) == ["Twinkle twinkle", "Little star"])
        #expect(text.lines.map(\.start) == [0.5, 2.5])
        #expect(text.title == "Melody" && text.trackNames.isEmpty, "a format 0 file's one name is its title")
        #expect(text.line(at: 0.2) == nil)
        #expect(text.line(at: 1.0)! == (0, 2))
        #expect(text.line(at: 3.0)! == (1, 2))
        #expect(text.marker(at: 2) == nil && text.marker(at: 2.5) == "Verse 2")
    }

    @Test func lyricEventsWinAndACarriageReturnEndsTheLine() throws {
        let text = SongText(try Self.file([(0, 0x01, "ignored text"), (1, 0x05, "Hel"), (2, 0x05, "lo\r"), (3, 0x05, "world")]))
        #expect(text.lines.map(\.text) == ["Hello", "world"])
        #expect(text.lines.map(\.start) == [0.5, 1.5])
        // A song read from the file keeps them, through an edit that keeps its times.
        var edit = SongEdit()
        edit.transpose = 2
        let song = Song(name: "k.kar", file: try Self.karaoke())
        #expect(edit.apply(to: song, file: nil).text == song.text)
    }
}
