// System exclusive from the outside to the synth, without a server: from a file through the offline renderer,
// from JACK's buffer through the real-time context at its frame, from the ALSA sequencer through its control
// ring. Live and offline must stay sample-identical with sysex in the stream.
@testable import Engine
import DSP
import Foundation
import MIDI
import TestSupport
import Testing

@Suite struct SysexPathTests {
    static let rate = 48_000.0
    static let halfVolume = UniversalSystemExclusive.masterVolume(8192)

    /// A note at 0.05 s, Master Volume 8192 at 0.5 s, note-off at 1 s: a Standard MIDI File.
    static func halvingFile() throws -> StandardMIDIFile {
        let events: [(seconds: Double, message: MIDIMessage)] = [
            (0.05, .noteOn(NoteOn(channel: 0, note: 69, velocity: 100))),
            (0.5, .systemExclusive(SystemExclusive(data: Array(halfVolume.bytes().dropFirst().dropLast())))),
            (1, .noteOff(NoteOff(channel: 0, note: 69, velocity: 0))),
        ]
        return try StandardMIDIFile(bytes: StandardMIDIFile.format0(events))
    }

    @Test func aFilesMasterVolumeSysexHalvesTheOfflineRender() throws {
        let messages = OfflineRenderer.messages(of: try Self.halvingFile())
        #expect(messages.count == 3)
        #expect(messages[1].message.isSystemExclusive && messages[1].sysex == Self.halfVolume.bytes())
        #expect(abs(messages[1].seconds - 0.5) < 1e-9)
        let audio = OfflineRenderer.render(messages, sampleRate: Self.rate, voices: 8, patch: 0)
        let without = OfflineRenderer.render(messages.filter { !$0.message.isSystemExclusive }, sampleRate: Self.rate,
                                             voices: 8, patch: 0)
        #expect(audio.left[..<24_000] == without.left[..<24_000], "nothing changes before the sysex")
        // Ten time constants of the master gain's glide after the message, to the note-off.
        let change = AudioAnalysis.rmsDecibels(audio.left[26_400..<48_000]) - AudioAnalysis.rmsDecibels(without.left[26_400..<48_000])
        #expect(abs(change - 20 * log10(8192.0 / 16383)) < 0.01, "master volume 8192 changed the level by \(change) dB")
    }

    /// The live path without a server: each period as the JACK callback runs it (`process(frames:)` in
    /// JACK/JackProcessCallback.swift: control rings, then each event after rendering up to its frame).
    /// `synth` (a default one when nil) is prepared here. The tests of other message kinds (tuning, effects,
    /// stacked fonts) use it too, against `timed(_:)` rendered offline.
    static func renderLive(_ events: [(frame: Int, bytes: [UInt8])], frames: Int, period: Int = 256,
                           synth: Synth? = nil) -> [Float] {
        let synth = synth ?? Synth()
        synth.prepare(sampleRate: rate, maxFrames: period)
        let context = RealtimeContext(synth: synth)
        context.maxFrames = period
        return renderInPeriods(frames: frames, period: period) { start, n, l, r in
            let p = context.beginPeriod(periodStart: UInt32(start))
            var output = PeriodRenderer(left: l, right: r, frames: n, chunk: period)
            for event in events where event.frame >= start && event.frame < start + n {
                context.render(&output, upTo: event.frame - start, p)
                var bytes = event.bytes
                bytes.withUnsafeMutableBufferPointer {
                    context.receive(bytes: $0.baseAddress!, size: $0.count, frameTime: UInt32(event.frame), midiOpen: p.midiOpen)
                }
            }
            context.finishPeriod(p, &output)
            while context.uiRing.pop() != nil {}
            while context.sysexRing.pop() != nil {}
        }.left
    }

    /// Renders `events` live (`renderLive`) and offline (`OfflineRenderer`, 256-frame periods, no padding, at
    /// least `frames` long; with `soundFont`, both at 64 voices) and expects the first `frames` sample-identical;
    /// both left channels.
    @discardableResult
    static func expectLiveEqualsOffline(_ events: [(frame: Int, bytes: [UInt8])], frames: Int,
                                        soundFont: SoundFont? = nil,
                                        interpolation: SampleInterpolation = .cubic) -> (live: [Float], offline: [Float]) {
        let live = renderLive(events, frames: frames, synth: soundFont.map {
            let synth = Synth(voices: 64, soundFont: $0)
            synth.setInterpolation(interpolation)
            return synth
        })
        let offline = soundFont.map {
            OfflineRenderer.render(timed(events), sampleRate: rate, voices: 64, soundFont: $0, periodFrames: 256, padding: 0,
                                   until: Double(frames) / rate, interpolation: interpolation).left
        } ?? OfflineRenderer.render(timed(events), sampleRate: rate, periodFrames: 256, padding: 0, until: Double(frames) / rate).left
        #expect(offline.count >= frames)
        let firstDifference = (0..<min(frames, offline.count)).first { live[$0] != offline[$0] }
        #expect(firstDifference == nil, "live and offline differ from frame \(firstDifference ?? -1)")
        return (live, offline)
    }

