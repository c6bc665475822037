// The sample voices' sinc interpolation (`SampleInterpolation.sinc`): its kernels, its sums on every compile
// of the loops, a synth playing it on every path, and what it does to a tone against the cubic. Beside
// FluidSynth: InterpolationQualityTests.
import Foundation
import Testing
@testable import DSP
import MIDI
import TestSupport
import VoiceLoops

@Test func everySincKernelRowSumsToOneAndNoSumCanOverflow() {
    let k = SincKernels.shared
    for c in 0..<SincKernels.classCount {
        let taps = Int(k.taps[c])
        #expect(taps == SincKernels.taps(ofClass: c) && taps % 16 == 0 && taps <= SincKernels.maxTaps)
        var largest = 0, lowest = 0
        for r in 0..<SincKernels.rows {
            let row = k.weights + Int(k.starts[c]) + r * 2 * taps
            #expect((0..<taps).map { SincKernels.weight(row, $0) }.reduce(0, +) == 4_194_304, "class \(c) row \(r)")
            // A run of sixteen high parts, then its sixteen low parts.
            let high = (0..<taps).map { Int(row[$0 / 16 * 32 + $0 % 16]) }
            let low = (0..<taps).map { Int(row[$0 / 16 * 32 + 16 + $0 % 16]) }
            largest = max(largest, high.map(abs).reduce(0, +))
            lowest = max(lowest, low.map(abs).reduce(0, +))
            if low.contains(where: { $0 < -128 || $0 > 127 }) { Issue.record("class \(c) row \(r): a low part out of -128...127") }
        }
        // 16-bit words times each part: |sum| <= 32768 x sum |part|, within Int32.
        #expect(32_768 * largest < Int(Int32.max), "class \(c): sum of |high parts| \(largest)")
        #expect(32_768 * lowest < Int(Int32.max), "class \(c): sum of |low parts| \(lowest)")
    }
    // The class of a step: the least bound at or above it.
    #expect(SincKernels.classOf(whole: 0, part: 0x8000_0000) == 0)
    #expect(SincKernels.classOf(whole: 1, part: 0) == 0)
    #expect(SincKernels.classOf(whole: 1, part: 1) == 1)
    #expect(SincKernels.classOf(whole: 3, part: 0xB000_0000) == 6)
    #expect(SincKernels.classOf(whole: 9, part: 0) == 6)
}

/// The sums of every compile this CPU runs are the exact integer sums (read as Int64) in the cubic's units
/// (2^-37 units to 2^-30).
@Test(arguments: VoiceLoopPath.supported)
func eachCompileOfTheSincSumsIsExact(_ path: VoiceLoopPath) {
    var numbers = XorShift(seed: 0x2545_F491_4F6C_DD1D)
    let words = (0..<4_096).map { _ in Int16(truncatingIfNeeded: numbers.next()) }
    let k = SincKernels.shared
    words.withUnsafeBufferPointer { data in
        for trial in 0..<200 {
            var addresses = SIMD8<Int>(), rows = SIMD8<Int>(), blocks = SIMD8<Int>()
            var expected = SIMD8<Float>()
            for l in 0..<8 {
                let c = Int(numbers.next() % UInt64(SincKernels.classCount)), taps = Int(k.taps[c])
                let first = Int(numbers.next() % UInt64(4_096 - taps))
                let row = k.weights + Int(k.starts[c]) + Int(numbers.next() % UInt64(SincKernels.rows)) * 2 * taps
                let silent = trial % 7 == l // a lane that reads nothing
                addresses[l] = Int(bitPattern: data.baseAddress! + first)
                rows[l] = Int(bitPattern: row)
                blocks[l] = silent ? 0 : taps / 16
                if !silent {
                    let sum = (0..<taps).reduce(Int64(0)) { $0 + Int64(data[first + $1]) * Int64(SincKernels.weight(row, $1)) }
                    expected[l] = Float(sum) / 128
                }
            }
            let got = sincSums(on: path, words: addresses, weights: rows, blocks: blocks)
            #expect(got == expected, "\(path.rawValue), trial \(trial)")
            if got != expected { return }
        }
    }
}

