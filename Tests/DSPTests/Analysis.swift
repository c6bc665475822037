// Small audio analysis for the DSP tests: spectra, zero-crossing frequency, levels.
import Foundation
@testable import DSP
import MIDI
import TestSupport

/// Renders `frames` samples in `block`-sized calls and returns both channels.
func render(_ synth: Synth, frames: Int, block: Int = 256) -> (left: [Float], right: [Float]) {
    var left = [Float](repeating: 0, count: frames)
    var right = [Float](repeating: 0, count: frames)
    left.withUnsafeMutableBufferPointer { l in
        right.withUnsafeMutableBufferPointer { r in
            var offset = 0
            while offset < frames {
                let n = min(block, frames - offset)
                synth.render(left: l.baseAddress! + offset, right: r.baseAddress! + offset, frames: n)
                offset += n
            }
        }
    }
    return (left, right)
}

/// Renders `frames` samples in `block`-sized calls with the engine's split (PeriodRenderer's): render up to
/// an event's frame, handle it, go on; `events` in frame order.
func render(_ synth: Synth, frames: Int, events: [(frame: Int, message: ShortMessage)], block: Int = 256,
            fill: Float = 0) -> (left: [Float], right: [Float]) {
    var left = [Float](repeating: fill, count: frames)
    var right = [Float](repeating: fill, count: frames)
    left.withUnsafeMutableBufferPointer { l in
        right.withUnsafeMutableBufferPointer { r in
            var done = 0, next = 0
            while done < frames {
                while next < events.count && events[next].frame <= done { synth.handle(events[next].message); next += 1 }
                let until = next < events.count ? min(events[next].frame, frames) : frames
                let n = min(block, until - done)
                synth.render(left: l.baseAddress! + done, right: r.baseAddress! + done, frames: n)
                done += n
            }
        }
    }
    return (left, right)
}

func noteOn(_ note: UInt8, velocity: UInt8 = 100, channel: UInt8 = 0) -> ShortMessage {
    ShortMessage(status: 0x90 | channel, data1: note, data2: velocity)
}

func noteOff(_ note: UInt8, channel: UInt8 = 0) -> ShortMessage {
    ShortMessage(status: 0x80 | channel, data1: note, data2: 0)
}

func cc(_ controller: UInt8, _ value: UInt8, channel: UInt8 = 0) -> ShortMessage {
    ShortMessage(status: 0xB0 | channel, data1: controller, data2: value)
}

func bend(_ value: Int, channel: UInt8 = 0) -> ShortMessage {
    let v = value + 8192
    return ShortMessage(status: 0xE0 | channel, data1: UInt8(v & 0x7F), data2: UInt8(v >> 7))
}

func rms(_ x: ArraySlice<Float>) -> Double { AudioComparison.rms(x) }

func peak(_ x: ArraySlice<Float>) -> Float { x.reduce(0) { max($0, abs($1)) } }

func decibels(_ x: Double) -> Double { 20 * log10(max(x, 1e-30)) }

/// The positions (in samples, interpolated between two) where the signal crosses zero going up.
func risingZeroCrossings(_ x: ArraySlice<Float>) -> [Double] {
    var crossings: [Double] = []
    var i = x.startIndex + 1
    while i < x.endIndex {
        let a = Double(x[i - 1]), b = Double(x[i])
        if a < 0 && b >= 0 { crossings.append(Double(i - 1) + a / (a - b)) }
        i += 1
    }
    return crossings
}

/// Instantaneous frequencies: one per period between successive rising zero crossings (interpolated).
func periodFrequencies(_ x: ArraySlice<Float>, sampleRate: Double) -> [Double] {
    let crossings = risingZeroCrossings(x)
    return zip(crossings, crossings.dropFirst()).map { sampleRate / ($1 - $0) }
}

/// Frequency of a periodic signal from its rising zero crossings, interpolated between samples.
func zeroCrossingFrequency(_ x: ArraySlice<Float>, sampleRate: Double) -> Double {
    let crossings = risingZeroCrossings(x)
    guard crossings.count > 2 else { return 0 }
    return Double(crossings.count - 1) / (crossings.last! - crossings.first!) * sampleRate
}

