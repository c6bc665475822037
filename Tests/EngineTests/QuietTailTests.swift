// A render's tail ends where it stops being audible (Sources/Engine/Core/QuietTail.swift): a SoundFont's
// release and the reverb no longer run the render seconds past End-of-Track below -90 dBFS.
@testable import Engine
import DSP
import MIDI
import Testing
import TestSupport

private enum QuietTailFont {
    static let path = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
}

struct QuietTailTests {
    static let rate = 48_000.0
    static let threshold = QuietTail.threshold

    /// A staccato C major chord (0.25 s) on the piano; the file's End-of-Track at 1.5 s.
    static let chord: [TimedMessage] = [60, 64, 67].flatMap { key in
        [TimedMessage(seconds: 0, message: ShortMessage(status: 0x90, data1: key, data2: 100)),
         TimedMessage(seconds: 0.25, message: ShortMessage(status: 0x80, data1: key, data2: 0))]
    }

    /// The last frame at or above -90 dBFS in either channel.
    static func lastAudible(_ audio: (left: [Float], right: [Float])) -> Int {
        (0..<audio.left.count).last { abs(audio.left[$0]) >= threshold || abs(audio.right[$0]) >= threshold } ?? -1
    }

    @Test(.needs(file: QuietTailFont.path, package: "fluid-soundfont-gm"))
    func aSoundFontTailEndsWhereItFallsBelowMinus90dBFS() throws {
        let font = try SoundFont.load(path: QuietTailFont.path)
        let audio = OfflineRenderer.render(Self.chord, sampleRate: Self.rate, voices: 64, soundFont: font,
                                           periodFrames: 256, padding: 0.05, until: 1.5)
        let last = Self.lastAudible(audio)
        // The piano's release and the reverb fall below -90 dBFS before End-of-Track (the voices still in their
        // release then): the render ends at 1.5 s, as the built-in synth's does.
        #expect(last < Int(1.5 * Self.rate))
        #expect(audio.left.count == Int(1.5 * Self.rate))
        // Held to 1 s, the chord rings past End-of-Track: the render ends within one period and the padding
        // of its last audible frame, not seconds on.
        let held = Self.chord.map { m in
            m.message.kind == .noteOff ? TimedMessage(seconds: 1, message: m.message) : m
        }
        let ringing = OfflineRenderer.render(held, sampleRate: Self.rate, voices: 64, soundFont: font,
                                             periodFrames: 256, padding: 0.05, until: 1.5)
        let ringingLast = Self.lastAudible(ringing)
        #expect(ringingLast > Int(1.5 * Self.rate))
        #expect(ringing.left.count - 1 - ringingLast <= 256 + Int(0.05 * Self.rate),
                "ends \(ringing.left.count - 1 - ringingLast) frames after the last audible one")
        // What was dropped was inaudible: a render allowed to run to its old end adds nothing above -90 dBFS.
        let padded = OfflineRenderer.render(Self.chord + [TimedMessage(seconds: 6, message: ShortMessage(status: 0xB0, data1: 7, data2: 100))],
                                            sampleRate: Self.rate, voices: 64, soundFont: font, periodFrames: 256, padding: 0)
        #expect(padded.left.count >= Int(6 * Self.rate))
        #expect(Self.lastAudible(padded) == last, "the longer render's last audible frame")
    }

    @Test func theBuiltInSynthStillEndsAtEndOfTrack() {
        let audio = OfflineRenderer.render(Self.chord, sampleRate: Self.rate, periodFrames: 256, padding: 0.05, until: 1.5)
        #expect(audio.left.count == Int(1.5 * Self.rate))
    }

    @Test func quietPeriodsAreHeldBackAndWrittenUnchangedWhenTheTailSoundsAgain() throws {
        var tail = QuietTail(periodFrames: 4, sampleRate: 8)
        var quiet: [Float] = [0, 1e-6, -2e-5, 0], loud: [Float] = [0, 0.5, 0, 0]
        #expect(quiet.withUnsafeMutableBufferPointer { q in tail.hold(q, q) })
        #expect(!tail.isOver)
        #expect(!loud.withUnsafeMutableBufferPointer { l in tail.hold(l, l) })
        var written: [Float] = []
        tail.flush { left, _ in written += left }
        #expect(written == quiet)
        // Two held periods of four frames are the whole window (one second at 8 Hz): the tail is over.
        for _ in 0..<2 { _ = quiet.withUnsafeMutableBufferPointer { q in tail.hold(q, q) } }
        #expect(tail.isOver)
    }
}
