// The voices' eight-lane loops are one source compiled for any CPU, for AVX2 and for AVX-512 (VoiceLoopsPortable,
// VoiceLoopsAVX2, VoiceLoopsAVX512). Each compile this CPU runs must play the same samples bit for bit: the
// loops alone on the same lanes, and a synth forced onto each path against one playing four lanes at a time.
// And the environment's BACKBEAT_VOICE_LOOPS may force a path only where the CPU runs it.
import Testing
@testable import DSP
import MIDI
import TestSupport
import VoiceLoops

/// Runs `play` on a fresh copy of the same lane sums (`frames` samples, eight left and eight right floats
/// each) and returns them.
private func sums(frames: Int, _ play: (UnsafeMutableRawPointer, Int) -> Void) -> [Float] {
    var out = [Float](repeating: 0.25, count: frames * 16)
    out.withUnsafeMutableBytes { raw in play(raw.baseAddress!, frames * 32) }
    return out
}

/// `play` on a copy of `run` on the portable path and on another copy on `path`, each adding into fresh lane
/// sums: the portable path's sums, the first sum that differs between the two (nil if none, bit for bit),
/// and both runs' state afterwards.
private func playOnBoth<Run>(_ path: VoiceLoopPath, _ run: Run, frames: Int,
                             _ play: (VoiceLoopPath, inout Run, UnsafeMutableRawPointer, Int) -> Void)
    -> (expected: [Float], first: Int?, reference: Run, tested: Run) {
    var reference = run, tested = run
    let expected = sums(frames: frames) { play(.portable, &reference, $0, $1) }
    let got = sums(frames: frames) { play(path, &tested, $0, $1) }
    return (expected, expected.indices.first { expected[$0].bitPattern != got[$0].bitPattern }, reference, tested)
}

@Test(arguments: VoiceLoopPath.supported)
func eachCompileOfTheSampleLoopPlaysThePortableSamples(_ path: VoiceLoopPath) {
    var numbers = XorShift(seed: 0x9E37_79B9_7F4A_7C15)
    let frames = 256, dataFrames = 8_192
    let data = (0..<dataFrames).map { _ in Int16(truncatingIfNeeded: numbers.next()) }
    let rows = (0..<4_096).map { _ in Int16(truncatingIfNeeded: numbers.next() % 40_000) }
    var run = WideSampleRun()
    data.withUnsafeBufferPointer { samples in
        let base = Int64(Int(bitPattern: samples.baseAddress!) >> 1)
        for l in 0..<8 {
            // Eight voices at different pitches, each far enough from the data's end for the whole run.
            let frame = UInt64(16 + l * 300), fraction = numbers.next() & 0xFFFF_FFFF
            run.phase[l] = frame << 32 | fraction
            run.increment[l] = UInt64(l % 3) << 32 | (numbers.next() & 0xFFFF_FFFF)
            run.origin[l] = base - 1
            run.b1[l] = numbers.float(0.1...0.9); run.b2[l] = numbers.float(0.05...0.5); run.b3[l] = numbers.float(0.01...0.3)
            run.left[l] = numbers.float(0...1e-9); run.right[l] = numbers.float(0...1e-9)
            run.stepLeft[l] = numbers.float(-1e-12...1e-12); run.stepRight[l] = numbers.float(-1e-12...1e-12)
        }
        rows.withUnsafeBytes { table in
            let (expected, first, reference, tested) = playOnBoth(path, run, frames: frames) { on, lanes, at, toRight in
                playSampleRun(on: on, &lanes, rows: table.baseAddress!, count: frames, sums: at, toRight: toRight)
            }
            #expect(first == nil, "\(path.rawValue): sum \(first ?? 0) differs from the portable loop's")
            #expect(expected.contains { $0 != 0.25 }, "the run added nothing to the sums")
            #expect(tested.phase == reference.phase && tested.z1 == reference.z1 && tested.z2 == reference.z2
                    && tested.left == reference.left && tested.right == reference.right)
        }
    }
}

@Test(arguments: VoiceLoopPath.supported)
func eachCompileOfTheWavetableLoopPlaysThePortableSamples(_ path: VoiceLoopPath) {
    var numbers = XorShift(seed: 0x9E37_79B9_7F4A_7C15)
    let frames = 256
    let pairs = (0..<8_192).map { _ in SIMD2<Float>(numbers.float(-1...1), numbers.float(-0.01...0.01)) }
    var run = WideWavetableRun()
    for l in 0..<8 {
        run.phase[l] = UInt32(truncatingIfNeeded: numbers.next())
        run.increment[l] = UInt32(truncatingIfNeeded: numbers.next() >> 40)
        run.offsets[l] = UInt32(l * 1_024 - (l > 3 ? 2_048 : 0)) // some lanes share a table
        run.b1[l] = numbers.float(0.1...0.9); run.b2[l] = numbers.float(0.05...0.5); run.b3[l] = numbers.float(0.01...0.3)
        run.levelLeft[l] = numbers.float(0...1); run.levelRight[l] = numbers.float(0...1)
    }
    pairs.withUnsafeBytes { table in
        let (expected, first, reference, tested) = playOnBoth(path, run, frames: frames) { on, lanes, at, toRight in
            playWavetableRun(on: on, &lanes, pairs: table.baseAddress!, count: frames, sums: at, toRight: toRight)
        }
        #expect(first == nil, "\(path.rawValue): sum \(first ?? 0) differs from the portable loop's")
        #expect(expected.contains { $0 != 0.25 }, "the run added nothing to the sums")
        #expect(tested.phase == reference.phase && tested.z1 == reference.z1 && tested.z2 == reference.z2)
    }
}