/// A font of two samples: a noise burst that loops in a short loop (unrolled into a copy) and a longer tone
/// that does not loop, so that the sinc reads across loop ends, copies and a sample's end.
private func testFont() throws -> SoundFont {
    var numbers = XorShift(seed: 0x2545_F491_4F6C_DD1D)
    let noise = (0..<600).map { _ in Int16(truncatingIfNeeded: numbers.next() % 40_000) &- 20_000 }
    let tone = (0..<3_000).map { n in Int16((12_000 * sin(Double(n) * 0.31) + 6_000 * sin(Double(n) * 2.1)).rounded()) }
    var builder = SoundFontBuilder()
    builder.samples = [.init(name: "noise", frames: noise, loopStart: 200, loopEnd: 290),
                       .init(name: "tone", frames: tone)]
    builder.instruments = [.init(name: "both", zones: [
        .init([SoundFontBuilder.Zone.range(43, 0, 63), SoundFontBuilder.Zone.gen(54, 1)], target: 0), // keys 0-63 loop (sampleModes 1)
        .init([SoundFontBuilder.Zone.range(43, 64, 127)], target: 1),
    ])]
    builder.presets = [.init(name: "both", zones: [.init(target: 0)])]
    return try SoundFont.load(bytes: builder.bytes())
}

/// A chord over both samples, bent up and down, on `path`, with the sinc.
private func sincRender(_ font: SoundFont, path: VoiceLoopPath, interpolation: SampleInterpolation = .sinc) -> [Float] {
    let synth = Synth(voices: 32, soundFont: font)
    synth.voiceLoops = path
    synth.setInterpolation(interpolation)
    synth.prepare(sampleRate: 48_000, maxFrames: 256)
    var events: [(frame: Int, message: ShortMessage)] = []
    for (i, key) in [36, 48, 55, 60, 62, 67, 72, 79, 84, 91, 96].enumerated() {
        events.append((i * 37, noteOn(UInt8(key), velocity: 110)))
    }
    events.append((3_000, .pitchBend(8_191, channel: 0)))
    events.append((6_000, .pitchBend(-8_192, channel: 0)))
    events.append((9_000, noteOff(60)))
    events.append((9_000, noteOff(84)))
    let out = render(synth, frames: 12_000, events: events, block: 100)
    return out.left + out.right
}

@Test func theSincPlaysTheSameSamplesOnEveryPath() throws {
    let font = try testFont()
    let reference = sincRender(font, path: .portable)
    #expect(reference.contains { abs($0) > 0.01 })
    #expect(reference.allSatisfy { $0.isFinite && abs($0) < 4 })
    for path in VoiceLoopPath.supported where path != .portable {
        let got = sincRender(font, path: path)
        let first = reference.indices.first { reference[$0].bitPattern != got[$0].bitPattern }
        #expect(first == nil, "\(path.rawValue): sample \(first ?? 0) differs from the portable path's")
    }
    // And it is not the cubic.
    let cubic = sincRender(font, path: .portable, interpolation: .cubic)
    #expect(zip(cubic, reference).contains { $0 != $1 })
}

@Test func theInterpolationIsSwitchedAtTheNextSlice() throws {
    let font = try testFont()
    let synth = Synth(voices: 8, soundFont: font)
    #expect(synth.interpolation == .cubic)
    synth.setInterpolation(.sinc)
    #expect(synth.interpolation == .sinc)
    synth.prepare(sampleRate: 48_000, maxFrames: 64)
    synth.handle(noteOn(72))
    _ = render(synth, frames: 64, block: 64)
    var on = synth.samples.sincOn
    #expect(on)
    synth.setInterpolation(.cubic)
    on = synth.samples.sincOn
    #expect(on) // until the next slice
    _ = render(synth, frames: 64, block: 64)
    on = synth.samples.sincOn
    #expect(!on)
    #expect(SampleInterpolation(name: "SINC") == .sinc && SampleInterpolation(name: "linear") == nil)
}

/// A font of one sine of `hertz` at 44.1 kHz (amplitude 16000, one second, no loop) at root key 60.
private func sineFont(_ hertz: Double) throws -> SoundFont {
    let frames = (0..<44_100).map { n in Int16((16_000 * sin(2 * Double.pi * hertz * Double(n) / 44_100)).rounded()) }
    var builder = SoundFontBuilder()
    builder.samples = [.init(name: "sine", frames: frames, originalPitch: 60)]
    builder.instruments = [.init(name: "sine", zones: [.init(target: 0)])]
    builder.presets = [.init(name: "sine", zones: [.init(target: 0)])]
    return try SoundFont.load(bytes: builder.bytes())
}