    /// The same events as the offline renderer takes them: sysex whole, channel messages of one or two data bytes.
    static func timed(_ events: [(frame: Int, bytes: [UInt8])]) -> [TimedMessage] {
        events.map { event in
            let seconds = Double(event.frame) / rate
            return event.bytes[0] == SystemStatus.exclusive
                ? TimedMessage(seconds: seconds, sysex: event.bytes)
                : TimedMessage(seconds: seconds, message: ShortMessage(status: event.bytes[0], data1: event.bytes[1],
                                                                       data2: event.bytes.count > 2 ? event.bytes[2] : 0))
        }
    }

    @Test func liveAndOfflineStaySampleIdenticalWithSysex() {
        // Frames off the period grid, so each message splits a period.
        let events: [(frame: Int, bytes: [UInt8])] = [
            (1_000, [0x90, 69, 100]), (1_000, [0x91, 64, 90]), (5_000, Self.halfVolume.bytes()),
            (9_001, [0xB1, 7, 30]), (12_345, UniversalSystemExclusive.generalMIDIOn.bytes()),
            (13_000, [0x90, 72, 110]), (17_777, [0x80, 72, 0]),
        ]
        // Whole periods, as JACK and the offline renderer run them: a last call cut short (24000 frames, 192 of
        // its period) plans the built-in filter's coefficients to its own last sample (`planCoefficients`), and
        // its last 3 samples came out 1-2 ulps apart from the offline render's full period.
        let frames = 24_064
        let (live, _) = Self.expectLiveEqualsOffline(events, frames: frames)
        // The sysex did something: half the level from frame 5000 (against the same without it), the notes
        // cut at 12345.
        let without = Self.renderLive(events.filter { $0.frame != 5_000 }, frames: frames)
        let change = AudioAnalysis.rmsDecibels(live[7_000..<9_000]) - AudioAnalysis.rmsDecibels(without[7_000..<9_000])
        #expect(abs(change - 20 * log10(8192.0 / 16383)) < 0.01, "\(change) dB")
        #expect(live[12_345 + 240..<13_000].allSatisfy { $0 == 0 }, "GM System On cut the notes within 5 ms")
    }

    /// The ALSA sequencer's half, played by the test: bytes into the ALSA sysex ring, then the event.
    @Test func anALSASysexReachesTheSynthAndTheMonitor() {
        let alsa = ALSASysexPath(sysexCapacity: 64)
        let synth = alsa.synth, context = alsa.context
        func period(_ start: UInt32) { alsa.period(start) }
        func send(_ bytes: [UInt8]) { alsa.send(bytes) }
        // While the lifecycle gate is closed the sysex is consumed, counted lost, and not applied.
        context.midiGate.close()
        send(Self.halfVolume.bytes())
        period(0)
        #expect(synth.masterVolume == 1 && context.alsaSysexRing.count == 0)
        #expect(context.counters.midiLost.load(ordering: .relaxed) == 1)
        context.midiGate.open()
        send(Self.halfVolume.bytes())
        period(256)
        #expect(synth.masterVolume == Float(8192) / 16383)
        var monitored: [MonitorEvent] = []
        while let event = context.uiRing.pop() { if case .midi(let m) = event { monitored.append(m) } }
        #expect(monitored.map(\.source) == [.alsa, .alsa] && monitored.map(\.lost) == [true, false])
        #expect(monitored.last?.sysexLength == 8 && monitored.last?.sysexBytesQueued == 8)
        let payload = (0..<8).compactMap { _ in context.sysexRing.pop() }
        #expect(payload == Self.halfVolume.bytes())
    }
}

/// A synth behind a `RealtimeContext` at 256-frame periods, and the ALSA sequencer's half of a sysex played
/// by the test: its bytes into the ALSA sysex ring, then its event.
final class ALSASysexPath {
    let synth = Synth()
    let context: RealtimeContext
    private var left = [Float](repeating: 0, count: 256), right = [Float](repeating: 0, count: 256)

    init(sysexCapacity: Int) {
        synth.prepare(sampleRate: SysexPathTests.rate, maxFrames: 256)
        context = RealtimeContext(synth: synth, ringCapacity: 64, uiRingCapacity: 256, sysexCapacity: sysexCapacity,
                                  captureCapacity: 64)
        context.maxFrames = 256
    }

    /// One period of the real-time path, from frame `start`.
    func period(_ start: UInt32) {
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                context.process(frames: 256, left: l.baseAddress!, right: r.baseAddress!, periodStart: start)
            }
        }
    }

    /// Queues `bytes` as the ALSA reader does, expecting both rings to take them.
    func send(_ bytes: [UInt8]) {
        #expect(bytes.withUnsafeBufferPointer { context.alsaSysexRing.push(contentsOf: $0) } == bytes.count)
        #expect(context.alsaRing.push(.sysex(length: UInt32(bytes.count), .alsa)))
    }
}
