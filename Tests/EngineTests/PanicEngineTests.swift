import DSP
@testable import Engine
import MIDI
import Testing

/// Panic and the lifecycle's release through the real-time period: control events on the keyboard ring,
/// applied by the callback's code even while the lifecycle gate drops MIDI.
@Suite struct PanicEngineTests {
    let frames = 256
    let context: RealtimeContext
    let left: UnsafeMutablePointer<Float>
    let right: UnsafeMutablePointer<Float>

    init() {
        let synth = Synth(voices: 16)
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        context = RealtimeContext(synth: synth)
        left = .allocate(capacity: 256)
        right = .allocate(capacity: 256)
    }

    /// Renders `periods` periods; returns the peak of the last one.
    func run(_ periods: Int) -> Float {
        var peak: Float = 0
        for p in 0..<periods {
            context.process(frames: frames, left: left, right: right, periodStart: UInt32(p * frames))
            peak = (0..<frames).reduce(0) { max($0, abs(left[$1]), abs(right[$1])) }
            while context.uiRing.pop() != nil {}
        }
        return peak
    }

    @Test func panicSilencesSustainedVoicesEvenWithTheGateClosed() {
        defer { left.deallocate(); right.deallocate() }
        #expect(context.keyboardRing.push(.midi(ShortMessage(status: 0xB0, data1: 64, data2: 127), .keyboard)))  // pedal down
        #expect(context.keyboardRing.push(.midi(ShortMessage(status: 0x90, data1: 60, data2: 100), .keyboard)))
        #expect(context.keyboardRing.push(.midi(ShortMessage(status: 0x80, data1: 60, data2: 0), .keyboard)))  // held
        #expect(run(20) > 0.01, "the sustained note sounds")
        #expect(context.synth.activeVoiceCount == 1)
        context.midiGate.close()  // suspended: MIDI would be lost
        #expect(context.keyboardRing.push(.silenceAllVoices))
        _ = run(1)
        #expect(context.synth.activeVoiceCount == 0)
        #expect(run(1) == 0, "silent one period after panic")
    }

    @Test func releaseAllVoicesEndsAHangingNoteWithItsRelease() {
        defer { left.deallocate(); right.deallocate() }
        #expect(context.keyboardRing.push(.midi(ShortMessage(status: 0x90, data1: 64, data2: 100), .keyboard)))
        #expect(run(20) > 0.01)
        context.midiGate.close()
        #expect(context.keyboardRing.push(.midi(ShortMessage(status: 0x80, data1: 64, data2: 0), .keyboard)))  // lost
        _ = run(2)
        #expect(context.synth.activeVoiceCount == 1, "the note-off was lost: the note hangs")
        #expect(context.keyboardRing.push(.releaseAllVoices))
        context.midiGate.open()
        #expect(run(1) > 0.001, "released, not cut")
        #expect(run(100) == 0, "silent after the release (0.3 s)")
        #expect(context.synth.activeVoiceCount == 0)
    }
}
