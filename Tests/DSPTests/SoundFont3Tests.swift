// SoundFont 3 (Ogg Vorbis samples) and the parser's tolerance of unpadded odd chunks: synthetic fonts written
// here (one preset, one instrument, one sample; the Ogg stream taken from Debian's FluidR3Mono_GM.sf3) and
// the real FluidR3Mono_GM.sf3 (fluidr3mono-gm-soundfont, scripts/setup test). Decoding is lazy and bounded:
// what a MIDI file needs is decoded, nothing else; the cache's bound holds; a note whose sample is not
// decoded is counted and silent; a stream that does not decode is an error naming the sample, the sample is
// never tried again, and its notes are counted apart.
import Foundation
import Testing
@testable import DSP
import MIDI
import TestSupport

private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
private func le32(_ v: UInt32) -> [UInt8] { le16(UInt16(v & 0xFFFF)) + le16(UInt16(v >> 16)) }
/// A chunk; `pad` false leaves an odd size's pad byte out, as some writers do.
private func chunk(_ id: String, _ data: [UInt8], pad: Bool = true) -> [UInt8] {
    Array(id.utf8) + le32(UInt32(data.count)) + data + (pad && data.count % 2 == 1 ? [0] : [])
}
private func name20(_ s: String) -> [UInt8] { Array(s.utf8.prefix(19)) + [UInt8](repeating: 0, count: 20 - min(s.utf8.count, 19)) }

/// A one-sample font: SoundFont 3 with `ogg` as its compressed sample (loop points relative to the decoded
/// sample), or SoundFont 2 with `pcm` frames. `padded` false leaves out the pad bytes after the odd INFO
/// strings (one inside the list, one at its end) and after an odd smpl.
private func oneSampleFont(ogg: [UInt8]? = nil, pcm: [Int16] = [], loop: (UInt32, UInt32) = (0, 0),
                           sampleName: String = "tone", padded: Bool = false) -> [UInt8] {
    let version: (UInt16, UInt16) = ogg == nil ? (2, 1) : (3, 1)
    let info = chunk("ifil", le16(version.0) + le16(version.1)) + chunk("ICMT", Array("odd comment".utf8) + [0, 0], pad: padded)
        + chunk("INAM", Array("Odd Font".utf8) + [0], pad: padded)  // 9 bytes: odd, the list's last chunk
    let smpl: [UInt8], start: UInt32, end: UInt32, loopStart: UInt32, loopEnd: UInt32, type: UInt16
    if let ogg {
        smpl = ogg + (ogg.count % 2 == 0 ? [0] : [])  // odd, as MuseScore's writer leaves it
        (start, end, loopStart, loopEnd, type) = (0, UInt32(ogg.count), loop.0, loop.1, 0x11)
    } else {
        smpl = pcm.flatMap { le16(UInt16(bitPattern: $0)) } + [UInt8](repeating: 0, count: 92)
        (start, end, loopStart, loopEnd, type) = (0, UInt32(pcm.count), loop.0, loop.1, 1)
    }
    let shdr = name20(sampleName) + le32(start) + le32(end) + le32(loopStart) + le32(loopEnd) + le32(44_100)
        + [60, 0] + le16(0) + le16(type) + name20("EOS") + [UInt8](repeating: 0, count: 26)
    let pdta = chunk("phdr", name20("preset") + le16(0) + le16(0) + le16(0) + [UInt8](repeating: 0, count: 12)
                     + name20("EOP") + le16(0) + le16(0) + le16(1) + [UInt8](repeating: 0, count: 12))
        + chunk("pbag", le16(0) + le16(0) + le16(1) + le16(0)) + chunk("pmod", [UInt8](repeating: 0, count: 10))
        + chunk("pgen", le16(41) + le16(0) + [0, 0, 0, 0])
        + chunk("inst", name20("inst") + le16(0) + name20("EOI") + le16(1))
        + chunk("ibag", le16(0) + le16(0) + le16(2) + le16(0)) + chunk("imod", [UInt8](repeating: 0, count: 10))
        + chunk("igen", le16(54) + le16(1) + le16(53) + le16(0) + [0, 0, 0, 0])
        + chunk("shdr", shdr)
    let body = Array("sfbk".utf8) + chunk("LIST", Array("INFO".utf8) + info, pad: padded)
        + chunk("LIST", Array("sdta".utf8) + chunk("smpl", smpl, pad: padded), pad: padded)
        + chunk("LIST", Array("pdta".utf8) + pdta)
    return chunk("RIFF", body)
}

