// Issue 20: the monitor learns which sysex the synth did not act on. The real-time context hands each sysex to
// the synth and reports the answer in its monitor event (`MonitorEvent.sysexIgnored`), from JACK's buffer and
// from the ALSA sequencer's ring alike.
@testable import Engine
import DSP
import MIDI
import Testing

@Suite struct SysexIgnoredTests {
    /// A GS reverb macro (Hall 2) with its checksum right, or wrong.
    static func hall(checksum: UInt8 = 0x0B) -> [UInt8] { [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x01, 0x30, 0x04, checksum, 0xF7] }
    static let xgReverbType: [UInt8] = [0xF0, 0x43, 0x10, 0x4C, 0x02, 0x01, 0x00, 0x01, 0x10, 0xF7]

    static func monitored(_ context: RealtimeContext) -> [MonitorEvent] {
        var out: [MonitorEvent] = []
        while let event = context.uiRing.pop() { if case .midi(let m) = event { out.append(m) } }
        while context.sysexRing.pop() != nil {}
        return out
    }

    @Test func jackSysexIsMarkedIgnoredWhenTheSynthDidNotActOnIt() {
        let synth = Synth()
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        let context = RealtimeContext(synth: synth)
        context.maxFrames = 256
        var left = [Float](repeating: 0, count: 256), right = left
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                let p = context.beginPeriod(periodStart: 0)
                var output = PeriodRenderer(left: l.baseAddress!, right: r.baseAddress!, frames: 256, chunk: 256)
                for (frame, message) in [(0, Self.hall()), (10, Self.hall(checksum: 0x0C)), (20, Self.xgReverbType)] {
                    context.render(&output, upTo: frame, p)
                    var bytes = message
                    bytes.withUnsafeMutableBufferPointer {
                        context.receive(bytes: $0.baseAddress!, size: $0.count, frameTime: UInt32(frame), midiOpen: p.midiOpen)
                    }
                }
                context.finishPeriod(p, &output)
            }
        }
        let events = Self.monitored(context)
        #expect(events.map(\.sysexIgnored) == [false, true, true])
        #expect(synth.ignoredSysexCount == 2)
        #expect(abs(ReverbSettings.decayTime(roomSize: synth.value(of: .roomSize)) - 2.8) < 0.01, "the macro was applied")
    }

    @Test func alsaSysexIsMarkedAlike() {
        let synth = Synth()
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        let context = RealtimeContext(synth: synth, ringCapacity: 64, uiRingCapacity: 256, sysexCapacity: 256, captureCapacity: 64)
        context.maxFrames = 256
        var left = [Float](repeating: 0, count: 256), right = left
        for message in [Self.xgReverbType, Self.hall()] {
            #expect(message.withUnsafeBufferPointer { context.alsaSysexRing.push(contentsOf: $0) } == message.count)
            #expect(context.alsaRing.push(.sysex(length: UInt32(message.count), .alsa)))
        }
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                context.process(frames: 256, left: l.baseAddress!, right: r.baseAddress!, periodStart: 0)
            }
        }
        let events = Self.monitored(context)
        #expect(events.map(\.sysexIgnored) == [true, false])
        // While the lifecycle gate is closed nothing reaches the synth: the row is LOST, not "ignored".
        context.midiGate.close()
        #expect(Self.xgReverbType.withUnsafeBufferPointer { context.alsaSysexRing.push(contentsOf: $0) } == Self.xgReverbType.count)
        #expect(context.alsaRing.push(.sysex(length: UInt32(Self.xgReverbType.count), .alsa)))
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                context.process(frames: 256, left: l.baseAddress!, right: r.baseAddress!, periodStart: 256)
            }
        }
        let gated = Self.monitored(context)
        #expect(gated.map(\.lost) == [true] && gated.map(\.sysexIgnored) == [false])
    }
}
