// The channel mixer on the real-time side, without a server: periods as the callback runs them. Each channel's
// level reaches the UI through atomics; a mute silences the channel from the next period (its voices faded out,
// its later note-ons kept from the synth); a volume offset scales the channel alone.
@testable import Engine
import DSP
import Foundation
import MIDI
import Testing

@Suite struct ChannelMixerTests {
    static let rate = 48_000.0, period = 256

    final class Live {
        let context: RealtimeContext
        var frame: UInt32 = 0
        init() {
            let synth = Synth()
            synth.prepare(sampleRate: ChannelMixerTests.rate, maxFrames: ChannelMixerTests.period)
            context = RealtimeContext(synth: synth)
            context.maxFrames = ChannelMixerTests.period
        }

        /// A message at the start of the next period.
        func send(_ status: UInt8, _ d1: UInt8, _ d2: UInt8) {
            #expect(context.playerRing.push(PlayerEvent(frameTime: frame, message: ShortMessage(status: status, data1: d1, data2: d2))))
        }

        /// `periods` periods; their left channel.
        func run(_ periods: Int) -> [Float] {
            var left = [Float](repeating: 0, count: periods * ChannelMixerTests.period), right = left
            for p in 0..<periods {
                let at = p * ChannelMixerTests.period
                left.withUnsafeMutableBufferPointer { l in
                    right.withUnsafeMutableBufferPointer { r in
                        context.process(frames: ChannelMixerTests.period, left: l.baseAddress! + at, right: r.baseAddress! + at, periodStart: frame)
                    }
                }
                frame &+= UInt32(ChannelMixerTests.period)
            }
            return left
        }

        func levels() -> [Float] { (0..<16).map { Float(bitPattern: context.mixer.levels[$0].exchange(0, ordering: .relaxed)) } }
    }

    static func rms(_ x: ArraySlice<Float>) -> Double { (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(x.count, 1))).squareRoot() }

    @Test func levelsPerChannelAndAMuteFromTheNextPeriod() {
        let live = Live()
        live.send(0x90, 60, 100)  // channel 1
        live.send(0x91, 67, 100)  // channel 2
        _ = live.run(20)
        let levels = live.levels()
        #expect(levels[0] > 0.01 && levels[1] > 0.01, "\(levels)")
        #expect(levels[2...].allSatisfy { $0 == 0 })
        // Both channels muted: silent once the 2 ms fade has run, though the notes are still held.
        live.context.mixer.muted.store(0b11, ordering: .relaxed)
        let muted = live.run(8)
        #expect(Self.rms(muted[0..<96]) > 0)
        #expect(muted[200...].allSatisfy { abs($0) < 1e-6 }, "largest \(muted[200...].map(abs).max() ?? 0)")
        // A note-on on a muted channel does not sound; unmuted, the next one does.
        live.send(0x90, 72, 100)
        #expect(live.run(8).allSatisfy { abs($0) < 1e-6 })
        live.context.mixer.muted.store(0, ordering: .relaxed)
        live.send(0x90, 72, 100)
        #expect(Self.rms(live.run(8)[...]) > 0.001)
    }

    @Test func aVolumeOffsetScalesItsChannelOnly() {
        func level(gain: Float, pan: Float = 0) -> (left: Double, levels: [Float]) {
            let live = Live()
            live.context.mixer.gains[0].store(gain.bitPattern, ordering: .relaxed)
            live.context.mixer.pans[0].store(pan.bitPattern, ordering: .relaxed)
            live.send(0x90, 60, 100)
            let out = live.run(40)
            return (Self.rms(out[4_096...]), live.levels())
        }
        let plain = level(gain: 1), half = level(gain: 0.5), hardLeft = level(gain: 1, pan: 1)
        let db = 20 * log10(half.left / plain.left)
        #expect(abs(db + 6.02) < 0.3, "\(db) dB")
        #expect(half.levels[0] < plain.levels[0])
        // A pan offset of +1 moves centre (64) to hard right: the left side falls silent.
        #expect(hardLeft.left < plain.left * 0.01, "\(hardLeft.left) against \(plain.left)")
    }
}
