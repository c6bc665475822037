import Engine
import Foundation
import MIDI
import TextOutput

/// The status lines of the headless engine and the scenario player.
public enum HeadlessStatus {
    /// One status line. `alsaSaid`: the ALSA MIDI status the lines before said in full; the same again is
    /// said short, without its reason ("ALSA MIDI unavailable: cannot open ... No such file or directory"
    /// once, then "ALSA MIDI unavailable"), so the reason is not repeated every second.
    public static func line(_ status: EngineStatus, alsaSaid: inout String?) -> String {
        let server = TerminalText.sanitized("\(status.server.name) (\(status.server.isPrivate ? "private, \(status.server.driver ?? "?")" : "external"))")
        guard status.connected else { return "server \(server): disconnected, waiting for it | xruns \(status.xruns)" }
        // ALSA: the PCM instead of the server with --driver alsa; the sequencer's line when asked for.
        var alsaMIDI = ""
        if let text = status.alsaMIDI {
            let short = text == alsaSaid ? text.components(separatedBy: ": ").first ?? text : text
            alsaMIDI = " | " + TerminalText.sanitized(short)
            alsaSaid = text
        }
        return "\(status.alsaPCM.map(TerminalText.sanitized) ?? "server \(server)") | \(status.sampleRate) Hz | \(status.periodFrames) frames"
            + " | DSP \(String(format: "%.1f", status.jackLoad))% (callback \(String(format: "%.1f", status.callbackLoad * 100))%, max \(String(format: "%.1f", status.maxCallbackLoad * 100))%)"
            + " | xruns \(status.xruns) | voices \(status.voicesInUse)/\(status.voiceCapacity)"
            + " | MIDI \(status.midiReceived) received, \(status.midiLost) lost | drops \(status.ringDrops)" + alsaMIDI
    }

    /// MIDI clock tempo and recordings, when there are any.
    public static func extras(_ capture: CaptureStatus, tempo: ClockTempo) -> String {
        var line = ""
        if let bpm = tempo.bpm {
            line += " | clock \(String(format: "%.1f", bpm)) BPM"
            if let jitter = tempo.jitterMilliseconds { line += " (jitter \(String(format: "%.1f", jitter)) ms)" }
        }
        if let midi = capture.midi { line += " | rec MIDI \(counted(midi.count, "event"))" }
        if let audio = capture.audio {
            line += " | rec audio \(String(format: "%.1f", audio.seconds)) s, \(audio.framesDropped) dropped"
            if audio.failure != nil { line += " (stopped: write error)" }
        }
        return line
    }
}
