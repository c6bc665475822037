import CSndFile
import DSP
import Testing
import TestSupport
@testable import SFZ

/// `count`: the passes written out as one sample, as sfizz plays them (each but the last leaves the last frame out).
@Suite struct SFZCountTests {
    /// 1000 frames rising by 1/1024: `count=3 offset=100 end=899` is the 800 frames 100...899 three times, the
    /// first two without frame 899, as one one-shot sample; a later `loop_mode` keeps the file's sample once.
    @Test func passesAreWrittenOut() throws {
        let folder = try temporaryFolder()
        let ramp = (0..<1000).map { Float($0) / 1024 }
        try writeSoundFile(folder + "/ramp.wav", format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), channels: 1, rate: 48_000, samples: ramp)
        let sfz = try writeInstrument("<region> sample=ramp.wav count=3 offset=100 end=899", in: folder).soundFont()
        let sample = sfz.font.samples[0]
        #expect(Int(sample.end - sample.start) == 3 * 799 + 1)
        #expect(sfz.font.zones[0].generators[SoundFontGenerator.sampleModes] == 0)
        let frames = (Int(sample.start)..<Int(sample.end)).map { Int(sfz.font.sampleData[$0]) }
        let pass = Array(frames[0..<799])
        #expect(zip(pass, pass.dropFirst()).allSatisfy { $0 < $1 }, "the ramp rises through a pass")
        #expect(abs(Double(pass[0]) / 32768 - Double(ramp[100])) < 1e-3 && abs(Double(pass[798]) / 32768 - Double(ramp[898])) < 1e-3)
        #expect(Array(frames[799..<1598]) == pass && Array(frames[1598..<2397]) == pass)
        #expect(abs(Double(frames[2397]) / 32768 - Double(ramp[899])) < 1e-3)
        let looped = try writeInstrument("<region> sample=ramp.wav count=3 loop_mode=no_loop", in: folder).soundFont()
        #expect(Int(looped.font.samples[0].end - looped.font.samples[0].start) == 1000)
        let generated = try writeInstrument("<region> sample=*sine count=2", in: folder).soundFont()
        #expect(generated.notes.contains { $0.hasPrefix("count on a generator") })
    }
}
