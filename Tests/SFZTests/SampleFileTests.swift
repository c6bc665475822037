import CSndFile
import Glibc
import Testing
import TestSupport
@testable import SFZ

/// A fresh folder of one test's own.
func temporaryFolder() throws -> String { try makeTemporaryDirectory("backbeat-sfz").path }

/// Writes `samples` (interleaved) as a sound file through libsndfile; with `loop`, an instrument chunk (a WAV
/// file's `smpl`) with that loop and root key 60.
func writeSoundFile(_ path: String, format: Int32, channels: Int, rate: Int = 44100, samples: [Float],
                    loop: (start: UInt32, end: UInt32)? = nil) throws {
    var info = SF_INFO()
    info.samplerate = Int32(rate)
    info.channels = Int32(channels)
    info.format = format
    guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
        throw SampleFileError(path: path, reason: String(cString: sf_strerror(nil)))
    }
    if let loop { #expect(backbeat_sf_set_loop(file, 60, loop.start, loop.end) == SF_TRUE) }
    let written = samples.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t(samples.count / channels)) }
    sf_close(file)
    #expect(Int(written) == samples.count / channels)
}

/// A sine of `frames` frames at `hertz`, amplitude 0.5.
func sine(frames: Int, hertz: Double = 440, rate: Double = 44100) -> [Float] {
    (0..<frames).map { Float(0.5 * sin(2 * Double.pi * hertz * Double($0) / rate)) }
}

@Suite struct SampleFileTests {
    @Test func wavWithSmplLoop() throws {
        let path = try temporaryFolder() + "/tone.wav"
        let tone = sine(frames: 4410)
        try writeSoundFile(path, format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), channels: 1, samples: tone, loop: (1000, 3000))
        let file = try SampleFile(path: path)
        #expect(file.info.frames == 4410 && file.info.channels == 1 && file.info.sampleRate == 44100)
        #expect(file.info.format == "WAV 16-bit")
        #expect(file.info.loops == [SampleLoop(mode: .forward, start: 1000, end: 3000, count: 0)])
        #expect(file.info.rootKey == 60)
        #expect(file.info.floatBytes == 4410 * 4)
        let all = try file.readAll()
        #expect(all.count == 4410)
        #expect(zip(all, tone).allSatisfy { abs($0 - $1) < 1.0 / 16384 })
        let part = try file.read(frames: 100..<110)
        #expect(part == Array(all[100..<110]))
        #expect(try file.read(frames: 4400..<99999).count == 10)
    }

    @Test func flacStereo24Bit() throws {
        let path = try temporaryFolder() + "/stereo.flac"
        let left = sine(frames: 2000, hertz: 220), right = sine(frames: 2000, hertz: 660)
        let interleaved = zip(left, right).flatMap { [$0, $1] }
        try writeSoundFile(path, format: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24), channels: 2, rate: 48000, samples: interleaved)
        let info = try SampleFile.info(path: path)
        #expect(info == SampleFileInfo(frames: 2000, channels: 2, sampleRate: 48000, format: "FLAC 24-bit"))
        #expect(info.floatBytes == 2000 * 2 * 4)
        let read = try SampleFile(path: path).readAll()
        #expect(read.count == 4000)
        #expect(zip(read, interleaved).allSatisfy { abs($0 - $1) < 1e-5 })
    }

    @Test func wavFloatWithoutInstrumentChunk() throws {
        let path = try temporaryFolder() + "/float.wav"
        try writeSoundFile(path, format: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT), channels: 1, samples: [0.25, -0.5, 1])
        let file = try SampleFile(path: path)
        #expect(file.info.format == "WAV 32-bit float" && file.info.loops.isEmpty && file.info.rootKey == nil)
        #expect(try file.readAll() == [0.25, -0.5, 1])
    }

    @Test func oggVorbisAndAIFF() throws {
        let folder = try temporaryFolder()
        let tone = sine(frames: 8820)
        try writeSoundFile(folder + "/tone.ogg", format: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS), channels: 1, samples: tone)
        let ogg = try SampleFile(path: folder + "/tone.ogg")
        #expect(ogg.info.format == "Ogg Vorbis" && ogg.info.frames == 8820 && ogg.info.channels == 1)
        // Lossy: the decoded tone's energy is the written one's within 5 %.
        let energy = { (x: [Float]) in x.reduce(0) { $0 + Double($1) * Double($1) } }
        let decoded = try ogg.readAll()
        #expect(abs(energy(decoded) / energy(tone) - 1) < 0.05)
        try writeSoundFile(folder + "/tone.aiff", format: Int32(SF_FORMAT_AIFF | SF_FORMAT_PCM_24), channels: 1, rate: 96000, samples: tone)
        let aiff = try SampleFile.info(path: folder + "/tone.aiff")
        #expect(aiff == SampleFileInfo(frames: 8820, channels: 1, sampleRate: 96000, format: "AIFF 24-bit"))
    }

    @Test func errorsNameThePath() throws {
        let folder = try temporaryFolder()
        #expect(throws: SampleFileError.self) { try SampleFile(path: folder + "/missing.wav") }
        do {
            _ = try SampleFile(path: folder + "/missing.wav")
        } catch {
            #expect(error.description.hasPrefix("'\(folder)/missing.wav': "))
            #expect(error.reason.count > 5)
        }
        let garbage = folder + "/garbage.wav"
        let handle = fopen(garbage, "w")
        fputs("RIFF this is not a wave file at all", handle)
        fclose(handle)
        #expect(throws: SampleFileError.self) { try SampleFile(path: garbage) }
        #expect(throws: SampleFileError.self) { try SampleFile(path: folder) }
        #expect(mkfifo(folder + "/fifo.wav", 0o600) == 0)
        do {
            _ = try SampleFile(path: folder + "/fifo.wav")
            Issue.record("a FIFO opened")
        } catch {
            #expect(error.reason == "it is not a regular file")
        }
    }
}

@Suite struct SFZSampleLookupTests {
    @Test func findsANameWrittenInOtherCases() throws {
        let folder = try temporaryFolder()
        #expect(mkdir(folder + "/Samples", 0o700) == 0 && mkdir(folder + "/Samples/Soft", 0o700) == 0)
        let file = folder + "/Samples/Soft/Piano C4.wav"
        try writeSoundFile(file, format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), channels: 1, samples: [0, 0.5])
        var lookup = SFZSampleLookup()
        #expect(lookup.find(file) == file)
        #expect(lookup.find(folder + "/samples/SOFT/piano c4.WAV") == file)
        #expect(lookup.find(folder + "/samples/soft/piano c5.wav") == nil)
        #expect(lookup.find(folder + "/nowhere/x.wav") == nil)
    }
}
