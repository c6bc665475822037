import Foundation
import DSP
import MIDI
import Synchronization

/// One recording in progress, for a status line.
public struct RecordingStatus: Sendable, Equatable {
    public var path: String
    /// Seconds recorded (audio: frames written; MIDI: since the start).
    public var seconds: Double
    /// MIDI: events kept; audio: frames written.
    public var count: Int
    /// Audio frames lost because the disk thread fell behind (0 for MIDI).
    public var framesDropped: Int
    /// Why the recording stopped early (audio write error), if it did.
    public var failure: String?
}

/// What is being recorded now.
public struct CaptureStatus: Sendable, Equatable {
    public var midi: RecordingStatus?
    public var audio: RecordingStatus?
}

/// The result of stopping a recording: where it went and a line to show the user.
public struct CaptureSummary: Sendable, Equatable {
    /// The file written (the fallback in the temporary directory when the requested one failed).
    public var path: String
    public var requestedPath: String
    public var seconds: Double
    public var count: Int
    public var framesDropped: Int
    /// A problem that did not lose the recording (fallback used, write error that ended it early).
    public var problem: String?
    public var message: String
}

/// MIDI and audio recording for the UI's keys and `--record-midi` / `--record-audio`.
///
/// The UI thread is the only consumer of `Engine.drainEvents`: it hands every event to `record(_:)`
/// (cheap when not recording). Audio goes from the engine's capture ring to a disk thread. Methods may be
/// called from any thread.
public final class CaptureController: @unchecked Sendable {
    private let engine: Engine
    private let midi = Mutex<MIDIRecorder?>(nil)
    private let audio = Mutex<AudioRecorder?>(nil)
    /// What a take needs from before it began: the clock's tempo and each channel's state, fed with every
    /// event `record` gets, recording or not.
    private let before = Mutex((tempo: ClockTempoTrack(), channels: ChannelStateTracker()))
    /// How takes are written (`--record-midi-format`, `--record-midi-raw`); the workstation's key uses it too.
    public var takeOptions: MIDITakeOptions {
        get { options.withLock { $0 } }
        set { options.withLock { $0 = newValue } }
    }
    private let options = Mutex(MIDITakeOptions())

    public init(engine: Engine) { self.engine = engine }

    /// Throws a `SystemError` naming the file and the reason when `path` cannot be written (missing
    /// directory, no permission, read-only file system...). Use it before starting anything.
    public static func checkWritable(_ path: String) throws(SystemError) { try CaptureFiles.checkWritable(path) }

    /// A new file name for a recording started by a key: `backbeat-YYYYMMDD-HHMMSS.<ext>` in `directory`.
    public static func timestampedPath(extension ext: String, directory: String = FileManager.default.currentDirectoryPath,
                                       date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return URL(fileURLWithPath: directory).appendingPathComponent("backbeat-\(formatter.string(from: date)).\(ext)").path
    }

    // MARK: MIDI

    /// Starts recording what the monitor receives from now on to a Standard MIDI File, written as it
    /// goes (a crash keeps all but the last half second). Throws when the file could not be created, or
    /// when already recording MIDI (stop that first).
    public func startMIDIRecording(to path: String) throws(SystemError) {
        if let current = midi.withLock({ $0?.path }) { throw SystemError("already recording MIDI to \(current)") }
        try CaptureFiles.checkWritable(path)
        let (tempo, channels) = before.withLock { $0 }
        let synth = engine.synth
        let recording = MIDIRecording(sampleRate: Double(engine.sampleRate), startFrame: engine.frameTime(),
                                      options: takeOptions, tempo: tempo, channels: channels,
                                      setup: { Self.setup(channel: $0, state: $1, synth: synth) })
        let recorder = try MIDIRecorder(path: path, recording: recording)
        midi.withLock { $0 = recorder }
    }

    /// The messages that put `channel` into `state` so that it sounds as it does now: with a SoundFont the
    /// bank and program of the preset the channel plays (after the font's fallbacks); with the built-in synth
    /// the program that selects the channel's patch (its own program when that selects it, else the patch's
    /// number: program n selects the patch `SynthPatch.generalMIDI(program: n)`, and the patch may come from
    /// `--patch`, a preset or the UI: then the first program that selects it).
    static func setup(channel: UInt8, state: ChannelState, synth: Synth) -> [MIDIMessage] {
        if let font = synth.soundFont {
            guard let index = synth.preset(onChannel: Int(channel)), index < font.presets.count else { return state.setupMessages(channel: channel) }
            let preset = font.presets[index]
            var bank = Int(preset.bank)
            if channel == 9 && bank >= SoundFont.percussionBank { bank -= SoundFont.percussionBank }
            return state.setupMessages(channel: channel, program: preset.program, bankMSB: UInt8(min(bank, 127)), bankLSB: 0)
        }
        let patch = synth.patch(onChannel: Int(channel))
        let program = state.program.flatMap { SynthPatch.generalMIDI(program: Int($0)) == patch ? $0 : nil }
            ?? UInt8(SynthPatch.program(forPatch: patch) ?? 0)
        return state.setupMessages(channel: channel, program: program)
    }