/// The Ogg Vorbis stream of the sample that FluidR3Mono_GM.sf3's piano plays at A4, and its name.
private func pianoStream() throws -> (bytes: [UInt8], name: String, loop: (UInt32, UInt32)) {
    let font = try SoundFont.load(path: fluidR3Mono)
    let s = try pianoSample(font, key: 69)
    let store = try #require(font.sampleStore)
    let range = try #require(store.slots[s].bytes)
    let file = try Data(contentsOf: URL(fileURLWithPath: fluidR3Mono))
    let sample = font.samples[s], slot = store.slots[s]
    return (Array(file[range]), font.sampleNames[s],
            (sample.loopStart - UInt32(slot.start), sample.loopEnd - UInt32(slot.start)))
}

/// The channel messages of a Standard MIDI File, in time order.
private func messages(_ bytes: [UInt8]) throws -> [ShortMessage] {
    try StandardMIDIFile(bytes: bytes).timedEvents().compactMap { timed in
        if case .message(let m) = timed.event, let short = m.shortMessage, short.isChannelMessage { return short }
        return nil
    }
}

struct SoundFontToleranceTests {
    /// Odd INFO chunks without their pad byte (inside the list and at its end) and an odd smpl without one:
    /// what Polyphone and MuseScore write. The font loads, its name read from the unpadded INAM.
    @Test func unpaddedOddChunksLoad() throws {
        let bytes = oneSampleFont(pcm: (0 ..< 101).map { Int16($0 * 100) }, padded: false)
        let font = try SoundFont.load(bytes: bytes)
        #expect(font.name == "Odd Font")
        #expect(font.presetCount == 1 && font.samples.count == 1)
        #expect(font.samples[0].end - font.samples[0].start == 101)
        // The same font with its pad bytes loads alike.
        let padded = try SoundFont.load(bytes: oneSampleFont(pcm: (0 ..< 101).map { Int16($0 * 100) }, padded: true))
        #expect(padded.name == "Odd Font" && padded.presetCount == 1)
    }

    /// A chunk header that is garbage at both places is still an error naming the chunk.
    @Test func garbageAfterAnOddChunkIsStillAnError() throws {
        var bytes = oneSampleFont(pcm: [1, 2, 3], padded: true)
        let pdta = SoundFontBuilder.offset(of: "pdta", in: bytes) - 8  // its LIST header
        SoundFontBuilder.poke32(&bytes, pdta + 4, 0x7FFF_FFFF)
        #expect(throws: SoundFontError.self) { try SoundFont.load(bytes: bytes) }
    }

    @Test(.needs(file: fluidR3Mono, package: "fluidr3mono-gm-soundfont"))
    func fluidR3MonoOpens() throws {
        let font = try SoundFont.load(path: fluidR3Mono)
        let store = try #require(font.sampleStore)
        #expect(font.presetCount > 128, "General MIDI melodic presets and drum kits")
        #expect(store.compressedCount == font.samples.count)
        #expect(store.decodedBytesIfAll > 2 * store.compressedBytes, "Vorbis compresses")
        #expect(store.status.decodedSamples == 0, "nothing is decoded at load")
    }
}

@Suite(.needs(file: fluidR3Mono, package: "fluidr3mono-gm-soundfont"))
struct SoundFont3Tests {
    /// The piano's A4 sample in a font of its own: it decodes to the frames its last Ogg page gives, its
    /// loop points stay relative to the decoded sample, and a note plays it at 440 Hz.
    @Test func aCompressedSampleDecodesAndPlaysAtPitch() throws {
        let piano = try pianoStream()
        let font = try SoundFont.load(bytes: oneSampleFont(ogg: piano.bytes, loop: piano.loop, sampleName: piano.name))
        let store = try #require(font.sampleStore)
        #expect(store.compressedCount == 1 && store.compressedBytes == piano.bytes.count)
        #expect(store.decode([0]).isEmpty)
        #expect(store.isDecoded(0))
        #expect(store.status.decodedSamples == 1 && store.status.decodes == 1)
        let s = font.samples[0]
        #expect(s.loopStart - s.start == piano.loop.0 && s.loopEnd - s.start == piano.loop.1)
        let frames = UnsafeBufferPointer(rebasing: font.sampleData[Int(s.start) ..< Int(s.end)])
        #expect(frames.contains { abs(Int($0)) > 1_000 }, "decoded audio, not silence")
    }