@Test(arguments: VoiceLoopPath.supported)
func twoWavetableRunsInOneLoopPlayAsOneAfterTheOther(_ path: VoiceLoopPath) {
    var numbers = XorShift(seed: 0x9E37_79B9_7F4A_7C15)
    let frames = 256
    let pairs = (0..<8_192).map { _ in SIMD2<Float>(numbers.float(-1...1), numbers.float(-0.01...0.01)) }
    var runs = [WideWavetableRun(), WideWavetableRun()]
    for r in 0..<2 {
        for l in 0..<8 {
            runs[r].phase[l] = UInt32(truncatingIfNeeded: numbers.next())
            runs[r].increment[l] = UInt32(truncatingIfNeeded: numbers.next() >> 40)
            runs[r].offsets[l] = UInt32((l + r) % 6 * 1_024)
            runs[r].b1[l] = numbers.float(0.1...0.9); runs[r].b2[l] = numbers.float(0.05...0.5)
            runs[r].b3[l] = numbers.float(0.01...0.3)
            runs[r].levelLeft[l] = numbers.float(0...1); runs[r].levelRight[l] = numbers.float(0...1)
        }
    }
    pairs.withUnsafeBytes { table in
        var first = runs[0], second = runs[1], pairedFirst = runs[0], pairedSecond = runs[1]
        let expected = sums(frames: frames) { at, toRight in
            playWavetableRun(on: path, &first, pairs: table.baseAddress!, count: frames, sums: at, toRight: toRight)
            playWavetableRun(on: path, &second, pairs: table.baseAddress!, count: frames, sums: at, toRight: toRight)
        }
        let got = sums(frames: frames) { at, toRight in
            playWavetableRuns(on: path, &pairedFirst, &pairedSecond, pairs: table.baseAddress!, count: frames, sums: at,
                              toRight: toRight)
        }
        let differs = expected.indices.first { expected[$0].bitPattern != got[$0].bitPattern }
        #expect(differs == nil, "\(path.rawValue): sum \(differs ?? 0) differs from two runs one after the other")
        #expect(expected.contains { $0 != 0.25 }, "the runs added nothing to the sums")
        for (tested, reference) in [(pairedFirst, first), (pairedSecond, second)] {
            #expect(tested.phase == reference.phase && tested.z1 == reference.z1 && tested.z2 == reference.z2)
        }
    }
}

/// A built-in synth's kept steady groups (Synth+LaneCache.swift) on each path the CPU runs that plays them
/// eight wide, against one playing them four lanes at a time: with the effects on, and off (kept groups without
/// sends, which two at a time may play in one loop: `playWideWavetableRuns`).
@Test(.enabled(if: VoiceLoopPath.supported.contains { $0.playsKeptGroupsEightWide }, "this CPU runs neither AVX2 nor AVX-512"),
      arguments: VoiceLoopPath.supported.filter { $0.playsKeptGroupsEightWide })
func keptBuiltInGroupsSoundTheSameOnEveryPath(_ path: VoiceLoopPath) {
    for effects in [true, false] {
        let wide = Synth(voices: 64, patch: 1), narrow = Synth(voices: 64, patch: 1)
        wide.voiceLoops = path
        narrow.playsWideLoops = false
        for synth in [wide, narrow] {
            synth.prepare(sampleRate: 48_000, maxFrames: 64)
            synth.setParameter(.decay, 0.02) // voices settle, so their groups are kept
            synth.setEffects(reverb: effects, chorus: effects)
        }
        let chord: (Synth) -> Void = { synth in
            for i in 0..<40 { synth.handle(noteOn(UInt8(40 + i % 16), velocity: 100, channel: UInt8(i / 16))) }
        }
        let release: (Synth) -> Void = { synth in
            for i in 0..<8 { synth.handle(noteOff(UInt8(40 + i), channel: 0)) }
        }
        let names = (path.rawValue + (effects ? "" : ", effects off"), "four lanes")
        let mismatch = firstDifference(wide, narrow, names: names, period: 64, calls: 300,
                                       script: [0: [chord], 150: [release]])
        #expect(mismatch == nil, "\(mismatch ?? "")")
        #expect(wide.builtIn.laneCache.keptRenders > 100, "kept groups rendered: \(wide.builtIn.laneCache.keptRenders)")
    }
}

@Test func theEnvironmentForcesOnlyAPathTheCPURuns() {
    #expect(VoiceLoopPath.choose(nil) == (VoiceLoopPath.fastest, nil))
    #expect(VoiceLoopPath.choose("") == (VoiceLoopPath.fastest, nil))
    #expect(VoiceLoopPath.choose("portable") == (.portable, nil))
    #expect(VoiceLoopPath.choose("PORTABLE") == (.portable, nil))
    let unknown = VoiceLoopPath.choose("sse5")
    #expect(unknown.path == VoiceLoopPath.fastest)
    #expect(unknown.warning == "BACKBEAT_VOICE_LOOPS=sse5 is not a voice loop path (portable, avx2 or avx512): playing \(VoiceLoopPath.fastest.rawValue)")
    for path in VoiceLoopPath.allCases {
        let chosen = VoiceLoopPath.choose(path.rawValue)
        if VoiceLoopPath.supported.contains(path) {
            #expect(chosen == (path, nil))
        } else {
            #expect(chosen.path == VoiceLoopPath.fastest)
            #expect(chosen.warning?.contains("this CPU does not run \(path.name)") == true)
        }
    }
    // A synth told to take a path its CPU does not run takes the fastest it does.
    let synth = Synth(voices: 1)
    for path in VoiceLoopPath.allCases {
        synth.voiceLoops = path
        #expect(synth.voiceLoops == (VoiceLoopPath.supported.contains(path) ? path : VoiceLoopPath.fastest))
    }
}