/// Magnitude spectrum (linear, bins 0...n/2) of the first `n` samples (n a power of two) under a
/// 4-term Blackman-Harris window (side lobes below -92 dB, main lobe +-4 bins).
func spectrum(_ x: ArraySlice<Float>, n: Int) -> [Double] {
    precondition(n & (n - 1) == 0 && x.count >= n)
    var re = [Double](repeating: 0, count: n)
    var im = [Double](repeating: 0, count: n)
    let start = x.startIndex
    for i in 0..<n {
        let t = 2 * Double.pi * Double(i) / Double(n)
        let w = 0.35875 - 0.48829 * cos(t) + 0.14128 * cos(2 * t) - 0.01168 * cos(3 * t)
        re[i] = Double(x[start + i]) * w
    }
    AudioComparison.fft(&re, &im)
    return (0...n / 2).map { (re[$0] * re[$0] + im[$0] * im[$0]).squareRoot() }
}

/// Local maxima of a spectrum, strongest first, as frequencies (parabolic interpolation).
func spectralPeaks(_ magnitude: [Double], sampleRate: Double, n: Int, count: Int) -> [Double] {
    var peaks: [(Double, Double)] = []
    for i in 2..<(magnitude.count - 2) where magnitude[i] > magnitude[i - 1] && magnitude[i] >= magnitude[i + 1] {
        let a = log(magnitude[i - 1] + 1e-30), b = log(magnitude[i] + 1e-30), c = log(magnitude[i + 1] + 1e-30)
        let offset = 0.5 * (a - c) / (a - 2 * b + c)
        peaks.append(((Double(i) + offset) * sampleRate / Double(n), magnitude[i]))
    }
    return peaks.sorted { $0.1 > $1.1 }.prefix(count).map(\.0)
}

/// A synth prepared at 48 kHz with a plain, steady sound: the chosen waveform, instant attack, full
/// sustain, filter wide open, so the output is the oscillator itself.
func steadySynth(_ waveform: Waveform = .sine, voices: Int = 16, channel: UInt8? = nil) -> Synth {
    let synth = Synth(voices: voices, channel: channel)
    synth.prepare(sampleRate: 48_000, maxFrames: 256)
    synth.setParameter(.waveform, Float(waveform.rawValue))
    synth.setParameter(.attack, 0.001)
    synth.setParameter(.decay, 0.001)
    synth.setParameter(.sustain, 1)
    synth.setParameter(.release, 0.05)
    synth.setParameter(.cutoff, 20_000)
    synth.setParameter(.resonance, 0)
    synth.setParameter(.filterEnvelopeAmount, 0)
    return synth
}

func noteFrequency(_ note: Double) -> Double { 440 * pow(2, (note - 69) / 12) }

/// The stealing workout of both synths' click tests: 24 notes on 12 keys for a synth of 4 voices, some at the
/// same frame, some released, in blocks of 128. The output's left channel and the most voices that sounded.
func stealingWorkout(_ synth: Synth) -> (output: [Float], maximumVoices: Int) {
    var output: [Float] = []
    var maximumVoices = 0
    for i in 0..<24 {
        let note = UInt8(45 + (i * 7) % 12)
        synth.handle(noteOn(note, velocity: 127))
        if i % 5 == 4 { synth.handle(noteOff(UInt8(45 + ((i - 2) * 7) % 12))) }
        maximumVoices = max(maximumVoices, synth.activeVoiceCount)
        if i % 3 != 0 { output += render(synth, frames: 1_000 + 37 * i, block: 128).left }
    }
    output += render(synth, frames: 4_800).left
    return (output, maximumVoices)
}

/// Renders `calls` calls of `period` frames through two prepared synths, doing `script[call]` to both before
/// that call: the first sample where they differ by a bit ("call c frame n: first (l, r) second (l, r)", the
/// synths named by `names`), nil when none does.
func firstDifference(_ first: Synth, _ second: Synth, names: (String, String), period: Int, calls: Int,
                     script: [Int: [(Synth) -> Void]]) -> String? {
    var left = [[Float]](repeating: [Float](repeating: 0, count: period), count: 2)
    var right = left
    for call in 0..<calls {
        for action in script[call] ?? [] { action(first); action(second) }
        for (i, synth) in [first, second].enumerated() {
            left[i].withUnsafeMutableBufferPointer { l in
                right[i].withUnsafeMutableBufferPointer { r in
                    synth.render(left: l.baseAddress!, right: r.baseAddress!, frames: period)
                }
            }
        }
        for n in 0..<period where left[0][n].bitPattern != left[1][n].bitPattern
            || right[0][n].bitPattern != right[1][n].bitPattern {
            return "call \(call) frame \(n): \(names.0) (\(left[0][n]), \(right[0][n])) \(names.1) (\(left[1][n]), \(right[1][n]))"
        }
    }
    return nil
}