    /// A General MIDI file's render decodes only the samples its notes reach: a small part of the font.
    @Test func lazyDecodeDecodesOnlyWhatAFileNeeds() throws {
        let font = try SoundFont.load(path: fluidR3Mono)
        let store = try #require(font.sampleStore)
        let needed = font.samplesNeeded(by: try messages(GeneralMIDITestFiles.song()))
        #expect(!needed.isEmpty)
        #expect(store.decode(needed).isEmpty)
        let status = store.status
        let bytes = needed.reduce(0) { $0 + store.decodedSize($1) }
        print("GM song on FluidR3Mono_GM.sf3: \(needed.count) of \(store.compressedCount) samples decoded, \(bytes) bytes of \(store.decodedBytesIfAll)")
        #expect(status.decodedSamples == needed.count)
        #expect((0 ..< font.samples.count).filter { store.isDecoded($0) } == needed)
        #expect(needed.count * 5 < store.compressedCount, "a fifth of the font at most")
        #expect(status.decodedBytes >= bytes && status.decodedBytes < bytes + needed.count * 2 * (SoundFontSampleStore.pageFrames + SoundFontSampleStore.tailFrames))
        // Decoding them again costs nothing.
        #expect(store.decode(needed).isEmpty)
        #expect(store.status.decodes == status.decodes)
    }

    /// With a 1 MiB bound the cache never holds more, evicting the samples used longest ago; a request
    /// larger than the bound decodes what fits and counts the rest.
    @Test func theCacheBoundHolds() throws {
        let font = try SoundFont.load(path: fluidR3Mono)
        let store = try #require(font.sampleStore)
        store.setLimit(bytes: 1 << 20)
        for program in stride(from: 0, to: 128, by: 8) {
            let preset = try #require(font.preferredPreset(bank: 0, program: program, percussion: false))
            let samples = font.samples(ofPreset: preset).sorted()
            #expect(store.decode(samples).isEmpty)
            let status = store.status
            #expect(status.decodedBytes <= 1 << 20, "program \(program): \(status.decodedBytes) bytes held")
            // The newest request is kept first: what fits of it is decoded.
            #expect(samples.contains { store.isDecoded($0) } || status.overLimit > 0)
        }
        let status = store.status
        #expect(status.evictions > 0)
        #expect(status.decodedSamples == (0 ..< font.samples.count).count { store.isDecoded($0) })
        // Raising the bound keeps what is there; lowering it evicts down to it.
        store.setLimit(bytes: 256 << 10)
        #expect(store.status.decodedBytes <= 256 << 10)
    }

    /// A note whose sample is not decoded does not sound and is counted; once decoded, the same note plays.
    @Test func aNoteWithoutItsSampleIsCountedAndSilent() throws {
        let piano = try pianoStream()
        let font = try SoundFont.load(bytes: oneSampleFont(ogg: piano.bytes, loop: piano.loop, sampleName: piano.name))
        let synth = Synth(voices: 16, soundFont: font)
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        synth.handle(noteOn(69, velocity: 100))
        let silent = render(synth, frames: 4_800).left
        #expect(rms(silent[...]) < 1e-6)
        #expect(font.sampleStore?.status.missedNotes == 1)
        #expect(font.sampleStore?.decode([0]).isEmpty == true)
        synth.handle(noteOn(69, velocity: 100))
        let played = render(synth, frames: 4_800).left
        #expect(rms(played[2_400...]) > 1e-3)
        #expect(font.sampleStore?.status.missedNotes == 1)
    }

