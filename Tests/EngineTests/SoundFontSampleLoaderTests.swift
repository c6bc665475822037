// The live loader of a SoundFont 3 font's samples: it decodes the presets the channels start with, then the
// preset a program change selects, on its own thread; nothing else is decoded.
import Foundation
import Synchronization
import Testing
import DSP
@testable import Engine
import MIDI
import TestSupport

private let fluidR3Mono = "/usr/share/sounds/sf3/FluidR3Mono_GM.sf3"

@Suite(.enabled(if: FileManager.default.fileExists(atPath: fluidR3Mono), "needs fluidr3mono-gm-soundfont (scripts/setup test)"))
struct SoundFontSampleLoaderTests {
    @Test func decodesTheChannelsPresetsAndFollowsAProgramChange() throws {
        let font = try SoundFont.load(path: fluidR3Mono)
        let store = try #require(font.sampleStore)
        let synth = Synth(voices: 64, soundFont: font)
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        let piano = font.samples(ofPreset: try #require(synth.preset(onChannel: 0)))
        let drums = font.samples(ofPreset: try #require(synth.preset(onChannel: 9)))
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
}
