import Engine
import MIDI
import Testing
@testable import TUI

@Suite struct MonitorTests {
    @Test func rowShowsTimeSourceChannelTypeNameValuesAndHex() {
        let panel = MonitorPanel()
        let e = MonitorEntry(sequence: 0, time: 1.2345, source: .keyboard, lost: false,
                             message: .noteOn(NoteOn(channel: 0, note: 60, velocity: 100)), status: 0x90)
        let text = panel.segments(e, width: 100).map(\.0).joined()
        for part in ["1.234", "keys", "ch 1", "Note On", "C4 (60) velocity 100", "90 3C 64"] { #expect(text.contains(part), "\(part) in \(text)") }
        let cc = MonitorEntry(sequence: 1, time: 0, source: .jack, lost: true, message: .controlChange(ControlChange(channel: 9, controller: 7, value: 90)), status: 0xB9)
        let ccText = panel.segments(cc, width: 100).map(\.0).joined()
        for part in ["ch 10", "Control Change", "LOST", "7 Channel Volume = 90", "B9 07 5A"] { #expect(ccText.contains(part), "\(part) in \(ccText)") }
    }

    @Test func sysexPayloadIsEscaped() {
        let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
        let engine = w.engine as! FakeEngine
        engine.sysex = [0xF0, 0x1B, 0x5B, 0x32, 0x4A, 0x07, 0xF7]
        engine.pending.append(.midi(MonitorEvent(frameTime: 0, message: ShortMessage(status: 0xF0), source: .jack, lost: false, sysexLength: 7, sysexBytesQueued: 7)))
        w.tick(now: 0)
        let text = render(w, 160, 40).text
        #expect(text.contains("SysEx"))
        #expect(text.contains("\\x1B[2J\\x07"), "\(text)")
        #expect(render(w, 160, 40).allPrintable)
    }

    @Test func clockAndSensingHiddenByDefaultOneKeyShowsThem() {
        var log = MonitorLog()
        log.append(time: 0, source: .jack, lost: false, message: .timingClock, status: 0xF8)
        log.append(time: 0, source: .jack, lost: false, message: .activeSensing, status: 0xFE)
        log.append(time: 0, source: .jack, lost: false, message: .start, status: 0xFA)
        #expect(log.visibleRows(10).count == 1)
        #expect(InputMap.command(for: .char("s"), focus: .monitor, playMode: false) == .toggleClock)
        log.showClockAndSensing = true
        #expect(log.visibleRows(10).count == 3)
    }

    @Test func channelAndTypeFilters() {
        var log = MonitorLog()
        for ch in UInt8(0)..<4 {
            log.append(time: 0, source: .jack, lost: false, message: .noteOn(NoteOn(channel: ch, note: 60, velocity: 1)), status: 0x90 | ch)
            log.append(time: 0, source: .jack, lost: false, message: .controlChange(ControlChange(channel: ch, controller: 1, value: 1)), status: 0xB0 | ch)
        }
        log.cycleChannel()  // ch 1
        #expect(log.visibleRows(50).count == 2)
        log.cycleChannel(); log.cycleChannel()  // ch 3
        #expect(log.visibleRows(50).allSatisfy { $0.message?.channel == 2 })
        log.cycleChannel(-3)  // all
        #expect(log.channel == nil)
        log.cycleType()  // notes
        #expect(log.visibleRows(50).count == 4)
        log.cycleType()  // CC
        #expect(log.visibleRows(50).allSatisfy { if case .controlChange = $0.message { true } else { false } })
    }

    @Test func pauseKeepsTheViewAndScrollBackWorks() {
        var log = MonitorLog(capacity: 100)
        func add(_ n: Int) { for i in 0..<n { log.append(time: Double(i), source: .jack, lost: false, message: .start, status: 0xFA) } }
        add(10)
        log.togglePause()
        add(5)
        #expect(log.visibleRows(3).map(\.sequence) == [7, 8, 9])
        #expect(log.hiddenNewer == 5)
        log.scroll(by: 2)
        #expect(log.visibleRows(3).map(\.sequence) == [5, 6, 7])
        log.togglePause()
        #expect(log.visibleRows(3).map(\.sequence) == [12, 13, 14])
        log.clear()
        #expect(log.visibleRows(3).isEmpty)
    }

    @Test func boundedLogKeepsTheNewest() {
        var log = MonitorLog(capacity: 16)
        for i in 0..<40 { log.append(time: Double(i), source: .demo, lost: false, message: .stop, status: 0xFC) }
        #expect(log.count == 16)
        #expect(log.visibleRows(2).map(\.sequence) == [38, 39])
        #expect(log.entry(at: 0).sequence == 24)
    }

    @Test func lostEventsAreCountedAndShown() {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        engine.midi(0x90, 64, 90, lost: true)
        w.tick(now: 0)
        #expect(w.log.gateLost == 1)
        #expect(w.held.velocity(of: 64) == 0)
        #expect(render(w).contains("LOST"))
    }

    @Test func tempoReadoutFromTheMIDIClockTempo() throws {
        var tempo = ClockTempo()
        let interval = 60.0 / 120 / 24
        #expect(TempoReadout(tempo) == nil)
        for i in 0..<60 { tempo.tick(at: Double(i) * interval + (i % 2 == 0 ? 0.0005 : 0)) }
        let r = try #require(TempoReadout(tempo))
        #expect(abs(r.bpm - 120) < 0.5)
        #expect(r.jitterMilliseconds > 0.3 && r.jitterMilliseconds < 1)
        tempo.expire(now: 10)
        #expect(TempoReadout(tempo) == nil)
    }

    @Test func workstationShowsBPMFromClock() {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        for i in 0..<48 { engine.midi(0xF8, frame: UInt32(i * 1000)) }  // 1000 frames at 48 kHz = 20.8 ms: 120 BPM
        w.tick(now: 0)
        let g = render(w)
        let shown = g.contains("120.0 BPM ±0.00 ms")
        #expect(shown)
    }
}
