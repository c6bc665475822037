@testable import Engine
import Headless
import MIDI
import Testing

/// The status lines `backbeat --headless` prints each second, character for character.
@Suite struct HeadlessStatusTests {
    static func status(connected: Bool = true, alsaMIDI: String? = nil, alsaPCM: String? = nil) -> EngineStatus {
        EngineStatus(server: ServerDescription(name: "backbeat-test", isPrivate: true, driver: "dummy"), clientName: "backbeat",
                     connected: connected, sampleRate: 48000, periodFrames: 256, jackLoad: 12.34, callbackLoad: 0.056,
                     maxCallbackLoad: 0.25, xruns: 2, voicesInUse: 3, voiceCapacity: 256, midiReceived: 10, midiLost: 1,
                     ringDrops: 0, alsaPCM: alsaPCM, alsaMIDI: alsaMIDI)
    }

    @Test func saysTheServerTheLoadAndTheCounts() {
        var said: String?
        #expect(HeadlessStatus.line(Self.status(), alsaSaid: &said)
            == "server backbeat-test (private, dummy) | 48000 Hz | 256 frames | DSP 12.3% (callback 5.6%, max 25.0%) | xruns 2 | voices 3/256 | MIDI 10 received, 1 lost | drops 0")
        #expect(HeadlessStatus.line(Self.status(connected: false), alsaSaid: &said)
            == "server backbeat-test (private, dummy): disconnected, waiting for it | xruns 2")
    }

    @Test func saysTheALSAReasonOnceAndThePCMInsteadOfTheServer() {
        var said: String?
        let status = Self.status(alsaMIDI: "ALSA MIDI unavailable: cannot open the ALSA sequencer", alsaPCM: "ALSA hw:0 S16_LE")
        let first = HeadlessStatus.line(status, alsaSaid: &said)
        #expect(first.hasPrefix("ALSA hw:0 S16_LE | 48000 Hz"))
        #expect(first.hasSuffix(" | drops 0 | ALSA MIDI unavailable: cannot open the ALSA sequencer"))
        #expect(HeadlessStatus.line(status, alsaSaid: &said).hasSuffix(" | drops 0 | ALSA MIDI unavailable"))
    }

    @Test func addsTheClockAndTheRecordings() {
        #expect(HeadlessStatus.extras(CaptureStatus(), tempo: ClockTempo()) == "")
        let capture = CaptureStatus(midi: RecordingStatus(path: "t.mid", seconds: 2, count: 1, framesDropped: 0),
                                    audio: RecordingStatus(path: "t.wav", seconds: 2.5, count: 0, framesDropped: 3, failure: "disk full"))
        #expect(HeadlessStatus.extras(capture, tempo: ClockTempo()) == " | rec MIDI 1 event | rec audio 2.5 s, 3 dropped (stopped: write error)")
    }
}
