// The song player without a server: the reader's frame arithmetic through a tempo map (the offline render's),
// and its events applied by the real-time context at their frames, equal to the offline render.
@testable import Engine
import DSP
import Foundation
import MIDI
import TestSupport
import Testing

@Suite struct SongPlayerTests {
    static let rate = 48_000.0

    /// 96 ticks a quarter: 120 BPM, a program change, a note at tick 96 (0.5 s), 240 BPM from tick 192 (1 s), a
    /// note on channel 2 at tick 288 (1.25 s), both off at tick 384 (1.5 s).
    static let tempoFile: [UInt8] = {
        let track: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x00, 0xC0, 0x05,
                              0x60, 0x90, 60, 100, 0x60, 0xFF, 0x51, 0x03, 0x03, 0xD0, 0x90,
                              0x60, 0x91, 64, 100, 0x60, 0x80, 60, 0, 0x00, 0x81, 64, 0, 0x00, 0xFF, 0x2F, 0x00]
        let length = [UInt8(track.count >> 24 & 0xFF), UInt8(track.count >> 16 & 0xFF), UInt8(track.count >> 8 & 0xFF), UInt8(track.count & 0xFF)]
        return Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + length + track
    }()

    static func song() throws -> Song { Song(name: "tempo.mid", file: try StandardMIDIFile(bytes: tempoFile)) }

    @Test func framesFollowTheTempoMap() throws {
        let schedule = SongSchedule(try Self.song(), sampleRate: Self.rate)
        #expect(schedule.events.map(\.frame) == [0, 24_000, 60_000, 72_000, 72_000])
        #expect(schedule.events.map(\.message.status) == [0xC0, 0x90, 0x91, 0x80, 0x81])
        #expect(schedule.length == 72_000)
        // The render's own conversion gives the same frames.
        #expect(schedule.events == OfflineRenderer.framed(try Self.song().messages, sampleRate: Self.rate))
        // Frame times wrap as JACK's do.
        let start = UInt32.max - 9_999
        #expect(schedule.frameTime(of: 1, start: start) == 14_000)
        #expect(schedule.playerEvent(2, start: 100, toSynth: false) == PlayerEvent(frameTime: 60_100, message: schedule.events[2].message, toSynth: false))
    }

    @Test func aSysexEventCarriesItsLength() {
        let sysex: [UInt8] = [0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x00, 0x40, 0xF7]
        let song = Song(name: "s", messages: [TimedMessage(seconds: 0.25, sysex: sysex)], duration: 0)
        let schedule = SongSchedule(song, sampleRate: Self.rate)
        #expect(schedule.length == 12_000)
        #expect(schedule.playerEvent(0, start: 0, toSynth: true).sysexLength == 8)
    }

    /// Periods as the ALSA PCM thread runs them (the player's events the only MIDI), from `base` on.
    static func playLive(_ song: Song, start: UInt32, base: UInt32, frames: Int, period: Int = 256,
                         prefill: (RealtimeContext) -> Void = { _ in }) -> (left: [Float], late: Int) {
        let synth = Synth()
        synth.prepare(sampleRate: rate, maxFrames: period)
        let context = RealtimeContext(synth: synth)
        context.maxFrames = period
        let schedule = SongSchedule(song, sampleRate: rate)
        prefill(context)
        for i in schedule.events.indices {
            let bytes = schedule.events[i].sysex
            if !bytes.isEmpty { _ = bytes.withUnsafeBufferPointer { context.playerSysexRing.push(contentsOf: $0) } }
            #expect(context.playerRing.push(schedule.playerEvent(i, start: start, toSynth: true)))
        }
        let left = renderInPeriods(frames: frames, period: period) { done, n, l, r in
            context.process(frames: n, left: l, right: r, periodStart: base &+ UInt32(done))
        }.left
        return (left, context.counters.playerLate.load(ordering: .relaxed))
    }

    @Test func eventsPlayAtTheirFramesAsTheRenderDoes() throws {
        let song = try Self.song()
        // The song starts 1000 frames (not a whole period) into the stream, whose frame times wrap on the way.
        let base = UInt32.max - 20_000
        let live = Self.playLive(song, start: base &+ 1_000, base: base, frames: 90_000)
        let offline = OfflineRenderer.render(song.messages, sampleRate: Self.rate, periodFrames: 256, maxTail: 0, padding: 0).left
        #expect(live.late == 0)
        #expect(live.left[..<1_000].allSatisfy { $0 == 0 })
        let n = min(offline.count, live.left.count - 1_000)
        let difference = zip(live.left[1_000..<(1_000 + n)], offline[..<n]).map { abs($0 - $1) }.max() ?? 1
        #expect(difference < 1e-5, "live differs from the render by \(difference)")
        // The first note sounds exactly 24000 frames after the song's start, in both.
        #expect(live.left[1_000 + 23_999] == 0 && live.left[1_000 + 24_000 + 8] != 0)
    }

    @Test func anEventWhoseFrameHasPassedPlaysAtOnceAndCountsLate() {
        let song = Song(name: "late", messages: [TimedMessage(seconds: 0, message: ShortMessage(status: 0x90, data1: 60, data2: 100))], duration: 0.1)
        let live = Self.playLive(song, start: 500, base: 1_000, frames: 512)
        #expect(live.late == 1)
        #expect(live.left[..<64].contains { $0 != 0 })
    }

    /// A transport request starts a new generation: what was pushed before it is dropped unplayed, sysex
    /// bytes included, and the new generation's events play.
    @Test func eventsOfAnOlderGenerationAreDroppedUnplayed() {
        let synth = Synth()
        synth.prepare(sampleRate: Self.rate, maxFrames: 256)
        let context = RealtimeContext(synth: synth)
        context.maxFrames = 256
        let sysex: [UInt8] = [0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x00, 0x00, 0xF7]  // master volume 0
        _ = sysex.withUnsafeBufferPointer { context.playerSysexRing.push(contentsOf: $0) }
        #expect(context.playerRing.push(PlayerEvent(frameTime: 10, message: ShortMessage(status: 0xF0), sysexLength: 8)))
        #expect(context.playerRing.push(PlayerEvent(frameTime: 20, message: ShortMessage(status: 0x90, data1: 60, data2: 100))))
        context.playerGeneration.store(1, ordering: .releasing)
        var fresh = PlayerEvent(frameTime: 300, message: ShortMessage(status: 0x90, data1: 67, data2: 100))
        fresh.generation = 1
        #expect(context.playerRing.push(fresh))
        var left = [Float](repeating: 0, count: 512), right = left
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                context.process(frames: 256, left: l.baseAddress!, right: r.baseAddress!, periodStart: 0)
                context.process(frames: 256, left: l.baseAddress! + 256, right: r.baseAddress! + 256, periodStart: 256)
            }
        }
        #expect(left[..<300].allSatisfy { $0 == 0 }, "the older generation's note sounded")
        #expect(left[300...].contains { $0 != 0 }, "the new generation's note (at full master volume) did not")
        #expect(context.playerSysexRing.isEmpty)
        #expect(context.counters.playerLate.load(ordering: .relaxed) == 0)
    }
}
