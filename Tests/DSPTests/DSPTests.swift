import Foundation
import Testing
@testable import DSP
import MIDI

let rate = 48_000.0

@Test func a4PlaysAt440Hz() {
    let synth = steadySynth()
    synth.handle(noteOn(69))
    let out = render(synth, frames: 48_000)
    let f = zeroCrossingFrequency(out.left[4_800...], sampleRate: rate)
    #expect(abs(f / 440 - 1) < 0.005, "measured \(f) Hz")
}

@Test(arguments: [Waveform.triangle, .saw, .square])
func everyWaveformHasTheRightPitch(_ waveform: Waveform) {
    let synth = steadySynth(waveform)
    synth.handle(noteOn(57))
    let out = render(synth, frames: 16_384 + 4_800)
    let magnitude = spectrum(out.left[4_800...], n: 16_384)
    let fundamental = spectralPeaks(magnitude, sampleRate: rate, n: 16_384, count: 1)[0]
    #expect(abs(fundamental / 220 - 1) < 0.005, "measured \(fundamental) Hz")
}

@Test func aFourNoteChordGivesFourPeaks() {
    let synth = steadySynth()
    let notes: [UInt8] = [60, 64, 67, 72]
    for note in notes { synth.handle(noteOn(note, velocity: 80)) }
    let out = render(synth, frames: 16_384 + 4_800)
    let magnitude = spectrum(out.left[4_800...], n: 16_384)
    let peaks = spectralPeaks(magnitude, sampleRate: rate, n: 16_384, count: 4).sorted()
    #expect(peaks.count == 4)
    for (peak, note) in zip(peaks, notes) {
        let expected = noteFrequency(Double(note))
        #expect(abs(peak / expected - 1) < 0.005, "peak \(peak) Hz, expected \(expected) Hz")
    }
}

@Test func pitchBendFollowsTheDefaultRangeAndRPN0() {
    func measured(_ messages: [ShortMessage]) -> Double {
        let synth = steadySynth()
        for m in messages { synth.handle(m) }
        synth.handle(noteOn(69))
        let out = render(synth, frames: 24_000)
        return zeroCrossingFrequency(out.left[4_800...], sampleRate: rate)
    }
    let up = measured([bend(8191)])
    #expect(abs(up / (440 * pow(2, 2.0 * 8191 / 8192 / 12)) - 1) < 0.002, "\(up) Hz")
    let down = measured([bend(-8192)])
    #expect(abs(down / (440 * pow(2, -2.0 / 12)) - 1) < 0.002, "\(down) Hz")
    let half = measured([bend(4096)])
    #expect(abs(half / (440 * pow(2, 1.0 / 12)) - 1) < 0.002, "\(half) Hz")
    // RPN 0 (pitch-bend sensitivity) = 12 semitones, then full bend down: an octave lower.
    let octave = measured([cc(101, 0), cc(100, 0), cc(6, 12), cc(38, 0), cc(101, 127), cc(100, 127), bend(-8192)])
    #expect(abs(octave / 220 - 1) < 0.002, "\(octave) Hz")
    // Data entry with RPN null selected changes nothing.
    let ignored = measured([cc(101, 127), cc(100, 127), cc(6, 12), bend(-8192)])
    #expect(abs(ignored / (440 * pow(2, -2.0 / 12)) - 1) < 0.002, "\(ignored) Hz")
}

@Test func bendDuringANoteMovesItsPitch() {
    let synth = steadySynth()
    synth.handle(noteOn(69))
    _ = render(synth, frames: 4_800)
    synth.handle(bend(8191))
    let out = render(synth, frames: 24_000)
    let f = zeroCrossingFrequency(out.left[480...], sampleRate: rate)
    #expect(abs(f / (440 * pow(2, 2.0 * 8191 / 8192 / 12)) - 1) < 0.002, "\(f) Hz")
}

