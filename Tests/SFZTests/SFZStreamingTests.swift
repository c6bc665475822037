import CSndFile
import DSP
import Foundation
import MIDI
import Testing
import TestSupport
@testable import SFZ

/// An SFZ instrument bigger than its sample cache, streamed (SampleStreamStore): heads in memory from the
/// load, rests read when a note asks, late voices ended and counted, evictions sparing the samples that play.
@Suite struct SFZStreamingTests {
    static let head = 4096
    static let frames = 48_000

    /// Two mono 48 kHz files whose first `head` frames are a 440 Hz sine and the rest 880 Hz (the tail's pitch
    /// tells the streamed part), on keys 60 and 62 at their own pitch; streamed with a cache of `limit` bytes.
    static func instrument(limit: Int) throws -> (sfz: SFZSoundFont, store: SampleStreamStore, samples: [Float]) {
        let folder = try temporaryFolder()
        let samples = sine(frames: head, hertz: 440, rate: 48_000) + sine(frames: frames - head, hertz: 880, rate: 48_000)
        for name in ["a", "b"] {
            try writeSoundFile(folder + "/\(name).wav", format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), channels: 1, rate: 48_000, samples: samples)
        }
        let text = "<region> sample=a.wav key=60 pitch_keycenter=60 ampeg_release=0.01\n<region> sample=b.wav key=62 pitch_keycenter=62 ampeg_release=0.01"
        let sfz = try writeInstrument(text, in: folder).soundFont(sampleCacheBytes: limit, headFrames: head)
        return (sfz, try #require(sfz.font.sampleStream), samples)
    }

    /// A synth playing `sfz` on channel 1, rendered 256 frames a block by `play`.
    final class Player {
        let synth: Synth
        let store: SampleStreamStore
        var left: [Float] = []
        init(_ sfz: SFZSoundFont, _ store: SampleStreamStore) {
            synth = Synth(voices: 16, soundFont: sfz.font.pinning([0: sfz.channelPresetKeys[0]], played: 1))
            synth.setEffects(reverb: false, chorus: false)
            synth.prepare(sampleRate: 48_000, maxFrames: 256)
            self.store = store
        }
        /// `blocks` blocks; between them the loader's work is done when `serve` (as an offline render does).
        func play(blocks: Int, serve: Bool) {
            var l = [Float](repeating: 0, count: 256), r = l
            for _ in 0..<blocks {
                synth.render(left: &l, right: &r, frames: 256)
                left += l
                if serve { store.catchUp() }
            }
        }
    }

    static func pcm16(_ x: Float) -> Int16 { Int16(min(max((Double(x) * 32768).rounded(.down), -32768), 32767)) }

    @Test func headsAreResidentAndARestIsReadWhenANoteAsks() throws {
        let (sfz, store, samples) = try Self.instrument(limit: 1)
        #expect(store.units.count == 2)
        for u in 0..<2 {
            #expect(store.loadedFrames(u) == Self.head && !store.isWhole(u))
            let start = store.units[u].start
            // The head as the file has it; past it nothing read yet.
            #expect(abs(Int(store.sampleData[start + 1000]) - Int(Self.pcm16(samples[1000]))) <= 2)
            #expect((Self.head..<Self.head + 2048).allSatisfy { store.sampleData[start + $0] == 0 })
        }
        let player = Player(sfz, store)
        player.synth.handle(.noteOn(60, velocity: 127))
        player.play(blocks: 1, serve: false)
        #expect(!store.isIdle) // asked for, not read yet
        store.catchUp()
        #expect(store.isWhole(0) && !store.isWhole(1))
        let start = store.units[0].start
        for f in [Self.head, Self.head + 777, Self.frames - 1] {
            #expect(abs(Int(store.sampleData[start + f]) - Int(Self.pcm16(samples[f]))) <= 2, "frame \(f)")
        }
        #expect(store.status.streamedBytes == (Self.frames - Self.head) * 2)
        #expect(store.status.lateVoices == 0)
    }

