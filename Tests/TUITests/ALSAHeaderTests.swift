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
}