@Test func afterReleaseTheOutputFallsSilent() {
    let synth = Synth(patch: 0) // "sine keys": release 0.3 s
    synth.prepare(sampleRate: rate, maxFrames: 256)
    synth.handle(noteOn(60, velocity: 127))
    let held = render(synth, frames: 9_600)
    #expect(decibels(Double(peak(held.left[4_800...]))) > -30)
    synth.handle(noteOff(60))
    let release = Double(synth.value(of: .release))
    let tail = render(synth, frames: Int(release * rate) + 4_800)
    let after = tail.left[Int(release * rate)...]
    #expect(decibels(Double(peak(after))) < -90)
    #expect(decibels(Double(peak(tail.right[Int(release * rate)...]))) < -90)
    #expect(synth.activeVoiceCount == 0)
    // The release itself is gradual: level in its first 10 ms is close to the held level.
    #expect(decibels(Double(peak(tail.left[..<480]))) > decibels(Double(peak(held.left[4_800...]))) - 3)
}

@Test(arguments: [Waveform.saw, .square, .triangle])
func noAliasingUpTo5kHz(_ waveform: Waveform) {
    let n = 32_768
    for note in [33, 45, 57, 69, 81, 88, 93, 100, 105, 108, 111] as [UInt8] { // 55 Hz ... 4978 Hz
        let synth = steadySynth(waveform)
        synth.handle(noteOn(note, velocity: 127))
        let out = render(synth, frames: n + 4_800)
        let magnitude = spectrum(out.left[4_800...], n: n)
        let f0 = noteFrequency(Double(note))
        let binWidth = rate / Double(n)
        let f0Bin = Int((f0 / binWidth).rounded())
        let fundamental = magnitude[(f0Bin - 3)...(f0Bin + 3)].max()!
        var worst = -300.0, worstFrequency = 0.0
        for bin in 6..<magnitude.count {
            let f = Double(bin) * binWidth
            let harmonic = (f / f0).rounded()
            if harmonic >= 1 && abs(f - harmonic * f0) <= 6 * binWidth { continue } // a harmonic's main lobe
            let level = decibels(magnitude[bin] / fundamental)
            if level > worst { worst = level; worstFrequency = f }
        }
        #expect(worst < -60, "\(waveform) at \(f0) Hz: \(worst) dB at \(worstFrequency) Hz")
        if ProcessInfo.processInfo.environment["DSP_VERBOSE"] != nil {
            print("alias \(waveform) \(f0) Hz: worst non-harmonic \(worst) dB at \(worstFrequency) Hz")
        }
    }
}

@Test func velocityChangesLevel() {
    func level(_ velocity: UInt8) -> Double {
        let synth = steadySynth()
        synth.handle(noteOn(69, velocity: velocity))
        return rms(render(synth, frames: 9_600).left[4_800...])
    }
    let loud = level(127), medium = level(64), soft = level(20)
    #expect(loud > medium && medium > soft)
    // Patch 0: level = 1 - s + s (v/127)^2 with sensitivity s = 0.8.
    let expected = 0.2 + 0.8 * pow(64.0 / 127, 2)
    #expect(abs(decibels(medium / loud) - decibels(expected)) < 0.2)
}

@Test func panIsEqualPower() {
    func channels(_ pan: UInt8) -> (Double, Double) {
        let synth = steadySynth()
        synth.handle(cc(10, pan))
        synth.handle(noteOn(69))
        let out = render(synth, frames: 14_400)
        return (rms(out.left[9_600...]), rms(out.right[9_600...]))
    }
    let hardLeft = channels(0), center = channels(64), hardRight = channels(127), quarter = channels(32)
    #expect(hardLeft.1 < hardLeft.0 * 1e-3)
    #expect(hardRight.0 < hardRight.1 * 1e-3)
    #expect(abs(center.0 / center.1 - 1) < 1e-3)
    let power = { (p: (Double, Double)) in p.0 * p.0 + p.1 * p.1 }
    for p in [center, hardRight, quarter] {
        #expect(abs(decibels(power(p).squareRoot() / power(hardLeft).squareRoot())) < 0.1)
    }
    #expect(abs(decibels(center.0 / hardLeft.0) + 3.01) < 0.1)
}

@Test func sustainPedalHoldsNotesUntilReleased() {
    let synth = steadySynth()
    synth.handle(cc(64, 127))
    synth.handle(noteOn(69))
    _ = render(synth, frames: 2_400)
    synth.handle(noteOff(69))
    let held = render(synth, frames: 24_000)
    #expect(decibels(rms(held.left[19_200...])) > -40)
    #expect(synth.activeVoiceCount == 1)
    synth.handle(cc(64, 0))
    let released = render(synth, frames: 9_600) // release 0.05 s
    #expect(decibels(Double(peak(released.left[4_800...]))) < -90)
    #expect(synth.activeVoiceCount == 0)
}

