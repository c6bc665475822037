// Offline rendering: the synth driven exactly as the real-time backends drive it (periods split at each
// event's frame offset by the same `PeriodRenderer`), as fast as the machine can go.
import DSP
import MIDI
import Realtime

/// A MIDI message at a frame offset inside one period: what the real-time loop applies.
public struct PeriodEvent: Sendable, BitwiseCopyable, Equatable {
    /// Frame within the period, 0..<frames.
    public var offset: Int
    public var message: ShortMessage
    /// For a sysex (`message.isSystemExclusive`): where its bytes, F0 through F7, are in the period's sysex
    /// bytes (`renderPeriod`'s `sysex`).
    public var sysexStart = 0, sysexCount = 0

    public init(offset: Int, message: ShortMessage) {
        self.offset = offset
        self.message = message
    }

    /// A sysex whose bytes are `sysex[sysexStart ..< sysexStart + sysexCount]` of its period.
    public init(offset: Int, sysexStart: Int, sysexCount: Int) {
        self.init(offset: offset, message: ShortMessage(status: SystemStatus.exclusive))
        self.sysexStart = sysexStart
        self.sysexCount = sysexCount
    }
}

/// A MIDI message at an absolute time in seconds, from a file or a test.
public struct TimedMessage: Sendable, Equatable {
    public var seconds: Double
    /// The message; status F0 (`isSystemExclusive`) for a sysex, whose bytes are `sysex`.
    public var message: ShortMessage
    /// A sysex's bytes, F0 through F7; empty for any other message.
    public var sysex: [UInt8]

    public init(seconds: Double, message: ShortMessage) {
        self.seconds = seconds
        self.message = message
        sysex = []
    }

    /// A system exclusive message, `bytes` F0 through F7.
    public init(seconds: Double, sysex bytes: [UInt8]) {
        self.seconds = seconds
        message = ShortMessage(status: SystemStatus.exclusive)
        sysex = bytes
    }
}

/// A message at a frame counted from the start of its file or render (`OfflineRenderer.framed`).
public struct FramedMessage: Sendable, Equatable {
    public var frame: Int
    /// The message; status F0 for a sysex, whose bytes (F0 through F7) are `sysex`.
    public var message: ShortMessage
    public var sysex: [UInt8]

    public init(frame: Int, message: ShortMessage, sysex: [UInt8] = []) {
        self.frame = frame
        self.message = message
        self.sysex = sysex
    }
}

