// What `play` and `render` change in a song (`SongEdit`): bars through time signatures and tempo, the chase
// before a start point, tempo, transposition, mute and solo; and a start at a bar sounds as that bar of a play
// from the top.
@testable import Engine
import DSP
import Foundation
import MIDI
import TestSupport
import Testing

@Suite struct SongEditTests {
    static func file(_ track: [UInt8], division: UInt16 = 96) throws -> StandardMIDIFile {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let bytes = Array("MThd".utf8) + be32(6) + [0, 0, 0, 1, UInt8(division >> 8), UInt8(division & 0xFF)]
            + Array("MTrk".utf8) + be32(track.count + 4) + track + [0x00, 0xFF, 0x2F, 0x00]
        return try StandardMIDIFile(bytes: bytes)
    }

    @Test func barsFollowTimeSignaturesAndTempo() throws {
        // 4/4 at 120 BPM; 60 BPM from bar 2 (tick 384); 3/4 from bar 3 (tick 768).
        let file = try Self.file([0x00, 0xFF, 0x58, 0x04, 4, 2, 24, 8,
                                  0x83, 0x00, 0xFF, 0x51, 0x03, 0x0F, 0x42, 0x40,
                                  0x83, 0x00, 0xFF, 0x58, 0x04, 3, 2, 24, 8,
                                  0x8E, 0x00, 0x90, 60, 100])
        #expect(file.seconds(atBar: 1) == 0)
        #expect(file.seconds(atBar: 2) == 2)
        #expect(file.seconds(atBar: 3) == 6)
        #expect(file.seconds(atBar: 4) == 9)
        #expect(file.seconds(atBar: 0) == nil)
        let bars = try #require(BarClock(file))
        #expect([0, 1.99, 2, 5.9, 6, 8.9, 9, 10].map { bars.bar(at: $0) } == [1, 1, 2, 2, 3, 3, 4, 4])
        // Bar and beat (a quarter, at 60 BPM from bar 2: a second), time signature and tempo as they change.
        #expect(bars.place(at: 0.25) == (1, 1.5))
        #expect(bars.place(at: 7.5) == (3, 2.5))
        #expect(bars.signature(at: 1) == (4, 4) && bars.signature(at: 7) == (3, 4))
        #expect(bars.bpm(at: 1) == 120 && bars.bpm(at: 3) == 60)
    }

    /// At the very end of a song (where the player's position stops) the place is the last bar, not the one after.
    @Test func theEndOfASongIsInItsLastBar() throws {
        // Two 4/4 bars at 120 BPM: a note from 0 to the end of bar 2 (tick 768, 4 s).
        let file = try Self.file([0x00, 0xFF, 0x58, 0x04, 4, 2, 24, 8, 0x00, 0x90, 60, 100, 0x86, 0x00, 0x80, 60, 0])
        let song = Song(name: "two bars", file: file)
        #expect(song.duration == 4)
        #expect(song.bars?.bar(at: 4) == 3, "the bar clock alone goes on to the next bar")
        let end = try #require(song.place(at: song.duration))
        #expect(end.bar == 2 && Int(end.beat) == 4, "\(end)")
        #expect(song.place(at: 2.25).map { $0.bar == 2 && $0.beat == 1.5 } == true)
        #expect(song.lengthText == "2 bars, 0:04")
    }

    @Test func aResetPutsBackWhatTheSongsChangedOnTheirChannels() {
        var reset = ChannelReset()
        #expect(reset.messages.isEmpty)
        reset.add(Song(name: "s", messages: [
            TimedMessage(seconds: 0, message: Self.short(0xC0, 24)),
            TimedMessage(seconds: 0, message: Self.short(0xB0, 7, 50)),
            TimedMessage(seconds: 0, message: Self.short(0xB2, 101, 0)),
            TimedMessage(seconds: 0, message: Self.short(0xB2, 74, 90)),
            TimedMessage(seconds: 1, message: Self.short(0x92, 60, 100)),
        ], duration: 2))
        #expect(!reset.system)
        let messages = reset.messages.map { [$0.0, $0.1, $0.2] }
        #expect(messages.filter { $0[0] & 0x0F == 0 } == [[0xB0, 123, 0], [0xB0, 121, 0], [0xB0, 0, 0], [0xB0, 32, 0], [0xC0, 0, 0], [0xB0, 7, 100]])
        let three = messages.filter { $0[0] & 0x0F == 2 }
        #expect(three.prefix(2) == [[0xB2, 123, 0], [0xB2, 121, 0]])
        #expect(three.contains([0xB2, 6, 2]) && three.contains([0xB2, 101, 127]) && three.last == [0xB2, 74, 64])
        #expect(!messages.contains { $0[0] & 0x0F == 1 })
        reset.add(Song(name: "t", messages: [TimedMessage(seconds: 0, sysex: [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7])], duration: 1))
        #expect(reset.system)
    }