@Test func allNotesOffReleasesAndAllSoundOffSilencesQuickly() {
    let synth = Synth(patch: 0) // sine keys, release 0.3 s
    synth.prepare(sampleRate: rate, maxFrames: 256)
    for note: UInt8 in [60, 64, 67] { synth.handle(noteOn(note, velocity: 127)) }
    _ = render(synth, frames: 4_800)
    #expect(synth.activeVoiceCount == 3)
    synth.handle(cc(123, 0))
    let tail = render(synth, frames: 19_200)
    // Released, not cut: still audible 50 ms later, silent after the release time.
    #expect(decibels(rms(tail.left[2_400..<2_880])) > -40)
    #expect(decibels(Double(peak(tail.left[14_400...]))) < -90)

    for note: UInt8 in [60, 64, 67] { synth.handle(noteOn(note, velocity: 127)) }
    _ = render(synth, frames: 4_800)
    synth.handle(cc(120, 0))
    let cut = render(synth, frames: 480)
    #expect(peak(cut.left[240...]) == 0, "silent within 5 ms")
    #expect(synth.activeVoiceCount == 0)
    // The cut is a fade, not a step.
    #expect(zip(cut.left.dropFirst(), cut.left).map { abs($0 - $1) }.max()! < 0.02)
}

@Test func resetAllControllersRestoresPitchAndLevel() {
    let synth = steadySynth()
    synth.handle(noteOn(69))
    let before = render(synth, frames: 9_600)
    synth.handle(bend(8191))
    synth.handle(cc(11, 20))
    synth.handle(cc(1, 127))
    _ = render(synth, frames: 4_800)
    synth.handle(cc(121, 0))
    let after = render(synth, frames: 24_000)
    let f = zeroCrossingFrequency(after.left[4_800...], sampleRate: rate)
    #expect(abs(f / 440 - 1) < 0.002, "\(f) Hz")
    #expect(abs(decibels(rms(after.left[4_800...]) / rms(before.left[4_800...]))) < 0.1)
}

@Test func modWheelAddsVibrato() {
    let synth = steadySynth()
    synth.handle(cc(1, 127))
    synth.handle(noteOn(69))
    let out = render(synth, frames: 48_000)
    // Frequency over 10 ms windows swings around 440 Hz by about +-0.5 semitone.
    let windows = stride(from: 4_800, to: 43_200, by: 480).map {
        zeroCrossingFrequency(out.left[$0..<($0 + 960)], sampleRate: rate)
    }
    #expect(windows.max()! > 440 * pow(2, 0.3 / 12))
    #expect(windows.min()! < 440 * pow(2, -0.3 / 12))
    #expect(windows.max()! < 440 * pow(2, 0.6 / 12))
}

@Test func stealingMoreNotesThanVoicesNeverClicks() {
    let synth = steadySynth(voices: 4)
    synth.setParameter(.release, 2)
    // 24 notes 110...220 Hz, some at the same frame, some released, none waiting for a free voice.
    let (output, maximumVoices) = stealingWorkout(synth)
    #expect(maximumVoices <= 4)
    let largestJump = zip(output.dropFirst(), output).map { abs($0 - $1) }.max()!
    // Four held sines up to 220 Hz at about 0.21 each move at most ~0.025 per sample; a voice cut
    // without a fade would jump by up to 0.21.
    #expect(largestJump < 0.06, "largest step \(largestJump)")
}

@Test(arguments: [0, 1, 37, 255, 256, 300])
func noteOnStartsExactlyAtItsFrame(_ offset: Int) {
    let synth = Synth()
    synth.prepare(sampleRate: rate, maxFrames: 256)
    let (left, right) = render(synth, frames: 1_024, events: [(offset, noteOn(69, velocity: 100))], fill: 1)
    let first = left.firstIndex { $0 != 0 }
    #expect(first == offset)
    #expect(right.firstIndex { $0 != 0 } == offset)
}