/// The left channel of `frames` samples of `key` at full velocity played through `mode` at 48 kHz.
private func play(_ font: SoundFont, _ mode: SampleInterpolation, key: UInt8, frames: Int) -> [Float] {
    let synth = Synth(voices: 4, soundFont: font)
    synth.setInterpolation(mode)
    synth.prepare(sampleRate: 48_000, maxFrames: 256)
    synth.handle(noteOn(key, velocity: 127))
    return render(synth, frames: frames).left
}

/// The sinc plays at the cubic's level: a 1 kHz sine played at its root key, and a fifth up, has the same RMS
/// through both within 0.05 dB (a gain error in the sums' units would show here).
@Test func theSincPlaysAtTheCubicsLevel() throws {
    let font = try sineFont(1_000)
    func rms(_ mode: SampleInterpolation, key: UInt8) -> Double {
        let x = play(font, mode, key: key, frames: 12_000)[4_000..<12_000]
        return 10 * log10(x.reduce(0) { $0 + Double($1) * Double($1) } / Double(x.count))
    }
    for key: UInt8 in [60, 67] {
        let cubic = rms(.cubic, key: key), sinc = rms(.sinc, key: key)
        #expect(cubic > -40 && abs(cubic - sinc) < 0.05, "key \(key): cubic \(cubic) dB, sinc \(sinc) dB")
    }
}

/// A sine of 4.6 kHz at 44.1 kHz played two octaves up at 48 kHz (18.4 kHz, a step of 3.675 frames): everything
/// in the output but the tone is the interpolation's error. The cubic's images, folded back, stand 48 dB below
/// the tone; the sinc's 80 dB below (the rounding of its phase to 1/2048 of a frame and its window's stopband;
/// with 1024 rows and 16-bit weights it was 70 dB).
@Test func aSinePitchedUpTwoOctavesIsCleanWithTheSinc() throws {
    let font = try sineFont(4_600)
    func error(_ mode: SampleInterpolation) -> Double {
        let x = play(font, mode, key: 84, frames: 8_192)
        let window = Array(x[4_096..<8_192])
        let tone = 4_600.0 * 4
        let spectrum = powerSpectrum(window)
        var inTone = 0.0, rest = 0.0
        for (bin, p) in spectrum.enumerated() {
            let f = Double(bin) * 48_000 / Double(window.count)
            if abs(f - tone) < 200 { inTone += p } else if f > 30 { rest += p }
        }
        return 10 * log10(rest / inTone)
    }
    let cubic = error(.cubic), sinc = error(.sinc)
    print(String(format: "sine two octaves up, error against the tone: cubic %.1f dB, sinc %.1f dB", cubic, sinc))
    #expect(cubic > -50)
    #expect(sinc < -77)
}

/// Power per bin of a Blackman-Harris-windowed DFT (bins 0..<n/2), by the direct sum over the bins asked.
private func powerSpectrum(_ x: [Float]) -> [Double] {
    let n = x.count
    var re = (0..<n).map { i -> Double in
        let a = 2 * Double.pi * Double(i) / Double(n)
        return Double(x[i]) * (0.358_75 - 0.488_29 * cos(a) + 0.141_28 * cos(2 * a) - 0.011_68 * cos(3 * a))
    }
    var im = [Double](repeating: 0, count: n)
    AudioComparison.fft(&re, &im)
    return (0..<(n / 2)).map { re[$0] * re[$0] + im[$0] * im[$0] }
}

/// A note at a sample's very start, two octaves up (the 128-tap kernels, reaching 63 frames back), reads
/// nothing of the sample stored before it in the font, past the 46 silent frames between them: a silent
/// sample after a loud one plays silence, where the kernel's outer taps would read the loud one's last frames.
@Test func theSincReadsNothingBeforeItsSamplesStart() throws {
    var builder = SoundFontBuilder()
    builder.samples = [.init(name: "loud", frames: [Int16](repeating: 30_000, count: 400), originalPitch: 60),
                       .init(name: "silent", frames: [Int16](repeating: 0, count: 4_000), originalPitch: 60)]
    builder.instruments = [.init(name: "silent", zones: [.init(target: 1)])]
    builder.presets = [.init(name: "silent", zones: [.init(target: 0)])]
    let font = try SoundFont.load(bytes: builder.bytes())
    for path in VoiceLoopPath.supported {
        let synth = Synth(voices: 4, soundFont: font)
        synth.voiceLoops = path
        synth.setInterpolation(.sinc)
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        synth.handle(noteOn(84, velocity: 127))
        let x = render(synth, frames: 512).left
        let loudest = x.map(abs).max() ?? 1
        #expect(loudest == 0, "\(path.rawValue): \(loudest)")
    }
}
