@testable import Engine
import DSP
import MIDI
import Testing

/// The real-time side of MIDI out without JACK: what one period queues for midi_out, in frame order, and what
/// the monitor sees as source `out`.
@Suite struct MIDIOutQueueTests {
    let noteOn = ShortMessage(status: 0x90, data1: 60, data2: 100)
    let thruOn = ShortMessage(status: 0x91, data1: 13, data2: 90)

    func context(thru: Bool) -> RealtimeContext {
        let synth = Synth(voices: 4, patch: 0, channel: nil)
        synth.prepare(sampleRate: 48_000, maxFrames: 1024)
        let context = RealtimeContext(synth: synth, ringCapacity: 64, uiRingCapacity: 256, sysexCapacity: 64, captureCapacity: 64)
        context.midiOutActive = true
        context.midiThru = thru
        return context
    }

    /// One period as the JACK callback runs it: own rings at frame 0, then `incoming` at their offsets.
    func period(_ context: RealtimeContext, start: UInt32, incoming: [(offset: UInt32, bytes: [UInt8])]) {
        let period = context.beginPeriod(periodStart: start)
        for event in incoming {
            var bytes = event.bytes
            bytes.withUnsafeMutableBufferPointer {
                context.receive(bytes: $0.baseAddress!, size: $0.count, frameTime: start &+ event.offset, midiOpen: period.midiOpen)
            }
        }
    }

    func monitored(_ context: RealtimeContext) -> [MonitorEvent] {
        var events: [MonitorEvent] = []
        while let event = context.uiRing.pop() { if case .midi(let m) = event { events.append(m) } }
        return events
    }

    @Test func ownSourcesGoOutAtFrameZeroAndThruAtItsFrame() {
        let context = context(thru: true)
        #expect(context.keyboardRing.push(.midi(noteOn, .keyboard)))
        #expect(context.demoRing.push(.midi(ShortMessage(status: 0xF8), .demo)))
        period(context, start: 1000, incoming: [(100, [0x91, 13, 90]), (200, [0x81, 13, 0]), (200, [0xC1, 5])])
        #expect(context.midiOut.events == [
            MIDIOutEvent(offset: 0, message: noteOn),
            MIDIOutEvent(offset: 0, message: ShortMessage(status: 0xF8)),
            MIDIOutEvent(offset: 100, message: thruOn),
            MIDIOutEvent(offset: 200, message: ShortMessage(status: 0x81, data1: 13)),
            MIDIOutEvent(offset: 200, message: ShortMessage(status: 0xC1, data1: 5)),
        ])
        let out = monitored(context).filter { $0.source == .out }
        #expect(out.map(\.frameTime) == [1000, 1000, 1100, 1200, 1200])
        // The next period starts empty.
        period(context, start: 1256, incoming: [])
        #expect(context.midiOut.count == 0)
    }

    @Test func withoutThruOnlyOwnSourcesGoOut() {
        let context = context(thru: false)
        #expect(context.keyboardRing.push(.midi(noteOn, .keyboard)))
        #expect(context.alsaRing.push(.midi(thruOn, .alsa)))
        period(context, start: 0, incoming: [(10, [0x91, 13, 90])])
        #expect(context.midiOut.events == [MIDIOutEvent(offset: 0, message: noteOn)])
        let sources = monitored(context).map(\.source)
        #expect(sources.filter { $0 == .out }.count == 1)
        #expect(sources.contains(.jack) && sources.contains(.alsa) && sources.contains(.keyboard))
    }

    @Test func nothingGoesOutWithoutAnOutputOrWhileTheLifecycleDropsMIDI() {
        let inactive = context(thru: true)
        inactive.midiOutActive = false
        #expect(inactive.keyboardRing.push(.midi(noteOn, .keyboard)))
        period(inactive, start: 0, incoming: [(10, [0x91, 13, 90])])
        #expect(inactive.midiOut.count == 0)
        #expect(!monitored(inactive).contains { $0.source == .out })

        let suspended = context(thru: true)
        suspended.midiGate.set(open: false)
        #expect(suspended.keyboardRing.push(.midi(noteOn, .keyboard)))
        period(suspended, start: 0, incoming: [(10, [0x91, 13, 90])])
        #expect(suspended.midiOut.count == 0)
    }

    @Test func queueKeepsOffsetsNonDecreasingAndCountsOverflow() {
        let queue = MIDIOutQueue(capacity: 2)
        #expect(queue.append(offset: 50, noteOn))
        #expect(queue.append(offset: 10, noteOn))
        #expect(!queue.append(offset: 60, noteOn))
        #expect(queue.events.map(\.offset) == [50, 50])
        #expect(queue.dropped == 1)
        #expect(midiMessageSize(status: 0x90) == 3 && midiMessageSize(status: 0xC3) == 2 && midiMessageSize(status: 0xF8) == 1)
    }
}