@Test(arguments: 0..<SynthPatch.builtIn.count)
func aFullChordDoesNotClip(_ patch: Int) {
    let synth = Synth()
    synth.prepare(sampleRate: rate, maxFrames: 256)
    if patch >= SynthPatch.firstGeneralMIDI {
        synth.handle(ShortMessage(status: 0xC0, data1: UInt8(SynthPatch.program(forPatch: patch) ?? 0)))
    } else {
        synth.selectPatch(patch, channel: nil)
    }
    #expect(synth.currentPatch == patch)
    for i in 0..<16 { synth.handle(noteOn(UInt8(36 + 3 * i), velocity: 127)) }
    let out = render(synth, frames: 48_000)
    #expect(peak(out.left[...]) < 1 && peak(out.right[...]) < 1)
    #expect(decibels(Double(peak(out.left[...]))) > -12, "loud")
}

@Test func theChannelFilterIgnoresOtherChannels() {
    let synth = steadySynth(channel: 3)
    synth.handle(noteOn(69, channel: 0))
    synth.handle(noteOn(72, channel: 15))
    #expect(peak(render(synth, frames: 4_800).left[...]) == 0)
    #expect(synth.activeVoiceCount == 0)
    synth.handle(noteOn(69, channel: 3))
    #expect(peak(render(synth, frames: 4_800).left[...]) > 0.01)
    #expect(synth.activeVoiceCount == 1)
    // Omni answers everything.
    let omni = steadySynth()
    omni.handle(noteOn(69, channel: 9))
    #expect(peak(render(omni, frames: 4_800).left[...]) > 0.01)
}

@Test func noteOnWithVelocityZeroIsANoteOff() {
    let synth = steadySynth()
    synth.handle(noteOn(69))
    _ = render(synth, frames: 480)
    synth.handle(noteOn(69, velocity: 0))
    _ = render(synth, frames: 9_600)
    #expect(synth.activeVoiceCount == 0)
}

