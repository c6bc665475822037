// The live loader of a SoundFont 3 font's samples: it decodes the presets the channels start with, then the
// preset a program change selects, on its own thread; nothing else is decoded. A sample whose Ogg stream does
// not decode is named once and left out, the others decode, and its notes are reported as such.
import Foundation
import Synchronization
import Testing
@testable import DSP
@testable import Engine
import MIDI
import TestSupport

@Suite(.needs(file: fluidR3Mono, package: "fluidr3mono-gm-soundfont"))
struct SoundFontSampleLoaderTests {
    /// `font`'s sample cache and a synth playing it, with the samples its channels 1 and 10 start on (piano, drums).
    func prepared(_ font: SoundFont) throws -> (SoundFontSampleStore, Synth, piano: Set<Int>, drums: Set<Int>) {
        let store = try #require(font.sampleStore)
        let synth = Synth(voices: 64, soundFont: font)
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        return (store, synth, font.samples(ofPreset: try #require(synth.preset(onChannel: 0))),
                font.samples(ofPreset: try #require(synth.preset(onChannel: 9))))
    }

    @Test func decodesTheChannelsPresetsAndFollowsAProgramChange() throws {
        let font = try SoundFont.load(path: fluidR3Mono)
        let (store, synth, piano, drums) = try prepared(font)
        let violinPreset = try #require(font.preferredPreset(bank: 0, program: 40, percussion: false))
        let violin = font.samples(ofPreset: violinPreset).subtracting(piano).subtracting(drums)
        #expect(!violin.isEmpty)

        let lines = Mutex<[String]>([])
        let loader = try #require(SoundFontSampleLoader(synth: synth) { line in lines.withLock { $0.append(line) } })
        loader.start()
        defer { loader.stop() }
        #expect(waitUntil(timeout: 30) { piano.union(drums).allSatisfy(store.isDecoded) }, "the start presets decoded")
        #expect(!violin.contains(where: store.isDecoded), "nothing beyond the selected presets")
        #expect(store.status.decodedSamples == piano.union(drums).count)

        // A program change on channel 2 (the synth applies it; the loader sees the channel's new preset).
        synth.handle(ShortMessage(status: 0xC1, data1: 40, data2: 0))
        #expect(waitUntil(timeout: 30) { violin.allSatisfy(store.isDecoded) }, "the violin decoded after its program change")
        #expect(lines.withLock { $0.contains { $0.hasPrefix("SoundFont 3: decoded") } })
    }

    /// FluidR3Mono_GM.sf3 with the stream of the piano's A4 sample damaged: the loader names that sample once
    /// (not again when the piano is selected again), decodes every other sample of the channels' presets, a
    /// piano note on another sample sounds, and the A4 note that does not sound is reported as a stream that
    /// does not decode, naming the sample, not as a sample "not decoded yet".
    @Test func aBrokenStreamIsNamedOnceAndTheOtherSamplesPlay() throws {
        let original = try SoundFont.load(path: fluidR3Mono)
        let bad = try pianoSample(original, key: 69)
        let goodKey = try #require((UInt8(21) ... 108).first { (try? pianoSample(original, key: $0)).map { $0 != bad } == true })
        let bytes = try fluidR3MonoDamaging(sample: bad, of: original)
        let name = "sample \(bad) '\(original.sampleNames[bad])'"

        let font = try SoundFont.load(bytes: bytes)
        let (store, synth, piano, drums) = try prepared(font)
        #expect(piano.contains(bad))
        let lines = Mutex<[String]>([])
        let loader = try #require(SoundFontSampleLoader(synth: synth) { line in lines.withLock { $0.append(line) } })
        loader.start()
        defer { loader.stop() }
        #expect(waitUntil(timeout: 30) { piano.union(drums).subtracting([bad]).allSatisfy(store.isDecoded) },
                "every other sample decoded: \(lines.withLock { $0 })")
        #expect(!store.isDecoded(bad))

        // A note on a good sample sounds; the A4 note does not, and is reported with its true reason.
        synth.handle(ShortMessage(status: 0x90, data1: goodKey, data2: 100))
        var left = [Float](repeating: 0, count: 256), right = left
        var level: Float = 0
        for _ in 0 ..< 40 {
            synth.render(left: &left, right: &right, frames: 256)
            level = max(level, left.map(abs).max() ?? 0)
        }
        #expect(level > 0.01, "key \(goodKey) sounds")
        synth.handle(ShortMessage(status: 0x90, data1: 69, data2: 100))
        synth.render(left: &left, right: &right, frames: 256)
        #expect(waitUntil(timeout: 5) { lines.withLock { $0.contains { $0.contains("did not sound") } } })
        // The piano selected again (a program change away and back): the sample is not named again.
        synth.handle(ShortMessage(status: 0xC0, data1: 40, data2: 0))
        Thread.sleep(forTimeInterval: 0.2)
        synth.handle(ShortMessage(status: 0xC0, data1: 0, data2: 0))
        Thread.sleep(forTimeInterval: 0.2)

        let log = lines.withLock { $0 }
        #expect(log.count { $0.contains(name) && $0.contains("does not decode") && !$0.contains("did not sound") } == 1, "\(log)")
        #expect(log.contains { $0.contains("did not sound") && $0.contains("streams do not decode") && $0.contains(name) }, "\(log)")
        #expect(!log.contains { $0.contains("not decoded yet") || $0.contains("did not fit") }, "\(log)")
        #expect(log.contains { $0.hasPrefix("SoundFont 3: decoded") && !$0.contains("decoded 0 samples") }, "\(log)")
    }
}
