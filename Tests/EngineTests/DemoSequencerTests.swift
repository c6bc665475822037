import Foundation
import Testing
@testable import Engine
import MIDI
import Realtime

@Suite struct DemoSequencerTests {
    /// Every message up to `seconds`, advanced in `step`-second calls, with the time of the call that returned it.
    func play(_ sequencer: inout DemoSequencer, until seconds: Double, step: Double = 0.001) -> [(time: Double, message: ShortMessage)] {
        var out: [(Double, ShortMessage)] = []
        var t = 0.0
        while t <= seconds + 1e-12 {
            for m in sequencer.advance(to: t) { out.append((t, m)) }
            t += step
        }
        for m in sequencer.advance(to: seconds) { out.append((seconds, m)) }
        return out
    }

    @Test func startsWithStartClockAndTheFirstChord() {
        var sequencer = DemoSequencer()
        let first = sequencer.advance(to: 0)
        #expect(first.first == ShortMessage(status: 0xFA))
        #expect(first.dropFirst().first == ShortMessage(status: 0xF8))
        let ons = first.filter { $0.kind == .noteOn }
        #expect(Set(ons.map(\.data1)) == [76, 57, 60, 64, 45], "melody E5, Am chord, bass A2")
        #expect(Set(ons.map(\.channel)) == [0, 1, 2])
        #expect(sequencer.nextEventSeconds == 60.0 / (120 * 24))
    }

    @Test func clockRunsAt24TicksPerQuarterNote() {
        var sequencer = DemoSequencer(bpm: 120)
        let events = play(&sequencer, until: 2)
        let clocks = events.filter { $0.message.status == 0xF8 }
        #expect(clocks.count == 97, "4 beats of 24 ticks, plus the tick at 2 s")
        var tempo = ClockTempo()
        for (i, _) in clocks.enumerated() { tempo.tick(at: Double(i) * sequencer.secondsPerTick) }
        #expect(abs((tempo.bpm ?? 0) - 120) < 1e-9)
    }

    @Test func notesComeAtTheirTimes() {
        var sequencer = DemoSequencer(bpm: 120)
        let events = play(&sequencer, until: 2.01)
        let melody = events.filter { $0.message.kind == .noteOn && $0.message.channel == 0 }
        // E5 at 0, C5 at beat 1 (0.5 s), D5 at 0.75 s, E5 at 1 s, G5 at 1.5 s; bar 2 starts with F5 at 2 s.
        let expected: [(Double, UInt8)] = [(0, 76), (0.5, 72), (0.75, 74), (1.0, 76), (1.5, 79), (2.0, 77)]
        #expect(melody.count == expected.count)
        for (event, (time, note)) in zip(melody, expected) {
            #expect(abs(event.time - time) < 0.0011, "note \(event.message.data1) at \(event.time)")
            #expect(event.message.data1 == note)
        }
        // Every note-on is ended before the same note starts again.
        var sounding = Set<[UInt8]>()
        for (_, m) in events {
            if m.kind == .noteOn { #expect(sounding.insert([m.channel, m.data1]).inserted, "doubled \(m)") }
            if m.kind == .noteOff { sounding.remove([m.channel, m.data1]) }
        }
    }

    @Test func loopsEveryFourBars() {
        var sequencer = DemoSequencer(bpm: 120)
        #expect(sequencer.loopSeconds == 8)
        let first = sequencer.advance(to: 0).filter { $0.kind == .noteOn }
        _ = sequencer.advance(to: 7.99)
        let again = sequencer.advance(to: 8).filter { $0.kind == .noteOn }
        #expect(first == again)
    }

    @Test func advancingInOneStepOrManyGivesTheSameMessages() {
        var a = DemoSequencer(), b = DemoSequencer()
        let whole = a.advance(to: 5)
        let pieces = play(&b, until: 5, step: 0.0137).map(\.message)
        #expect(whole == pieces)
    }

    @Test func stopEndsEverySoundingNoteThenSendsStop() {
        var sequencer = DemoSequencer()
        var on = Set<[UInt8]>()
        for m in sequencer.advance(to: 0.3) {
            if m.kind == .noteOn { on.insert([m.channel, m.data1]) }
            if m.kind == .noteOff { on.remove([m.channel, m.data1]) }
        }
        #expect(!on.isEmpty)
        let stop = sequencer.stop()
        #expect(Set(stop.filter { $0.kind == .noteOff }.map { [$0.channel, $0.data1] }) == on)
        #expect(stop.last == ShortMessage(status: 0xFC))
        #expect(sequencer.advance(to: 100).isEmpty)
        #expect(sequencer.stop().isEmpty)
        #expect(sequencer.nextEventSeconds == .infinity)
    }

    @Test func stopBeforeStartSendsNothing() {
        var sequencer = DemoSequencer()
        #expect(sequencer.stop().isEmpty)
    }

    @Test func playerPushesIntoTheRingAndStopsCleanly() throws {
        let ring = SPSCRing<ControlEvent>(capacity: 4096)
        let player = DemoPlayer(ring: ring)
        player.start()
        player.start()  // idempotent
        #expect(player.isPlaying)
        Thread.sleep(forTimeInterval: 0.3)  // time passing is what is measured: the clock's ticks in 0.3 s
        player.stop()
        #expect(!player.isPlaying)
        var messages: [ShortMessage] = []
        while let event = ring.pop() {
            guard case let .midi(message, source) = event else { continue }
            #expect(source == .demo)
            messages.append(message)
        }
        let clocks = messages.filter { $0.status == 0xF8 }.count
        #expect((12...20).contains(clocks), "\(clocks) clock ticks in 0.3 s at 48 per second")
        var on = Set<[UInt8]>()
        for m in messages {
            if m.kind == .noteOn { on.insert([m.channel, m.data1]) }
            if m.kind == .noteOff { on.remove([m.channel, m.data1]) }
        }
        #expect(on.isEmpty, "hanging notes: \(on)")
        #expect(messages.last == ShortMessage(status: 0xFC))
        // Restartable.
        player.start()
        player.stop()
        #expect(ring.pop() != nil)
    }
}