/// Renders MIDI through a `Synth` offline, period by period, with the same sample-accurate event split
/// as the real-time engine.
public enum OfflineRenderer {
    /// Renders one period: for each event (sorted by offset), render up to its frame, apply it, continue.
    /// The split is `PeriodRenderer`'s, the one the JACK callback and the ALSA PCM thread use (`@_noLocks`,
    /// the synth reached without retain/release), so offline output matches live output sample for sample.
    /// A sysex event's bytes are in `sysex` (`PeriodEvent.sysexStart`), and reach the synth at their frame
    /// as a live sysex does. `chunk` is the most frames per synth call (what it was prepared for; the period
    /// by default). Returns the voices sounding at the end of the period.
    @_noLocks @discardableResult
    public static func renderPeriod(_ synth: Unmanaged<Synth>, events: UnsafeBufferPointer<PeriodEvent>,
                                    sysex: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0),
                                    left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                                    frames: Int, chunk: Int? = nil) -> Int {
        var output = PeriodRenderer(left: left, right: right, frames: frames, chunk: chunk ?? frames)
        for i in 0..<events.count {
            let event = events[i]
            output.render(upTo: event.offset, synth)
            if event.message.isSystemExclusive {
                let start = event.sysexStart, end = event.sysexStart + event.sysexCount
                guard start >= 0, start <= end, end <= sysex.count else { continue }
                let bytes = UnsafeBufferPointer(rebasing: sysex[start..<end])
                synth._withUnsafeGuaranteedRef { _ = $0.handle(sysex: bytes) }
            } else {
                synth._withUnsafeGuaranteedRef { $0.handle(event.message) }
            }
        }
        output.finish(synth)
        return synth._withUnsafeGuaranteedRef { $0.activeVoiceCount }
    }

    /// Decodes the samples of a SoundFont 3 font that `messages` (any order) can reach, in the order a render
    /// plays them (nothing for a SoundFont 2 font; each SoundFont 3 font of a stack its own): a stream that
    /// does not decode throws, naming the sample (the first; the others are decoded all the same).
    public static func decodeSamples(_ messages: [TimedMessage], soundFont: SoundFont?, channel: UInt8? = nil) throws(SoundFontError) {
        guard let soundFont, !soundFont.sampleStores.isEmpty else { return }
        let sorted = messages.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }
        let needed = soundFont.samplesNeeded(by: sorted.lazy.map { $0.element.message }, channel: channel)
        // A stack: each font's cache decodes its own samples.
        var failures: [SoundFontError] = []
        for (font, indices) in soundFont.samplesByFont(needed) { failures += font.sampleStore?.decode(indices) ?? [] }
        if let first = failures.first { throw first }
    }

    /// Renders `messages` (any order; stable for equal times) through a fresh synth and returns the stereo
    /// output. After the last message it keeps rendering while the tail is audible (`QuietTail`: it ends where
    /// the output stays below -90 dBFS, at most `maxTail` seconds on, for notes that never end), then adds
    /// `padding` seconds of silence. Holds the whole output in
    /// memory: for short renders and tests (`render(_:into:)` streams).
    public static func render(_ messages: [TimedMessage], sampleRate: Double = 48_000, voices: Int = Synth.defaultVoices,
                              patch: Int = SynthPatch.defaultPatch, channel: UInt8? = nil, soundFont: SoundFont? = nil, periodFrames: Int = 512,
                              maxTail: Double = 30, padding: Double = 0.05, until end: Double = 0,
                              reverb: Bool = true, chorus: Bool = true,
                              interpolation: SampleInterpolation = .cubic) -> (left: [Float], right: [Float]) {
        var left: [Float] = [], right: [Float] = []
        render(messages, sampleRate: sampleRate, voices: voices, patch: patch, channel: channel, soundFont: soundFont,
               periodFrames: periodFrames, maxTail: maxTail, padding: padding, until: end, reverb: reverb, chorus: chorus,
               interpolation: interpolation) { l, r in
            left += l
            right += r
        }
        return (left, right)
    }

    /// Renders as `render(_:sampleRate:...)` does, handing each period (`periodFrames` frames, the padding
    /// included; a held quiet stretch of the tail in one piece) to `sink` as it is made, so memory stays bounded whatever the length. An error thrown by
    /// `sink` (a full disk, a quit signal) stops the render. With `soundFont` the synth plays the font's presets
    /// instead of the built-in patches; `substitutions` hears each channel's first preset substitution (a
    /// bank or program no font has), after the period that played it.
    ///
    /// `end` (seconds; a file's End-of-Track, `StandardMIDIFile.duration`) is the least length: when every
    /// voice has fallen silent before it, the output stops exactly there, without padding; a tail that rings
    /// past it ends as above. So the render ends at the later of `end` and the end of the last audible tail.
    @discardableResult
    public static func render(_ messages: [TimedMessage], sampleRate: Double = 48_000, voices: Int = Synth.defaultVoices,
                              patch: Int = SynthPatch.defaultPatch, channel: UInt8? = nil, soundFont: SoundFont? = nil, periodFrames: Int = 512,
                              maxTail: Double = 30, padding: Double = 0.05, until end: Double = 0,
                              reverb: Bool = true, chorus: Bool = true, interpolation: SampleInterpolation = .cubic,
                              substitutions: ((PresetSubstitution) -> Void)? = nil,
                              into sink: (_ left: UnsafeBufferPointer<Float>, _ right: UnsafeBufferPointer<Float>) throws -> Void) rethrows -> Report {
        // A SoundFont 3 font: the samples the file reaches are decoded first (already done by a caller that
        // wanted the error: `decodeSamples`); one that does not decode stays silent, its notes counted.
        if soundFont.map({ !$0.sampleStores.isEmpty }) == true { try? decodeSamples(messages, soundFont: soundFont, channel: channel) }
        let synth = Synth(voices: voices, patch: patch, channel: channel, soundFont: soundFont)
        synth.setEffects(reverb: reverb, chorus: chorus)
        synth.setInterpolation(interpolation)
        synth.prepare(sampleRate: sampleRate, maxFrames: periodFrames)
        let sorted = framed(messages, sampleRate: sampleRate)
        let endFrame = frame(at: end, sampleRate: sampleRate)
        let lastFrame = max(sorted.last?.frame ?? 0, endFrame)
        let tailLimit = lastFrame + frames(in: maxTail, sampleRate: sampleRate)

        // The period buffers, freed when the render ends.
        let leftMemory = FixedArray<Float>(periodFrames, 0), rightMemory = FixedArray<Float>(periodFrames, 0)
        let periodLeft = leftMemory.buffer, periodRight = rightMemory.buffer
        var periodEvents: [PeriodEvent] = []
        periodEvents.reserveCapacity(1_024)
        var periodSysex: [UInt8] = []
        var next = 0
        var start = 0
        let unmanaged = Unmanaged.passUnretained(synth)
        var reachedEnd = false // stopped at `end` with nothing sounding: no padding
        var quiet = QuietTail(periodFrames: periodFrames, sampleRate: sampleRate)
        while true {
            let finishedEvents = next >= sorted.count
            if finishedEvents && start >= endFrame
                && (synth.activeVoiceCount == 0 && isSilent(periodLeft, periodRight) || start >= tailLimit
                    || quiet.isOver) {
                break
            }
            periodEvents.removeAll(keepingCapacity: true)
            periodSysex.removeAll(keepingCapacity: true)
            while next < sorted.count && sorted[next].frame < start + periodFrames {
                let event = sorted[next], offset = event.frame - start
                if event.message.isSystemExclusive {
                    periodEvents.append(PeriodEvent(offset: offset, sysexStart: periodSysex.count, sysexCount: event.sysex.count))
                    periodSysex += event.sysex
                } else {
                    periodEvents.append(PeriodEvent(offset: offset, message: event.message))
                }
                next += 1
            }
            _ = periodEvents.withUnsafeBufferPointer { events in
                periodSysex.withUnsafeBufferPointer { sysex in
                    renderPeriod(unmanaged, events: events, sysex: sysex, left: periodLeft.baseAddress!,
                                 right: periodRight.baseAddress!, frames: periodFrames)
                }
            }
            if let substitutions { synth.takePresetSubstitutions().forEach(substitutions) }
            if next >= sorted.count && start < endFrame && endFrame <= start + periodFrames
                && synth.activeVoiceCount == 0 && isSilent(periodLeft, periodRight, from: endFrame - start) {
                // The file ends inside this period and nothing rings past it: stop exactly at its end.
                let n = endFrame - start
                try sink(UnsafeBufferPointer(rebasing: periodLeft[0..<n]), UnsafeBufferPointer(rebasing: periodRight[0..<n]))
                reachedEnd = true
                break
            }
            if next >= sorted.count && start < endFrame && endFrame <= start + periodFrames {
                // Voices still in their release, but nothing audible from the file's end on: write up to the
                // end and hold the rest; if the tail stays below audibility the render stops at the end.
                let n = endFrame - start
                let restLeft = UnsafeMutableBufferPointer(rebasing: periodLeft[n...])
                let restRight = UnsafeMutableBufferPointer(rebasing: periodRight[n...])
                if quiet.isQuiet(restLeft, restRight) {
                    try sink(UnsafeBufferPointer(rebasing: periodLeft[0..<n]), UnsafeBufferPointer(rebasing: periodRight[0..<n]))
                    _ = quiet.hold(restLeft, restRight, atEnd: true)
                    start += periodFrames
                    continue
                }
            }
            if next >= sorted.count && start >= endFrame && quiet.hold(periodLeft, periodRight) {
                start += periodFrames // below audibility after the end: held back until the tail sounds again
                continue
            }
            try quiet.flush(into: sink)
            try sink(UnsafeBufferPointer(periodLeft), UnsafeBufferPointer(periodRight))
            start += periodFrames
        }
        var pad = reachedEnd || quiet.fromEnd ? 0 : frames(in: padding, sampleRate: sampleRate)
        periodLeft.update(repeating: 0)
        periodRight.update(repeating: 0)
        while pad > 0 {
            let n = min(pad, periodFrames)
            try sink(UnsafeBufferPointer(rebasing: periodLeft[0..<n]), UnsafeBufferPointer(rebasing: periodRight[0..<n]))
            pad -= n
        }
        let sysex = messages.count { $0.message.isSystemExclusive }
        return withExtendedLifetime(synth) { Report(sysexReceived: sysex, sysexIgnored: synth.ignoredSysexCount) }
    }

    /// What a render met that a user may want to know (`backbeat render --report`).
    public struct Report: Sendable, Equatable {
        /// System exclusive messages the synth received.
        public var sysexReceived: Int
        /// Those it did not act on (`Synth.ignoredSysexCount`).
        public var sysexIgnored: Int

        public init(sysexReceived: Int, sysexIgnored: Int) {
            self.sysexReceived = sysexReceived
            self.sysexIgnored = sysexIgnored
        }
    }

    /// `messages` at their frames from the start (`frame(at:)`), in time order (stable for equal times): the
    /// one conversion from seconds to frames, shared by the offline render and the live player
    /// (`SongPlayer`), so that both apply every message at the same frame.
    public static func framed(_ messages: [TimedMessage], sampleRate: Double) -> [FramedMessage] {
        messages.enumerated().sorted {
            ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset)
        }.map { FramedMessage(frame: frame(at: $0.element.seconds, sampleRate: sampleRate), message: $0.element.message,
                              sysex: $0.element.sysex) }
    }

    /// The frame at `seconds` (rounded), 0 for negative or non-finite times, capped far beyond any render.
    public static func frame(at seconds: Double, sampleRate: Double) -> Int {
        let frame = (seconds * sampleRate).rounded()
        return frame.isFinite && frame > 0 ? Int(min(frame, 1e17)) : 0
    }

    /// Whole frames in `seconds` (truncated), 0 for negative or non-finite lengths.
    static func frames(in seconds: Double, sampleRate: Double) -> Int {
        let frames = seconds * sampleRate
        return frames.isFinite && frames > 0 ? Int(min(frames, 1e17)) : 0
    }

    /// Seconds of audio `render` makes from `messages` before its tail: the time of the last message.
    public static func duration(of messages: [TimedMessage]) -> Double {
        messages.reduce(0) { max($0, $1.seconds.isFinite ? $1.seconds : .infinity) }
    }

    private static func isSilent(_ left: UnsafeMutableBufferPointer<Float>, _ right: UnsafeMutableBufferPointer<Float>,
                                 from first: Int = 0) -> Bool {
        left[first...].allSatisfy { $0 == 0 } && right[first...].allSatisfy { $0 == 0 }
    }
}

extension OfflineRenderer {
    /// The synth's input from a Standard MIDI File: its channel messages and its whole sysex messages at
    /// their times through the tempo map, as a live synth gets them (a sysex divided into packets, meta and
    /// other system messages are dropped; the synth ignores them).
    public static func messages(of file: StandardMIDIFile) -> [TimedMessage] {
        file.timedEvents().compactMap { timed in
            switch timed.event {
            case .sysex(let sysex), .message(.systemExclusive(let sysex)):
                guard sysex.isTerminated else { return nil }
                return TimedMessage(seconds: timed.seconds, sysex: MIDIMessage.systemExclusive(sysex).bytes)
            case .message(let message):
                guard let short = message.shortMessage, short.isChannelMessage else { return nil }
                return TimedMessage(seconds: timed.seconds, message: short)
            default:
                return nil
            }
        }
    }
}
