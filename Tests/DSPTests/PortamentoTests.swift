// Portamento (CC5/CC37 time, CC65 on/off, CC84 portamento control), heard in both synths: the pitch of each
// period of the rendered audio, in cents from the note's own pitch, against the glide's straight line.
import Foundation
import MIDI
import Testing
@testable import DSP

private let sampleRate = 48_000.0

/// Pitch in cents from `reference`, one value per period between rising zero crossings, with the period's
/// middle in seconds after `start` (a frame).
private func pitchTrack(_ x: [Float], from start: Int, reference: Double) -> [(time: Double, cents: Double)] {
    let crossings = risingZeroCrossings(x[start...])
    return zip(crossings, crossings.dropFirst()).map { a, b in
        ((0.5 * (a + b) - Double(start)) / sampleRate, 1200 * log2(sampleRate / (b - a) / reference))
    }
}

/// The first time the track comes within `cents` of 0 and stays there.
private func settleTime(_ track: [(time: Double, cents: Double)], within cents: Double) -> Double? {
    guard let last = track.lastIndex(where: { abs($0.cents) > cents }) else { return track.first?.time }
    return last + 1 < track.count ? track[last + 1].time : nil
}

/// Plays key 69 and lets it end, sends `setup`, then key 81 at frame 4_800 of the returned 0.6 s.
private func secondNote(_ kind: TunedSynth, setup: [ShortMessage]) -> [Float] {
    let synth = kind.make()
    synth.handle(noteOn(69))
    _ = render(synth, frames: 4_800)
    synth.handle(noteOff(69))
    _ = render(synth, frames: 24_000) // the release dies away
    for message in setup { synth.handle(message) }
    return render(synth, frames: 28_800, events: [(4_800, noteOn(81))]).left
}

@Suite struct PortamentoTests {
    @Test(arguments: TunedSynth.allCases)
    func aGlideIsAStraightLineInCentsOverCC5AndCC37Milliseconds(_ kind: TunedSynth) {
        // CC5 1, CC37 72: 200 ms (FluidSynth's law, MSB x 128 + LSB milliseconds).
        let out = secondNote(kind, setup: [cc(5, 1), cc(37, 72), cc(65, 127)])
        let track = pitchTrack(out, from: 4_800, reference: kind.frequency(81))
        let glideTime = 0.2
        // The SoundFont voice steps its pitch every 64 samples (1.3 ms, 8 cents of this glide), as FluidSynth's.
        let tolerance = kind == .builtIn ? 6.0 : 15.0
        var worst = 0.0
        for (time, cents) in track where time > 0.002 {
            let expected = -1200 * max(1 - time / glideTime, 0)
            worst = max(worst, abs(cents - expected))
        }
        #expect(worst < tolerance, "\(kind): off the glide's line by up to \(worst) cents")
        let start = track.first { $0.time > 0.001 }!
        #expect(abs(start.cents - (-1200 * (1 - start.time / glideTime))) < tolerance,
                "\(kind): starts at \(start.cents) cents at \(start.time) s")
        let end = track.filter { $0.time > 0.3 }.map(\.cents)
        #expect(end.allSatisfy { abs($0) < 3 }, "\(kind): ends off its note: \(end.max()!) cents")
        let settled = settleTime(track, within: 10)
        #expect(settled.map { abs($0 - glideTime * (1 - 10.0 / 1200)) < 0.006 } == true,
                "\(kind): within 10 cents after \(String(describing: settled)) s")
    }

    @Test(arguments: TunedSynth.allCases)
    func portamentoOffMeansNoGlide(_ kind: TunedSynth) {
        for setup in [[cc(5, 1), cc(37, 72)], [cc(5, 1), cc(65, 127), cc(65, 0)], [cc(65, 127)]] {
            let out = secondNote(kind, setup: setup)
            let track = pitchTrack(out, from: 4_800, reference: kind.frequency(81))
            let worst = track.filter { $0.time > 0.001 }.map { abs($0.cents) }.max()!
            #expect(worst < 3, "\(kind) \(setup): \(worst) cents off its note")
        }
    }

    /// GM2's legato portamento: in mono mode a detached note (no key down) starts at its own pitch, CC65 on
    /// or not (MonoModeTests hears the legato note glide); a CC84 key still makes it glide.
    @Test(arguments: TunedSynth.allCases)
    func inMonoModeADetachedNoteDoesNotGlide(_ kind: TunedSynth) {
        let out = secondNote(kind, setup: [cc(126, 1), cc(5, 1), cc(37, 72), cc(65, 127)])
        let track = pitchTrack(out, from: 4_800, reference: kind.frequency(81))
        let worst = track.filter { $0.time > 0.001 }.map { abs($0.cents) }.max()!
        #expect(worst < 3, "\(kind): \(worst) cents off its note")
        let controlled = secondNote(kind, setup: [cc(126, 1), cc(5, 1), cc(37, 72), cc(84, 69)])
        let start = pitchTrack(controlled, from: 4_800, reference: kind.frequency(81)).first { $0.time > 0.001 }!
        #expect(start.cents < -900, "\(kind): a CC84 key glides: \(start.cents) cents at the start")
    }

    @Test(arguments: TunedSynth.allCases)
    func portamentoControlGlidesFromItsKeyOnce(_ kind: TunedSynth) {
        // CC65 off; CC84 57 then key 81: from 2400 cents below, over 100 ms (CC5 0, CC37 100).
        let synth = kind.make()
        let events: [(frame: Int, message: ShortMessage)] = [
            (0, cc(37, 100)), (0, cc(84, 57)), (4_800, noteOn(81)), (19_200, noteOff(81)), (38_400, noteOn(81)),
        ]
        let out = render(synth, frames: 48_000, events: events).left
        let first = pitchTrack(Array(out[..<14_400]), from: 4_800, reference: kind.frequency(81))
        let tolerance = kind == .builtIn ? 6.0 : 20.0
        var worst = 0.0
        for (time, cents) in first where time > 0.002 {
            worst = max(worst, abs(cents + 2400 * max(1 - time / 0.1, 0)))
        }
        #expect(worst < tolerance, "\(kind): off the glide from key 57 by up to \(worst) cents")
        // The next note (CC84 used up, CC65 off) starts on its pitch.
        let second = pitchTrack(out, from: 38_400, reference: kind.frequency(81)).filter { $0.time > 0.001 }
        #expect(second.map { abs($0.cents) }.max()! < 3)
    }

    @Test func resetAllControllersTurnsPortamentoOff() {
        let out = secondNote(.builtIn, setup: [cc(5, 1), cc(65, 127), cc(121, 0)])
        let track = pitchTrack(out, from: 4_800, reference: TunedSynth.builtIn.frequency(81))
        #expect(track.filter { $0.time > 0.001 }.map { abs($0.cents) }.max()! < 3)
    }
}
