import Testing
@testable import TUI

/// The header with the ALSA driver and the sequencer's status (EngineStatus.alsaPCM / alsaMIDI).
@Suite struct ALSAHeaderTests {
    @Test func alsaDriverAndUnavailableSequencerAreInTheHeader() {
        var info = HeaderInfo()
        info.connected = true
        info.sampleRate = 48_000; info.periodFrames = 256
        info.alsaPCM = "ALSA PCM 'null': float32, 2 x 256 frames, SCHED_FIFO priority 70"
        info.alsaMIDI = "ALSA MIDI unavailable: cannot open the ALSA sequencer /dev/snd/seq: No such file or directory"
        var g = Grid(width: 260, height: 1)
        HeaderPanel.draw(info, into: &g, rect: Rect(x: 0, y: 0, width: 260, height: 1), glyphs: .unicode)
        let row = g.row(0)
        #expect(row.contains("ALSA PCM 'null': float32"), "\(row)")
        #expect(!row.contains("JACK "), "\(row)")
        #expect(row.contains("ALSA MIDI unavailable: cannot open the ALSA sequencer /dev/snd/seq"), "\(row)")
    }

    /// Issue 36: the lifecycle panel listed `alsa midi-in yes` while the header said ALSA MIDI was
    /// unavailable. A stream that does not exist is not listed, let alone as running.
    @Test func anUnavailableSequencerIsNoLifecycleStream() {
        let engine = FakeEngine()
        engine.alsaMIDI = "ALSA MIDI unavailable: cannot open the ALSA sequencer /dev/snd/seq: No such file or directory"
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.tick(now: 0)
        #expect(w.lifecycle.simulator.status(of: "alsa") == nil)
        #expect(w.lifecycle.simulator.status(of: "jack")?.isOn == true)
        let g = render(w, 200, 60)
        #expect(g.row(0).contains("ALSA MIDI unavailable"), "\(g.row(0))")
        #expect(!g.contains("alsa       midi-in") && !g.contains(" alsa "), "\(g.text)")
        // Not asked for (--midi jack): not listed either; open: listed and running.
        engine.alsaMIDI = nil
        #expect(Workstation(engine: engine, settings: WorkstationSettings()).lifecycle.simulator.status(of: "alsa") == nil)
        engine.alsaMIDI = "ALSA MIDI backbeat:midi_in (128:0)"
        #expect(Workstation(engine: engine, settings: WorkstationSettings()).lifecycle.simulator.status(of: "alsa")?.isOn == true)
    }
}