@Test func programChangeChoosesThePatchOfItsGeneralMIDIProgram() {
    let synth = Synth()
    synth.prepare(sampleRate: rate, maxFrames: 64)
    // Issue 36: with no program change a synth plays GM program 0's patch (piano), as after GM System On,
    // as FluidSynth and TiMidity do; it played patch 0, sine keys.
    #expect(synth.currentPatch == SynthPatch.generalMIDI(program: 0) && SynthPatch.builtIn[synth.currentPatch].name == "acoustic grand piano")
    #expect((0..<16).allSatisfy { synth.patch(onChannel: $0) == SynthPatch.defaultPatch })
    let count = SynthPatch.builtIn.count
    #expect(count >= 5)
    #expect(SynthPatch.builtIn[0].name == "sine keys")
    // The named patches' names are unique, and so are the programs' (GM's names; "flute" is both, and
    // `index(named:)` finds the named one first).
    #expect(count == 13 + 128 && SynthPatch.firstGeneralMIDI == 13)
    #expect(Set(SynthPatch.builtIn[..<13].map(\.name)).count == 13 && Set(SynthPatch.builtIn[13...].map(\.name)).count == 128)
    #expect(SynthPatch.index(named: "flute") == 12 && SynthPatch.index(named: "Honky-Tonk_Piano") == 16)
    synth.handle(ShortMessage(status: 0xC5, data1: 33)) // fingered bass
    #expect(synth.currentPatch == 13 + 33)
    #expect(synth.value(of: .waveform) == Float(SynthPatch.builtIn[13 + 33].waveform.rawValue))
    #expect(synth.value(of: .cutoff) == SynthPatch.builtIn[13 + 33].cutoff)
    synth.handle(ShortMessage(status: 0xC0, data1: 16)) // drawbar organ
    #expect(SynthPatch.builtIn[synth.currentPatch].name == "drawbar organ")
    // Every program has its own patch, and a recorder finds the program again; a named patch answers a program
    // of its family. `init(patch:)` takes a patch index, modulo the count.
    for program in 0..<128 { #expect(SynthPatch.program(forPatch: SynthPatch.generalMIDI(program: program)) == program) }
    for patch in 0..<13 { #expect(SynthPatch.program(forPatch: patch) != nil) }
    // A named patch that sounds as a program's is written as that program (docs/builtin-programs.md).
    #expect([6, 3, 12].map { SynthPatch.program(forPatch: $0) } == [0, 89, 73])
    #expect(Synth(patch: count + 1).currentPatch == 1)
}

@Test func parametersAreClampedAndReadBack() {
    let synth = Synth()
    for parameter in SynthParameter.allCases {
        #expect(synth.value(of: parameter) == parameter.defaultValue)
        #expect(parameter.range.contains(parameter.defaultValue), "\(parameter)")
        synth.setParameter(parameter, 1e9)
        #expect(synth.value(of: parameter) == parameter.range.upperBound)
        synth.setParameter(parameter, -1e9)
        #expect(synth.value(of: parameter) == parameter.range.lowerBound)
    }
}

@Test func voiceCountIsClampedAndRenderWritesRatherThanAdds() {
    #expect(Synth(voices: 5_000).voiceCapacity == 4_096)
    #expect(Synth(voices: 0).voiceCapacity == 1)
    #expect(Synth().voiceCapacity == 256, "FluidSynth's default polyphony (issue 36)")
    let synth = Synth()
    synth.prepare(sampleRate: rate, maxFrames: 128)
    var left = [Float](repeating: 0.5, count: 128), right = left
    synth.render(left: &left, right: &right, frames: 128)
    #expect(left.allSatisfy { $0 == 0 } && right.allSatisfy { $0 == 0 })
}

@Test func extremeNotesAndBendsStayFinite() {
    let synth = steadySynth(.saw)
    synth.handle(cc(101, 0)); synth.handle(cc(100, 0)); synth.handle(cc(6, 24))
    synth.handle(bend(8191))
    synth.handle(noteOn(127, velocity: 127))
    synth.handle(noteOn(0, velocity: 127))
    synth.setParameter(.resonance, 1)
    let out = render(synth, frames: 9_600)
    #expect(out.left.allSatisfy { $0.isFinite && abs($0) < 1 })
}

@Test func stealingTakesReleasedVoicesFirstThenTheOldest() {
    func peaks(_ synth: Synth) -> [Double] {
        let out = render(synth, frames: 16_384 + 2_400)
        let magnitude = spectrum(out.left[2_400...], n: 16_384)
        let strongest = magnitude.max()!
        return spectralPeaks(magnitude, sampleRate: rate, n: 16_384, count: 4)
            .filter { magnitude[Int(($0 * 16_384 / rate).rounded())] > strongest * 0.05 }.sorted()
    }
    func near(_ list: [Double], _ note: UInt8) -> Bool {
        list.contains { abs($0 / noteFrequency(Double(note)) - 1) < 0.01 }
    }
    /// Plays `messages` with `frames` rendered after each.
    func play(_ synth: Synth, _ messages: [ShortMessage], framesAfterEach frames: Int) {
        for message in messages {
            synth.handle(message)
            _ = render(synth, frames: frames)
        }
    }
    /// Plays E5 and expects C5 and E5 to sound and A4 not (E5 took A4's voice).
    func expectE5TakesA4sVoice(_ synth: Synth, sourceLocation: SourceLocation = #_sourceLocation) {
        synth.handle(noteOn(76))
        let sounding = peaks(synth)
        #expect(near(sounding, 72) && near(sounding, 76) && !near(sounding, 69), "\(sounding)", sourceLocation: sourceLocation)
    }
    // Two voices: A4 released (long release), C5 held; E5 takes A4's voice.
    let released = steadySynth(voices: 2)
    released.setParameter(.release, 10)
    released.handle(noteOn(69))
    play(released, [noteOn(72), noteOff(69)], framesAfterEach: 2_400)
    expectE5TakesA4sVoice(released)
    // All held: the oldest (A4) goes.
    let held = steadySynth(voices: 2)
    play(held, [noteOn(69), noteOn(72)], framesAfterEach: 480)
    expectE5TakesA4sVoice(held)
    #expect(held.activeVoiceCount == 2)
}

@Test func volumeAndExpressionScaleTheLevelPerChannel() {
    func level(_ messages: [ShortMessage], channel: UInt8 = 0) -> Double {
        let synth = steadySynth()
        for m in messages { synth.handle(m) }
        synth.handle(noteOn(69, channel: channel))
        return rms(render(synth, frames: 14_400).left[9_600...])
    }
    let full = level([cc(7, 127)])
    // Both follow a square law: half the controller value is a quarter of the amplitude (-12 dB).
    #expect(abs(decibels(level([cc(7, 127), cc(11, 64)]) / full) - decibels(pow(64.0 / 127, 2))) < 0.1)
    #expect(abs(decibels(level([cc(7, 64)]) / full) - decibels(pow(64.0 / 127, 2))) < 0.1)
    // Controllers of another channel leave this one alone.
    #expect(abs(decibels(level([cc(7, 127, channel: 1), cc(7, 0)], channel: 1) / full)) < 0.1)
}

/// The mod wheel's vibrato: +-0.5 semitone at full wheel, a 5.5 Hz sine, per channel. Two channels with
/// different depths share one group of voices (settled voices whose pitch moves are rendered apart from
/// steady ones); each is panned to its own side so the two can be measured apart.
@Test func vibratoSwingsThePitchByTheWheelsDepthAt5Hz() {
    let synth = steadySynth()
    synth.handle(cc(10, 0, channel: 0))
    synth.handle(cc(10, 127, channel: 1))
    synth.handle(noteOn(69, channel: 0))
    synth.handle(noteOn(76, channel: 1))
    _ = render(synth, frames: 4_800) // settled before the wheel moves
    synth.handle(cc(1, 127, channel: 0))
    synth.handle(cc(1, 64, channel: 1))
    let out = render(synth, frames: 96_000)
    for (signal, note, semitones) in [(out.left, 69.0, 0.5), (out.right, 76.0, 0.5 * 64 / 127)] {
        let f = noteFrequency(note)
        let frequencies = periodFrequencies(signal[9_600...], sampleRate: rate)
        let high = frequencies.max() ?? 0, low = frequencies.min() ?? 0
        // One period's frequency averages the swing over the period: a hair under the peak.
        #expect(abs(high / (f * pow(2, semitones / 12)) - 1) < 0.002, "note \(note): highest \(high) Hz")
        #expect(abs(low / (f * pow(2, -semitones / 12)) - 1) < 0.002, "note \(note): lowest \(low) Hz")
        // Upward passes through the note's own pitch: 5.5 a second over the 1.8 s measured.
        var passes = 0
        for (a, b) in zip(frequencies, frequencies.dropFirst()) where a < f && b >= f { passes += 1 }
        #expect((9...11).contains(passes), "note \(note): \(passes) upward passes in 1.8 s")
    }
    // The wheel back to zero: the pitch settles on the note again.
    synth.handle(cc(1, 0, channel: 0))
    synth.handle(cc(1, 0, channel: 1))
    let after = render(synth, frames: 24_000)
    let steady = zeroCrossingFrequency(after.left[12_000...], sampleRate: rate)
    #expect(abs(steady / 440 - 1) < 0.001, "\(steady) Hz after the wheel returned")
}

/// Every key of all 16 channels at once (2048 notes) on a 4096-voice synth, then silence, then one note:
/// the voice loops only visit slots in use, so this checks they grow and shrink with the notes.
@Test func everyKeyOfEveryChannelSoundsAtOnce() {
    let synth = steadySynth(voices: Synth.maximumVoices)
    #expect(synth.voiceCapacity == 4_096)
    synth.handle(cc(0, 121, channel: 9)) // channel 10 melodic (GM2 bank 121): every key one voice, no drum kit
    for channel in 0..<UInt8(16) {
        for note in 0..<UInt8(128) { synth.handle(noteOn(note, velocity: 10, channel: channel)) }
    }
    #expect(synth.activeVoiceCount == 2_048)
    let chord = render(synth, frames: 256)
    #expect(synth.activeVoiceCount == 2_048)
    #expect(peak(chord.left[...]) > 0.1)
    for channel in 0..<UInt8(16) { synth.handle(cc(120, 0, channel: channel)) } // all sound off: 2 ms fades
    #expect(synth.activeVoiceCount == 0)
    _ = render(synth, frames: 256)
    #expect(synth.activeVoiceCount == 0)
    synth.handle(noteOn(69))
    #expect(synth.activeVoiceCount == 1)
    let out = render(synth, frames: 24_000)
    let f = zeroCrossingFrequency(out.left[4_800...], sampleRate: rate)
    #expect(abs(f / 440 - 1) < 0.002, "measured \(f) Hz")
}
