// The song panel at the monitor's size in the 80x24, 120x40 and 200x60 layouts, through the cell grid: the song's
// title beside the file name and not among the parts, the part names folded on word boundaries (never cut inside
// a word), the last bar at the song's end, and the piano roll of the next seconds where there is room.
@testable import TUI
@testable import Engine
import MIDI
import Testing

@Suite struct SongPanelLayoutTests {
    static let title = "A Song With A Rather Long Title"
    static let parts = ["Acoustic Grand Piano", "Fingered Electric Bass", "Slow String Ensemble", "Breathy Flute Solo",
                        "Standard Drum Kit", "Warm Synth Pad", "Muted Jazz Guitar", "Brass Section Stabs",
                        "Choir Aahs Backing", "Vibraphone Counterline"]

    /// Format 1, 96 ticks a quarter at 120 BPM, 4/4, 4 bars (8 s): a conductor track named with the title and
    /// two lyric lines; ten named parts; channel 1 plays C4 then E4 half a second each, channel 2 G2 for two
    /// seconds, channel 10 a hit on every beat.
    static func song() throws -> Song {
        func meta(_ tick: UInt64, _ type: UInt8, _ text: String) -> StandardMIDIFile.TrackEvent {
            .init(tick: tick, event: .meta(.init(type: type, data: Array(text.utf8))))
        }
        func note(_ tick: UInt64, _ length: UInt64, _ channel: UInt8, _ key: UInt8) -> [StandardMIDIFile.TrackEvent] {
            [.init(tick: tick, event: .message(.noteOn(NoteOn(channel: channel, note: key, velocity: 100)))),
             .init(tick: tick + length, event: .message(.noteOff(NoteOff(channel: channel, note: key, velocity: 0))))]
        }
        let end = StandardMIDIFile.TrackEvent(tick: 1536, event: .meta(.init(type: 0x2F, data: [])))
        var conductor = [meta(0, 0x03, title), .init(tick: 0, event: .meta(.init(type: 0x58, data: [4, 2, 24, 8])))]
        for (i, syllable) in ["Hel", "lo\r", "world ", "a", "gain"].enumerated() { conductor.append(meta(UInt64(i * 192), 0x05, syllable)) }
        var tracks = [conductor + [end]]
        for (i, name) in parts.enumerated() {
            var events = [meta(0, 0x03, name)]
            switch i {
            case 0: events += note(0, 96, 0, 60) + note(96, 96, 0, 64)
            case 1: events += note(0, 384, 1, 43)
            case 4: events += (0..<16).flatMap { note(UInt64($0 * 96), 24, 9, 36) }
            default: break
            }
            tracks.append(events + [end])
        }
        return Song(name: "song.mid", file: StandardMIDIFile(format: 1, division: .ticksPerQuarterNote(96), tracks: tracks))
    }

    static func status(_ song: Song, at position: Double) -> SongPlayer.Status {
        let place = song.place(at: position)
        return SongPlayer.Status(name: song.name, index: 0, count: 1, position: position, duration: song.duration, finished: false,
                                 late: 0, bar: place?.bar, beat: place?.beat)
    }

    /// The panel where the workstation puts it: over the monitor of a `width` x `height` screen.
    static func draw(_ song: Song, at position: Double, _ width: Int, _ height: Int) throws -> (rows: [String], height: Int) {
        let monitor = try #require(Layout.compute(width: width, height: height)).monitor
        let status = status(song, at: position)
        let panel = SongPanel.height(status, song: song, in: monitor)
        var grid = Grid(width: width, height: height)
        SongPanel.draw(status, song: song, into: &grid, rect: Rect(x: monitor.x, y: monitor.y, width: monitor.width, height: panel),
                       context: DrawContext(glyphs: .unicode, focused: false))
        #expect(grid.allPrintable)
        return ((monitor.y..<monitor.y + panel).map { grid.row($0) }, panel)
    }

    @Test func theTitleIsTheSongsAndThePartsAreTheTracks() throws {
        let text = try #require(try Self.song().text)
        #expect(text.title == Self.title)
        #expect(text.trackNames == Self.parts)
    }