    /// Hands an event the UI drained to the MIDI recorder (when recording MIDI) and to the tempo and channel
    /// state the next take starts from (always).
    /// `message`: the event's whole message (`Engine.message(of:)`: a sysex with its payload).
    public func record(_ event: MonitorEvent, message: MIDIMessage?) {
        if !event.lost, event.source != .out, let message {
            let rate = Double(max(engine.sampleRate, 1))
            before.withLock {
                if message.channel != nil { $0.channels.apply(message) }
                else if case .systemReset = message { $0.channels.apply(message) }
                else { _ = $0.tempo.receive(event.message.status, at: Double(event.frameTime) / rate) }
            }
        }
        midi.withLock { $0 }?.add(event, message: message)
    }

    public var isRecordingMIDI: Bool { midi.withLock { $0 != nil } }

    /// Stops, writes what is left and closes the file; when the file failed or was removed meanwhile,
    /// writes the whole recording to the temporary directory instead and says so. Returns nil when not
    /// recording; throws only when neither file could be written.
    @discardableResult
    public func stopMIDIRecording() throws(SystemError) -> CaptureSummary? {
        guard let recorder = midi.withLock({ recorder -> MIDIRecorder? in defer { recorder = nil }; return recorder }) else { return nil }
        return try recorder.stop(endFrame: engine.frameTime())
    }

    // MARK: Audio

    /// Opens the file now (a path that cannot be written fails here) and records Backbeat's output.
    public func startAudioRecording(to path: String) throws(SystemError) {
        try prepareAudioRecording(to: path)
        beginAudioRecording()
    }

    /// The two halves of `startAudioRecording`, for a command line that opens the file before the engine
    /// starts and records once it runs.
    /// Both throw when already recording audio (stop that first).
    public func prepareAudioRecording(to path: String, expectedSampleRate: Int = 48_000) throws(SystemError) {
        if let current = audio.withLock({ $0?.path }) { throw SystemError("already recording audio to \(current)") }
        try CaptureFiles.checkWritable(path)
        let rate = engine.sampleRate > 0 ? engine.sampleRate : expectedSampleRate
        let recorder = try AudioRecorder(path: path, engine: engine, expectedSampleRate: rate)
        audio.withLock { $0 = recorder }
    }

    public func beginAudioRecording() {
        audio.withLock { $0 }?.start()
    }

    public var isRecordingAudio: Bool { audio.withLock { $0 != nil } }

    /// Stops, writes what is left and closes the file. The file is complete up to the last frame written
    /// (also after a write error, which `problem` reports). Nil when not recording.
    @discardableResult
    public func stopAudioRecording() -> CaptureSummary? {
        guard let recorder = audio.withLock({ recorder -> AudioRecorder? in defer { recorder = nil }; return recorder }) else { return nil }
        var failure = recorder.stop()
        let seconds = recorder.seconds
        let dropped = recorder.framesDropped
        var message = "saved \(Self.format(seconds)) s of audio to \(recorder.path)"
        if dropped > 0 { message += " (\(dropped) frames dropped: the disk fell behind)" }
        if recorder.frames == 0 {
            // Nothing was recorded (the disk was full from the start, or it stopped at once): the take's
            // temporary file went, and whatever was at the path is as it was.
            if let reason = failure {
                failure = "\(reason); no audio was written, so nothing was saved to \(recorder.path)"
            } else {
                message = "nothing recorded: no audio was written, so no take was saved to \(recorder.path)"
            }
        }
        if let failure { message = "audio recording stopped early: \(failure)" }
        return CaptureSummary(path: recorder.path, requestedPath: recorder.path, seconds: seconds, count: recorder.frames,
                              framesDropped: dropped, problem: failure, message: message)
    }

    // MARK: Both

    /// Stops everything; returns a line per recording for the user (errors included), and whether a
    /// recording was not written completely where it was asked to go (a full disk, a removed folder: the
    /// command then exits non-zero).
    public func stopAll() -> (lines: [String], incomplete: Bool) {
        var lines: [String] = []
        var incomplete = false
        do {
            if let summary = try stopMIDIRecording() {
                lines.append(summary.message)
                incomplete = incomplete || summary.problem != nil
            }
        } catch {
            lines.append(error.description)
            incomplete = true
        }
        if let summary = stopAudioRecording() {
            lines.append(summary.message)
            incomplete = incomplete || summary.problem != nil
        }
        return (lines, incomplete)
    }

    public func status() -> CaptureStatus {
        let midiStatus = midi.withLock { $0 }.map {
            RecordingStatus(path: $0.path, seconds: $0.seconds, count: $0.events, framesDropped: 0, failure: nil)
        }
        let audioStatus = audio.withLock { $0 }.map {
            RecordingStatus(path: $0.path, seconds: $0.seconds, count: $0.frames, framesDropped: $0.framesDropped, failure: $0.failure)
        }
        return CaptureStatus(midi: midiStatus, audio: audioStatus)
    }

    static func format(_ seconds: Double) -> String { String(format: "%.1f", seconds) }
}
