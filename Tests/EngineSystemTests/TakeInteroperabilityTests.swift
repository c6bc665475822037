import Bench
import Engine
import Foundation
import MIDI
import Testing

/// Issue 21, "done when": a take recorded against a clock at 132 BPM after a program change to 40 opens in
/// readers Backbeat did not write (midicsv, FluidSynth, TiMidity++), plays at 132 BPM in the violin and is
/// listed by `backbeat smf`. The take comes from the real engine: a JACK MIDI source into
/// `backbeat --headless --record-midi` on a private `jackd -d dummy`.
extension JACK {
@Suite struct TakeInteroperabilityTests {
    static let font = "/usr/share/sounds/sf2/TimGM6mb.sf2"

    @Test func aClockedTakeOpensInEveryReaderAt132BPMInTheViolin() throws {
        let folder = try makeTemporaryDirectory("backbeat-take-it")
        defer { try? FileManager.default.removeItem(at: folder) }
        let take = folder.appendingPathComponent("take.mid").path
        // Program 40 (violin), controllers, a sysex, then MIDI clock at 132 BPM from Start, a note on each
        // of 8 beats, Stop.
        let recorded = try HeadlessRecording.recordAll(take: take) { sampleRate in
            let rate = Double(sampleRate)
            let framesPerClock = rate * 60 / (132 * 24)
            let start = 9_600
            var events: [ProbeEvent] = [
                .cc(1_000, 0, 0), ProbeEvent(frame: 1_000, bytes: [0xC0, 40]), .cc(1_200, 7, 110), .cc(1_200, 10, 40), .cc(1_200, 91, 20),
                ProbeEvent(frame: 2_000, bytes: [0xF0, 0x7E, 0x7F, 0x06, 0x01, 0xF7]),
                ProbeEvent(frame: start, bytes: [0xFA]),
            ]
            let ticks = 24 * 9
            events += (0..<ticks).map { ProbeEvent(frame: start + Int((Double($0) * framesPerClock).rounded()), bytes: [0xF8]) }
            let beatFrames = (1...8).map { start + Int((Double($0 * 24) * framesPerClock).rounded()) }
            for (i, frame) in beatFrames.enumerated() {
                events.append(.noteOn(frame, 69 + UInt8(i % 3), 100))
                events.append(.noteOff(frame + Int(12 * framesPerClock), 69 + UInt8(i % 3)))
            }
            let stopFrame = start + Int((Double(ticks) * framesPerClock).rounded())
            events.append(ProbeEvent(frame: stopFrame, bytes: [0xFC]))
            return events
        }
        #expect((statusNumber(after: "MIDI ", in: recorded.line) ?? 0) >= recorded.sent, "\(recorded.line)")
        #expect(recorded.status == 0, "\(recorded.output.joined(separator: "\n"))")

        // Backbeat reads it back: format 1, 960 ticks, tempo 132 BPM, the violin, notes on the beats.
        let file = try StandardMIDIFile(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: take))))
        #expect(file.format == 1 && file.division == .ticksPerQuarterNote(960) && file.tracks.count == 2)
        let all = file.tracks.flatMap { $0 }
        #expect(!all.contains { if case .escape = $0.event { true } else { false } }, "no clock bytes stored")
        let tempos = file.tracks[0].compactMap { e -> (UInt64, UInt32)? in if case .meta(let m) = e.event, let t = m.tempo { (e.tick, t) } else { nil } }
        let clocked = try #require(tempos.last)
        #expect(abs(60_000_000 / Double(clocked.1) - 132) < 0.66, "tempo \(tempos)")
        #expect(tempos.count <= 3, "one tempo for a steady clock, after the 120 of the start: \(tempos)")
        let ons = file.tracks[1].filter { if case .message(.noteOn(let n)) = $0.event { n.velocity > 0 } else { false } }
        #expect(ons.count == 8)
        for (i, on) in ons.enumerated() {
            let offset = Int(on.tick) - Int(clocked.0)
            #expect(abs(offset - (i + 1) * 960) <= 4, "note \(i + 1) is \(offset) ticks after the clock's start, not on beat \(i + 1)")
        }
        #expect(file.tracks[1].contains { if case .message(.programChange(let p)) = $0.event { p.program == 40 } else { false } })
        #expect(all.contains { if case .sysex(let s) = $0.event { s.data == [0x7E, 0x7F, 0x06, 0x01] } else { false } })
        // What the readers play: to the last event before the End of Track, which is at the stop (later).
        let timed = file.timedEvents()
        let length = try #require(timed.last { if case .meta(let m) = $0.event { !m.isEndOfTrack } else { true } }).seconds
        #expect(length > 4, "\(length) s recorded")
        #expect(try #require(timed.last).seconds >= length, "the End of Track is at the stop")

        // Backbeat's listing, and decode pointing to it.
        let listing = try run(backbeatExecutable(), ["smf", take])
        #expect(listing.status == 0)
        #expect(listing.output.contains("format 1, 2 tracks, 960 ticks per quarter note"), "\(listing.output.prefix(500))")
        #expect(listing.output.contains("Program Change    ch 1  40 Violin"), "\(listing.output.prefix(1500))")
        #expect(listing.output.contains("Marker                  Start") && listing.output.contains("Marker                  Stop"))
        let json = try run(backbeatExecutable(), ["smf", "--json", take])
        let bpms = json.output.split(separator: "\n").compactMap { line -> Double? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["bpm"] as? Double
        }
        #expect(bpms.contains { abs($0 - 132) < 0.66 }, "\(bpms)")
        let decode = try run(backbeatExecutable(), ["decode", take])
        #expect(decode.status == 2 && decode.output.contains("is a Standard MIDI File") && decode.output.contains("backbeat smf"), "\(decode.output)")

        // midicsv, a strict reader: no error, the tempo and the violin.
        let csv = try run("/usr/bin/midicsv", [take])
        #expect(csv.status == 0 && !csv.output.lowercased().contains("error"), "\(csv.output.prefix(1000))")
        // The clocked tempo as midicsv reads it: the last Tempo record, 132 BPM within the tolerance above.
        let csvTempo = csv.output.split(separator: "\n").last { $0.contains(", Tempo, ") }
            .flatMap { Double($0.split(separator: ",").last!.trimmingCharacters(in: .whitespaces)) }
        #expect(csvTempo.map { abs(60_000_000 / $0 - 132) < 0.66 } == true && csv.output.contains("Program_c, 0, 40"),
                "\(csv.output.prefix(1500))")

        // FluidSynth and TiMidity++ render it for at least its recorded length.
        let fluid = folder.appendingPathComponent("fluid.wav").path
        let rendered = try run("/usr/bin/fluidsynth", ["-ni", "-R", "0", "-C", "0", "-r", "48000", "-F", fluid, Self.font, take])
        #expect(rendered.status == 0, "\(rendered.output)")
        let timidityWAV = folder.appendingPathComponent("timidity.wav").path
        let timidity = try run("/usr/bin/timidity", ["-Ow", "-o", timidityWAV, "-x", "soundfont \(Self.font)", take])
        #expect(timidity.status == 0, "\(timidity.output)")
        for wav in [fluid, timidityWAV] {
            let seconds = Double(try run("/usr/bin/soxi", ["-D", wav]).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(seconds >= length, "\(wav): \(seconds) s rendered for a take of \(length) s")
        }
    }
}
}
