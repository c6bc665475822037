// The channel mixer panel through the cell grid: 16 strips at 200x60 in one column, folded into two at 80x24,
// the keys' effect on its flags and offsets, and program names that are never cut mid-word.
@testable import TUI
import DSP
@testable import Engine
import MIDI
import Testing

@Suite struct MixerPanelTests {
    @Test func sixteenStripsFoldAt80x24AndAreOneColumnAt200x60() {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        engine.midi(0xC1, 33)  // channel 2: fingered bass
        w.tick(now: 0)
        w.handle(.char("O"), layout: nil, now: 0)
        #expect(w.mixer.shown)
        let small = render(w, 80, 24)
        #expect(small.contains(" Mixer "))
        // Two columns: channels 1 and 9 on the same row, 8 and 16 on the last.
        let rows = (0..<24).map { small.row($0) }
        #expect(rows.contains { $0.contains(" 1 ") && $0.contains(" 9 ") }, "\(rows.joined(separator: "\n"))")
        #expect(rows.contains { $0.contains(" 8 ") && $0.contains("16 ") })
        #expect(small.contains("33 ") && small.contains("drum kit"))
        #expect(small.allPrintable)
        let big = render(w, 200, 60)
        let bigRows = (0..<60).map { big.row($0) }
        #expect(bigRows.contains { $0.contains("16 ") && !$0.contains(" 8 ") })
        #expect(!bigRows.contains { $0.contains(" 1 ") && $0.contains(" 9 ") })
    }

    @Test func keysMuteSoloAndOffsetTheSelectedChannel() throws {
        let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
        w.handle(.char("O"), layout: nil, now: 0)
        w.handle(.char("j"), layout: nil, now: 0)  // channel 2
        w.handle(.char("m"), layout: nil, now: 0)
        #expect(w.mixer.muted == 0b10)
        #expect(w.statusMessage.contains("channel 2 muted"))
        w.handle(.char("j"), layout: nil, now: 0)  // channel 3
        w.handle(.char("s"), layout: nil, now: 0)
        #expect(w.mixer.silenced == ~UInt16(0b100))
        w.handle(.right, layout: nil, now: 0)
        w.handle(.right, layout: nil, now: 0)
        w.handle(.char("<"), layout: nil, now: 0)
        #expect(w.mixer.volumeDB[2] == 2 && w.mixer.pan[2] == -8)
        let grid = render(w, 120, 40)
        #expect((0..<40).contains { grid.row($0).contains("3") && grid.row($0).contains(" S ") && grid.row($0).contains(" +2 L8") })
        w.handle(.char("0"), layout: nil, now: 0)
        #expect(w.mixer.volumeDB[2] == 0 && w.mixer.pan[2] == 0)
        // What a preset keeps of it, and loading it back.
        let saved = try #require(w.mixer.presetMixer)
        #expect(saved.muted == [2] && saved.soloed == [3])
        var fresh = MixerState()
        fresh.load(saved)
        #expect(fresh.silenced == w.mixer.silenced)
        // Esc hides it, and the monitor is back.
        w.handle(.escape, layout: nil, now: 0)
        #expect(!w.mixer.shown)
        #expect(render(w, 120, 40).contains("MIDI monitor"))
    }

    /// A preset's or NSM session's mixer is set on the engine before the screen opens: the panel starts from
    /// it, and each key's change goes back to the engine whole (mute and solo apart), which a session save reads.
    @Test func theMixerStartsFromTheEnginesSettingsAndKeysGoBackToIt() {
        let engine = FakeEngine()
        var volume = [Int](repeating: 0, count: 16)
        volume[4] = -12
        engine.mixerSettings = ChannelMixerSettings(muted: 0b1000, soloed: 0, volumeDB: volume)
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        #expect(w.mixer.muted == 0b1000 && w.mixer.volumeDB[4] == -12)
        w.handle(.char("O"), layout: nil, now: 0)
        let grid = render(w, 120, 40)
        #expect((0..<40).contains { grid.row($0).contains(" 5 ") && grid.row($0).contains("-12") }, "channel 5's offset shown")
        w.handle(.char("j"), layout: nil, now: 0)  // channel 2
        w.handle(.char("s"), layout: nil, now: 0)
        #expect(engine.mixerSettings == ChannelMixerSettings(muted: 0b1000, soloed: 0b10, volumeDB: volume))
        #expect(engine.mixerSettings.silenced == ~UInt16(0b10))
    }
}

/// The song panel through the cell grid: place, bar, progress, tempo and signature, marker, and the lyrics.
@Suite struct SongPanelTests {
    @Test func showsWhereTheSongIsAndItsLyricsInTime() throws {
        var track: [UInt8] = [0x00, 0xFF, 0x58, 0x04, 3, 2, 24, 8]
        for (delta, type, text) in [(96, UInt8(0x05), "Twin"), (96, 0x05, "kle\r"), (0, 0x06, "Chorus"), (96, 0x05, "Lit"), (96, 0x05, "tle")] {
            track += [UInt8(delta), 0xFF, type, UInt8(text.utf8.count)] + Array(text.utf8)
        }
        track += [0x60, 0x90, 60, 100, 0x83, 0x00, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00]
        let n = track.count
        let file = try StandardMIDIFile(bytes: Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, UInt8(n >> 8), UInt8(n & 0xFF)] + track)
        let song = Song(name: "song.kar", file: file)
        let place = try #require(song.bars?.place(at: 1.6))
        let status = SongPlayer.Status(name: "song.kar", index: 0, count: 1, position: 1.6, duration: song.duration, finished: false,
                                       late: 0, bar: place.bar, beat: place.beat)
        var grid = Grid(width: 60, height: 9)
        SongPanel.draw(status, song: song, into: &grid, rect: Rect(x: 0, y: 0, width: 60, height: 7), context: DrawContext(glyphs: .unicode, focused: false))
        let rows = (0..<7).map { grid.row($0) }
        #expect(rows[1].contains("song.kar") && rows[1].contains("0:01/0:04") && rows[1].contains("bar 2:1/3"), "\(rows.joined(separator: "\n"))")
        #expect(rows[2].contains("█") && rows[2].contains("·"))
        #expect(rows[3].contains("120 BPM") && rows[3].contains("3/4") && rows[3].contains("marker: Chorus"))
        // At 1.6 s: "Twinkle" sung, "Lit" begun (1.5 s), "tle" next.
        #expect(rows[4].contains("Twinkle"))
        #expect(rows[5].contains("Little"))
        #expect(grid.allPrintable)
    }
}