    @Test func startTimesAreParsed() {
        #expect(SongStart("3") == .bar(3))
        #expect(SongStart("1:05") == .seconds(65))
        #expect(SongStart("0:30.5") == .seconds(30.5))
        for bad in ["0", "-1", "1:5", "1:60", "x", ":30", "1:2x"] { #expect(SongStart(bad) == nil, "\(bad)") }
    }

    static func short(_ status: UInt8, _ d1: UInt8, _ d2: UInt8 = 0) -> ShortMessage { ShortMessage(status: status, data1: d1, data2: d2) }

    /// An edit of the given fields, the rest as `SongEdit()` has them.
    static func edit(start: SongStart? = nil, tempo: Double = 1, transpose: Int = 0, muted: Set<UInt8> = [],
                     soloed: Set<UInt8> = []) -> SongEdit {
        var edit = SongEdit()
        edit.start = start; edit.tempo = tempo; edit.transpose = transpose; edit.muted = muted; edit.soloed = soloed
        return edit
    }

    @Test func theStartChasesStateAndLeavesOutEarlierNotes() {
        let song = Song(name: "s", messages: [
            TimedMessage(seconds: 0, message: Self.short(0xC0, 24)),
            TimedMessage(seconds: 1, message: Self.short(0xB0, 7, 50)),
            TimedMessage(seconds: 1.5, message: Self.short(0x90, 60, 100)),
            TimedMessage(seconds: 1.6, sysex: [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]),
            TimedMessage(seconds: 2.5, message: Self.short(0xE0, 0, 80)),
            TimedMessage(seconds: 3, message: Self.short(0x90, 62, 100)),
        ], duration: 4)
        let edit = Self.edit(start: .seconds(2))
        let edited = edit.apply(to: song, file: nil)
        #expect(edited.messages.map(\.seconds) == [0, 0, 0, 0.5, 1])
        #expect(edited.messages.map(\.message.status) == [0xC0, 0xB0, 0xF0, 0xE0, 0x90])
        #expect(edited.duration == 2)
    }

    @Test func tempoTransposeMuteAndSolo() {
        let song = Song(name: "s", messages: [
            TimedMessage(seconds: 1, message: Self.short(0x90, 60, 100)),
            TimedMessage(seconds: 1, message: Self.short(0x99, 36, 100)),
            TimedMessage(seconds: 2, message: Self.short(0x91, 127, 100)),
            TimedMessage(seconds: 2, message: Self.short(0xB1, 7, 100)),
        ], duration: 3)
        let faster = Self.edit(tempo: 2, transpose: 5).apply(to: song, file: nil)
        // Drums stay; a note moved past 127 is left out; controllers stay.
        #expect(faster.messages.map(\.seconds) == [0.5, 0.5, 1])
        #expect(faster.messages.map(\.message.data1) == [65, 36, 7])
        #expect(faster.duration == 1.5)
        #expect(Self.edit(muted: [0]).apply(to: song, file: nil).messages.map(\.message.status) == [0x99, 0x91, 0xB1])
        #expect(Self.edit(soloed: [9]).apply(to: song, file: nil).messages.map(\.message.status) == [0x99, 0xB1])
    }

    @Test func transposeSparesEveryDrumPartAtItsTime() {
        let gsDrums: (UInt8) -> [UInt8] = { part in [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x10 | part, 0x15, 0x01, 0x00, 0xF7] }
        let song = Song(name: "s", messages: [
            TimedMessage(seconds: 0, message: Self.short(0x92, 60, 100)),        // ch 3 melodic
            TimedMessage(seconds: 0.5, sysex: gsDrums(3)),                        // GS part 3 a rhythm part
            TimedMessage(seconds: 1, message: Self.short(0x92, 36, 100)),        // ch 3 drums
            TimedMessage(seconds: 1, message: Self.short(0xB4, 0, 127)),         // ch 5 XG drum kit bank
            TimedMessage(seconds: 1, message: Self.short(0x94, 38, 100)),
            TimedMessage(seconds: 1, message: Self.short(0xB9, 0, 121)),         // ch 10 GM2 melodic bank
            TimedMessage(seconds: 1, message: Self.short(0x99, 60, 100)),
            TimedMessage(seconds: 2, sysex: [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]), // GM System On: all as at power-on
            TimedMessage(seconds: 2, message: Self.short(0x92, 60, 100)),
            TimedMessage(seconds: 2, message: Self.short(0x94, 60, 100)),
            TimedMessage(seconds: 2, message: Self.short(0x99, 36, 100)),
        ], duration: 3)
        let notes = Self.edit(transpose: 2).apply(to: song, file: nil).messages.filter { $0.message.kind == .noteOn }.map(\.message.data1)
        #expect(notes == [62, 36, 38, 62, 62, 62, 36])
    }

    @Test func aStartPastTheEndIsRefusedWithTheSongsLength() throws {
        // Two bars of 4/4 at 120 BPM: 4 s.
        let file = try Self.file([0x00, 0x90, 60, 100, 0x86, 0x00, 0x80, 60, 0x00])
        let song = Song(name: "two.mid", file: file)
        #expect(song.lengthText == "2 bars, 0:04")
        func refusal(_ start: SongStart) -> String? {
            let edit = Self.edit(start: start)
            return edit.startRefusal(for: song, file: file)
        }
        #expect(refusal(.bar(2)) == nil)
        #expect(refusal(.seconds(3.9)) == nil)
        #expect(refusal(.bar(3)) == "--start bar 3 is past the end of two.mid, which is 2 bars, 0:04 long")
        #expect(refusal(.seconds(4)) == "--start 0:04 is past the end of two.mid, which is 2 bars, 0:04 long")
        #expect(refusal(.seconds(64.5)) == "--start 1:04.5 is past the end of two.mid, which is 2 bars, 0:04 long")
    }

    /// A song whose program, volume, bend range and bend change before bar 3; notes on bars 1 to 4.
    static func changingSong() throws -> StandardMIDIFile {
        try file([0x00, 0xC0, 0x00, 0x00, 0x90, 60, 100, 0x60, 0x80, 60, 0,
                  0x82, 0x20, 0xC0, 40, 0x00, 0xB0, 7, 70, 0x00, 0xB0, 101, 0, 0x00, 0xB0, 100, 0, 0x00, 0xB0, 6, 12,
                  0x00, 0xE0, 0x00, 0x50, 0x00, 0x90, 64, 100, 0x60, 0x80, 64, 0,
                  0x82, 0x20, 0x90, 67, 100, 0x60, 0x80, 67, 0, 0x82, 0x20, 0x90, 72, 90, 0x60, 0x80, 72, 0])
    }

    @Test func aStartAtABarSoundsAsThatBarOfTheWholeSong() throws {
        let file = try Self.changingSong()
        let rate = 48_000.0
        let whole = Song(name: "s", file: file)
        let full = OfflineRenderer.render(whole.messages, sampleRate: rate, periodFrames: 256, padding: 0).left
        for bar in 3...4 {
            let edit = Self.edit(start: .bar(bar))
            let from = try #require(file.seconds(atBar: bar))
            let part = OfflineRenderer.render(edit.apply(to: whole, file: file).messages, sampleRate: rate, periodFrames: 256, padding: 0).left
            let offset = Int((from * rate).rounded())
            let window = 12_000
            // The same note at the same frame of the bar, as loud (within 1 dB).
            let a = AudioAnalysis.rmsDecibels(part[0..<window]), b = AudioAnalysis.rmsDecibels(full[offset..<(offset + window)])
            #expect(abs(a - b) <= 1, "bar \(bar): \(a) dB from the bar, \(b) dB in the whole song")
            let pitchA = AudioAnalysis.dominantFrequency(part[0..<window], sampleRate: Int(rate), low: 100, high: 2_000)
            let pitchB = AudioAnalysis.dominantFrequency(full[offset..<(offset + window)], sampleRate: Int(rate), low: 100, high: 2_000)
            #expect(abs(pitchA - pitchB) < 2, "bar \(bar): \(pitchA) Hz from the bar, \(pitchB) Hz in the whole song")
        }
    }
}