    /// A stream whose headers are damaged: decoding it returns an error naming the sample, nothing crashes,
    /// and its slot stays silent. It is not tried again (asked again, the same error, no decode), it is not
    /// counted as decoded, and a note on it is counted as a note whose stream does not decode.
    @Test func aBadOggStreamIsAnErrorNamingTheSample() throws {
        var piano = try pianoStream()
        for i in 30 ..< 60 { piano.bytes[i] ^= 0x5A }  // the identification header's page
        let font = try SoundFont.load(bytes: oneSampleFont(ogg: piano.bytes, sampleName: "broken piano"))
        let store = try #require(font.sampleStore)
        let errors = store.decode([0])
        #expect(errors.count == 1)
        #expect(errors.first?.description.contains("sample 0 'broken piano'") == true, "\(errors)")
        #expect(errors.first?.description.contains("does not decode") == true)
        #expect(!store.isDecoded(0))
        #expect(store.decode([0]) == errors, "the same error again")
        #expect(store.brokenSamples == ["sample 0 'broken piano'"])
        var status = store.status
        #expect(status.decodes == 0 && status.decodedSamples == 0 && status.brokenSamples == 1)

        let synth = Synth(voices: 16, soundFont: font)
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        synth.handle(noteOn(69, velocity: 100))
        #expect(rms(render(synth, frames: 4_800).left[...]) < 1e-6)
        status = store.status
        #expect(status.missedNotes == 1 && status.missedBroken == 1 && status.missedNotDecoded == 0 && status.missedOverLimit == 0)
    }

    /// A request larger than the bound, made twice (as a render makes it): the samples that did not fit are
    /// counted once each, and a sample decoded later is no longer counted; a note on one that did not fit is
    /// counted as such.
    @Test func samplesThatDidNotFitAreCountedOnce() throws {
        let font = try SoundFont.load(path: fluidR3Mono)
        let store = try #require(font.sampleStore)
        let needed = font.samplesNeeded(by: try messages(GeneralMIDITestFiles.song()))
        store.setLimit(bytes: 1 << 20)
        #expect(store.decode(needed).isEmpty)
        let refused = needed.filter { !store.isDecoded($0) }
        #expect(!refused.isEmpty)
        #expect(store.decode(needed).isEmpty)
        var status = store.status
        #expect(status.overLimit == refused.count, "\(status.overLimit) counted, \(refused.count) did not fit")
        #expect(status.requestedSamples == needed.count)
        // Room for all: those that did not fit decode, and are no longer counted.
        store.setLimit(bytes: 512 << 20)
        #expect(store.decode(needed).isEmpty)
        status = store.status
        #expect(status.overLimit == 0 && status.decodedSamples == needed.count)
    }

    /// An Ogg page whose granule position claims 2^31 frames: an implausible count, said as such (the number
    /// and the limit), not "not an Ogg stream".
    @Test func anImplausibleFrameCountIsSaidSo() {
        // One bare Ogg page (27 bytes, no segments): "OggS", version 0, type, granule 2^31, serial, sequence, CRC.
        let granule = UInt64(1) << 31
        let page = Array("OggS".utf8) + [0, 4] + (0 ..< 8).map { UInt8(truncatingIfNeeded: granule >> (8 * $0)) }
            + [UInt8](repeating: 0, count: 12) + [0]
        let error = #expect(throws: SoundFontError.self) {
            try SoundFont.load(bytes: oneSampleFont(ogg: page, sampleName: "huge"))
        }
        let text = error?.description ?? ""
        #expect(text.contains("sample 0 'huge'") && text.contains("2147483648") && text.contains("\(Int(Int32.max) / 2)"), "\(text)")
        #expect(text.contains("implausible") && !text.contains("not an Ogg stream"), "\(text)")
    }

    /// Bytes that hold no Ogg page at all: the font does not load, and the error names the sample.
    @Test func aCompressedSampleWithoutOggPagesDoesNotLoad() {
        let garbage = [UInt8](repeating: 0x33, count: 301)
        let error = #expect(throws: SoundFontError.self) {
            try SoundFont.load(bytes: oneSampleFont(ogg: garbage, sampleName: "not ogg"))
        }
        #expect(error?.description.contains("sample 0 'not ogg'") == true)
        #expect(error?.chunk == "pdta/shdr")
    }
}