    @Test func aStreamedNotePlaysItsTail() throws {
        let (sfz, store, _) = try Self.instrument(limit: 1)
        let player = Player(sfz, store)
        player.synth.handle(.noteOn(60, velocity: 127))
        player.play(blocks: 150, serve: true) // 0.8 s: well past the head (85 ms)
        #expect(store.status.lateVoices == 0)
        let tail = AudioComparison.strongestFrequency(player.left[9600..<28800], rate: 48_000, low: 300, high: 1000)
        #expect(abs(tail.frequency - 880) < 5, "\(tail.frequency) Hz")
    }

    @Test func aStreamedRenderIsTheWholeOnesSampleForSample() throws {
        let (sfz, store, _) = try Self.instrument(limit: 1)
        let folder = try temporaryFolder()
        let samples = sine(frames: Self.head, hertz: 440, rate: 48_000) + sine(frames: Self.frames - Self.head, hertz: 880, rate: 48_000)
        try writeSoundFile(folder + "/a.wav", format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), channels: 1, rate: 48_000, samples: samples)
        try writeSoundFile(folder + "/b.wav", format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), channels: 1, rate: 48_000, samples: samples)
        let text = "<region> sample=a.wav key=60 pitch_keycenter=60 ampeg_release=0.01\n<region> sample=b.wav key=62 pitch_keycenter=62 ampeg_release=0.01"
        let whole = try writeInstrument(text, in: folder).soundFont()
        #expect(whole.font.sampleStream == nil)
        let streamed = Player(sfz, store), loaded = Player(whole, store)
        for player in [streamed, loaded] {
            player.synth.handle(.noteOn(60, velocity: 100))
            player.play(blocks: 20, serve: true)
            player.synth.handle(.noteOn(62, velocity: 90))
            player.play(blocks: 150, serve: true)
        }
        #expect(store.status.lateVoices == 0)
        #expect(AudioComparison.rms(streamed.left[9600...]) > 0.01)
        #expect(streamed.left == loaded.left)
    }

    @Test func aLateVoiceIsCountedAndEndsSilent() throws {
        let (sfz, store, _) = try Self.instrument(limit: 1)
        let player = Player(sfz, store)
        player.synth.handle(.noteOn(60, velocity: 127))
        player.play(blocks: 40, serve: false) // the loader never runs: the voice reaches the end of its head
        #expect(store.status.lateVoices == 1)
        // Its head sounded (440 Hz), then silence: it ended before the unread frames, not reading them.
        let head = AudioComparison.strongestFrequency(player.left[512..<3584], rate: 48_000, low: 300, high: 1000)
        #expect(abs(head.frequency - 440) < 10, "\(head.frequency) Hz")
        #expect(AudioComparison.rms(player.left[4352...]) == 0)
        #expect(player.synth.activeVoiceCount == 0)
    }

    @Test func evictionSparesASampleAVoicePlays() throws {
        // Room for the heads and one rest.
        let rest = (Self.frames + SFZSampleData.padding - Self.head) * 2, heads = 2 * (Self.head + SFZSampleData.padding) * 2
        let (sfz, store, _) = try Self.instrument(limit: heads + rest + 100)
        let player = Player(sfz, store)
        player.synth.handle(.noteOn(60, velocity: 127))
        player.play(blocks: 4, serve: true)
        #expect(store.isWhole(0))
        // 62 while 60 sounds: 60's rest stays (a voice plays it), so both are whole, over the bound for now.
        player.synth.handle(.noteOn(62, velocity: 127))
        player.play(blocks: 4, serve: true)
        #expect(store.isWhole(0) && store.isWhole(1) && store.status.evictions == 0)
        // 60 let go: once its voice is gone its rest is evicted (62's, still sounding, is not); the head stays.
        player.synth.handle(.noteOff(60))
        player.play(blocks: 20, serve: true)
        for _ in 0..<4 { player.play(blocks: 1, serve: false); store.service() }
        #expect(store.status.evictions == 1)
        #expect(store.loadedFrames(0) == Self.head && store.isWhole(1))
        #expect(store.status.residentBytes <= heads + rest + 100)
        #expect(store.status.lateVoices == 0)
        #expect(store.sampleData[store.units[0].start + 100] != 0)
    }
}