    /// Every part name whole: folded onto more rows where the panel has them (120x40, 200x60); at 80x24, where
    /// the panel keeps its 7 rows, the list ends on a whole word and says it goes on.
    @Test func partNamesAreFoldedOnWordBoundariesNeverCutInsideAWord() throws {
        let song = try Self.song()
        let words = Set(Self.parts.flatMap { $0.split(separator: " ").map(String.init) } + ["tracks:", "BPM", "4/4", "120", "·"])
        for (width, height) in [(80, 24), (120, 40), (200, 60)] {
            let (rows, panel) = try Self.draw(song, at: 0, width, height)
            let shown = rows.joined(separator: "\n")
            #expect(rows[1].contains("song.mid") && !shown.contains("tracks: \(Self.title)"), "\(width)x\(height):\n\(shown)")
            // Each fact row is made of whole words only.
            let factRows = rows.filter { row in row.contains("BPM") || Self.parts.contains { row.contains($0.split(separator: " ")[0]) } }
            let insides = factRows.map { String($0.drop { $0 != "│" }.dropFirst().prefix { $0 != "│" }) }
            for word in insides.flatMap({ $0.split(separator: " ") }) {
                let bare = word.hasSuffix(",") ? String(word.dropLast()) : String(word)
                #expect(bare == "…" || words.contains(bare), "\(width)x\(height): \"\(bare)\" cut in\n\(shown)")
            }
            let facts = insides.map { $0.split(separator: " ").joined(separator: " ") }.joined(separator: " ")
            if width >= 120 {
                #expect(panel > 7)
                for part in Self.parts { #expect(facts.contains(part), "\(width)x\(height): \(part)\n\(shown)") }
                #expect(rows[1].contains(Self.title), "the title beside the file name:\n\(shown)")
            } else {
                #expect(panel == 7)
                #expect(facts.hasSuffix(" …"), "the cut list says it goes on:\n\(shown)")
            }
        }
    }

    /// At the song's very end the place is the last bar (4 of 4), not the one after it.
    @Test func theEndShowsTheLastBar() throws {
        let song = try Self.song()
        let (rows, _) = try Self.draw(song, at: song.duration, 120, 40)
        #expect(rows[1].contains("bar 4:4/4"), "\(rows.joined(separator: "\n"))")
    }

    /// The roll at 120x40 and 200x60, none at 80x24: a row per channel the song plays, the notes' letters where
    /// they start, a line while they are held, drum hits as lamps; a moment later the notes have moved left.
    @Test func thePianoRollShowsTheNextSecondsPerChannel() throws {
        let song = try Self.song()
        #expect(!(try Self.draw(song, at: 0, 80, 24).rows.contains { $0.contains(" 1 │") }))
        for (width, height) in [(120, 40), (200, 60)] {
            let rows = try Self.draw(song, at: 0, width, height).rows
            let shown = rows.joined(separator: "\n")
            let one = try #require(rows.first { $0.contains(" 1 │") }, "\(shown)")
            let two = try #require(rows.first { $0.contains(" 2 │") }, "\(shown)")
            let ten = try #require(rows.first { $0.contains("10 │") }, "\(shown)")
            let roll = { (row: String) in String(row.split(separator: "│", omittingEmptySubsequences: false)[2]) }
            #expect(roll(one).hasPrefix("C─") && roll(one).contains("─E─"), "\(one)")
            #expect(roll(two).hasPrefix("G──") && roll(two).filter { $0 == "─" }.count > 10, "G2 held for half the window: \(two)")
            #expect(roll(ten).filter { $0 == "●" }.count == 8, "a hit on each of the 8 beats in 4 s: \(ten)")
            #expect(!rows.contains { $0.contains(" 3 │") }, "channels without notes have no row")
            // Half a second on, C has passed: E starts the row.
            let later = try Self.draw(song, at: 0.5, width, height).rows
            let oneLater = try #require(later.first { $0.contains(" 1 │") })
            #expect(roll(oneLater).hasPrefix("E─"), "\(oneLater)")
        }
    }
}
