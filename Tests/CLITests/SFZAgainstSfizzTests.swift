// Backbeat's SFZ playback against sfizz (`sfizz_render`, from PyPI's pysfizz, installed by scripts/setup test):
// instruments written by the test over samples it makes (a looped sine file, the *sine generator), each
// rendered by `backbeat render --instrument` and by `sfizz_render` from the same MIDI file, compared by pitch
// (5 cents), level (1.5 dB), loudness envelope (r >= 0.95) and onset. The figures are printed for docs/sfz.md.
import Foundation
import MIDI
import Testing
import TestSupport

enum SfizzComparison {
    /// `sfizz_render` on the PATH, else where pip puts pysfizz's copy (site-packages/bin, not on the PATH).
    static let sfizzRender: String? = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = String(folder) + "/sfizz_render"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        guard let shown = try? run("/usr/bin/env", ["python3", "-m", "pip", "show", "pysfizz"]), shown.status == 0,
              let line = shown.output.split(separator: "\n").first(where: { $0.hasPrefix("Location: ") }) else { return nil }
        let path = line.dropFirst("Location: ".count).trimmingCharacters(in: .whitespaces) + "/bin/sfizz_render"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    static let rate = 48_000

    /// A 16-bit WAV of `channels` (each -1...1, the same length) at `rate`.
    static func wav(_ channels: [[Float]], rate: Int) -> Data {
        var data = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
        let count = channels.count, frames = channels.first?.count ?? 0, bytes = frames * count * 2
        data.append(contentsOf: Array("RIFF".utf8)); u32(36 + bytes); data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(1); u16(count); u32(rate); u32(rate * 2 * count); u16(2 * count); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(bytes)
        for i in 0..<frames {
            for channel in channels {
                withUnsafeBytes(of: Int16((max(min(channel[i], 1), -1) * 32767).rounded()).littleEndian) { data.append(contentsOf: $0) }
            }
        }
        return data
    }

    /// The test's samples, 2 s at 48 kHz each: `tone.wav`, a 375 Hz sine (128 frames a cycle) at amplitude
    /// 0.5; `quiet.wav`, the same at 0.05 (room for levels above 0 dB); `stereo.wav`, the tone on the left and
    /// 750 Hz on the right; `noise.wav`, white noise (uniform, -0.5...0.5, seeded) for the filters; `ramp.wav`
    /// (0.25 s only), the tone rising from silence.
    static func writeSamples(in folder: URL) throws {
        func sine(_ cycle: Double, _ amplitude: Double) -> [Float] { (0..<96_000).map { Float(amplitude * sin(2 * Double.pi * Double($0) / cycle)) } }
        try wav([sine(128, 0.5)], rate: 48_000).write(to: folder.appendingPathComponent("tone.wav"))
        try wav([sine(128, 0.05)], rate: 48_000).write(to: folder.appendingPathComponent("quiet.wav"))
        try wav([sine(128, 0.5), sine(64, 0.5)], rate: 48_000).write(to: folder.appendingPathComponent("stereo.wav"))
        // `ramp.wav`: 0.25 s of the tone rising from silence to 0.5, for `count`'s passes.
        try wav([(0..<12_000).map { Float(0.5 * Double($0) / 12_000 * sin(2 * Double.pi * Double($0) / 128)) }], rate: 48_000)
            .write(to: folder.appendingPathComponent("ramp.wav"))
        var random = XorShift(seed: 38)
        try wav([(0..<96_000).map { _ in random.float(-0.5...0.5) }], rate: 48_000).write(to: folder.appendingPathComponent("noise.wav"))
    }

    /// One note: key, velocity, start and end in seconds.
    struct Note { var key: UInt8, velocity: UInt8, start: Double, end: Double }

    /// Renders `sfz` playing `notes` (channel 1) with both players: Backbeat's and sfizz's mono mixes.
    static func render(_ name: String, sfz: String, notes: [Note],
                       extra: [(seconds: Double, message: MIDIMessage)] = []) throws -> (ours: [Float], theirs: [Float]) {
        let (a, b) = try renderRecordings(name, sfz: sfz, notes: notes, extra: extra)
        return (AudioComparison.mono(a), AudioComparison.mono(b))
    }

    /// Renders `sfz` playing `notes` and the `extra` messages (channel 1) with both players: Backbeat's and
    /// sfizz's stereo recordings.
    static func renderRecordings(_ name: String, sfz: String, notes: [Note],
                                 extra: [(seconds: Double, message: MIDIMessage)] = []) throws -> (ours: WAVRecording, theirs: WAVRecording) {
        let folder = try makeTemporaryDirectory("vs-sfizz-\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeSamples(in: folder)
        let instrument = folder.appendingPathComponent("\(name).sfz").path
        // sfizz streams a sample past its first 8192 frames from a loader thread that its offline renderer does
        // not wait for: loaded into memory whole, the sample is all there from the first note.
        try ("<control> hint_ram_based=1\n" + sfz).write(toFile: instrument, atomically: true, encoding: .utf8)
        let midi = folder.appendingPathComponent("\(name).mid").path
        try writeMIDI(notes, extra: extra, to: midi)
        let ours = folder.appendingPathComponent("backbeat.wav").path, theirs = folder.appendingPathComponent("sfizz.wav").path
        let arguments = ["render", midi, "-o", ours, "--instrument", instrument, "--no-reverb", "--no-chorus"]
        let result = try backbeat(arguments)
        guard result.status == 0 else { throw HarnessError("backbeat \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)") }
        let reference = try run(sfizzRender!, ["--sfz", instrument, "--midi", midi, "--wav", theirs, "-s", "\(rate)"])
        guard reference.status == 0 else { throw HarnessError("sfizz_render exited \(reference.status): \(reference.output)") }
        let a = try WAVRecording(path: ours), b = try WAVRecording(path: theirs)
        guard a.sampleRate == rate, b.sampleRate == rate else { throw HarnessError("rates \(a.sampleRate) and \(b.sampleRate)") }
        guard a.channels.count == 2, b.channels.count == 2 else { throw HarnessError("channels \(a.channels.count) and \(b.channels.count)") }
        return (a, b)
    }

    /// A format 0 file at `path` playing `notes` and the `extra` messages on channel 1.
    static func writeMIDI(_ notes: [Note], extra: [(seconds: Double, message: MIDIMessage)] = [], to path: String) throws {
        var events = extra
        for note in notes {
            events.append((note.start, .noteOn(.init(channel: 0, note: note.key, velocity: note.velocity))))
            events.append((note.end, .noteOff(.init(channel: 0, note: note.key, velocity: 0))))
        }
        try Data(StandardMIDIFile.format0(events)).write(to: URL(fileURLWithPath: path))
    }

    static func cents(_ a: Double, _ b: Double) -> Double { 1200 * log2(a / b) }

    /// The strongest frequency within 5 % of `expected` in `ours` and in `theirs` while `note` holds (from `after`
    /// seconds after its start to 0.05 s before its end).
    static func strongestPitches(_ ours: [Float], _ theirs: [Float], over note: Note, after: Double = 0.2,
                                 near expected: Double) -> (ours: Double, theirs: Double) {
        func strongest(_ s: [Float]) -> Double {
            AudioComparison.strongestFrequency(AudioComparison.slice(s, from: note.start + after, to: note.end - 0.05, rate: rate),
                                               rate: rate, low: expected * 0.95, high: expected * 1.05).frequency
        }
        return (strongest(ours), strongest(theirs))
    }
}

@Suite(.needsBackbeatBinary, .needs(SfizzComparison.sfizzRender != nil, "needs sfizz_render: pip install pysfizz (scripts/setup test)"))
struct SFZAgainstSfizzTests {
    typealias S = SfizzComparison

    /// A looped sample at six keys (its key centre, above, below) and the *sine generator at three: each note's
    /// strongest component within 5 cents of sfizz's and of the expected pitch.
    @Test func pitchMatchesSfizz() throws {
        let keys: [UInt8] = [66, 69, 78, 54, 60, 73]
        let notes = keys.enumerated().map { S.Note(key: $1, velocity: 100, start: 0.2 + Double($0), end: 0.9 + Double($0)) }
        for (name, sfz, centre) in [
            ("sample", "<region> sample=tone.wav pitch_keycenter=66 loop_mode=loop_continuous loop_start=0 loop_end=95999", 375.0),
            ("sine", "<region> sample=*sine", 0),
        ] {
            let (ours, theirs) = try S.render("pitch-\(name)", sfz: sfz, notes: notes)
            for note in notes {
                let expected = centre > 0 ? centre * pow(2, (Double(note.key) - 66) / 12) : 440 * pow(2, (Double(note.key) - 69) / 12)
                let (a, b) = S.strongestPitches(ours, theirs, over: note, near: expected)
                print(String(format: "sfz pitch %@ key %d: expected %.2f Hz, backbeat %.2f, sfizz %.2f, apart %.2f cents",
                             name, Int(note.key), expected, a, b, S.cents(a, b)))
                #expect(abs(S.cents(a, b)) < 5, "\(name) key \(note.key): backbeat \(a) Hz, sfizz \(b) Hz")
                #expect(abs(S.cents(a, expected)) < 5, "\(name) key \(note.key): backbeat \(a) Hz, expected \(expected) Hz")
            }
        }
    }

    /// Levels within 1.5 dB of sfizz's at three velocities and two volumes, over each note's steady part.
    @Test func levelMatchesSfizz() throws {
        let cases: [(velocity: UInt8, volume: Double)] = [(127, 0), (100, 0), (64, 0), (127, -12)]
        for (i, c) in cases.enumerated() {
            let notes = [S.Note(key: 66, velocity: c.velocity, start: 0.1, end: 0.9)]
            let sfz = "<region> sample=tone.wav pitch_keycenter=66 volume=\(c.volume)"
            let (ours, theirs) = try S.render("level-\(i)", sfz: sfz, notes: notes)
            let a = AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(ours, from: 0.3, to: 0.8, rate: S.rate)))
            let b = AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(theirs, from: 0.3, to: 0.8, rate: S.rate)))
            print(String(format: "sfz level velocity %d volume %.0f dB: backbeat %.2f dBFS, sfizz %.2f dBFS, apart %.2f dB",
                         Int(c.velocity), c.volume, a, b, a - b))
            #expect(abs(a - b) < 1.5, "velocity \(c.velocity) volume \(c.volume): backbeat \(a) dB, sfizz \(b) dB")
        }
    }

    /// An ADSR (ampeg_*) over a held note and its release: the loudness envelopes (10 ms windows, dB)
    /// correlate at r >= 0.95 and the notes start within 2 ms of each other.
    @Test func envelopeAndOnsetMatchSfizz() throws {
        let notes = [S.Note(key: 66, velocity: 127, start: 0.25, end: 1.5)]
        let sfz = "<region> sample=tone.wav pitch_keycenter=66 loop_mode=loop_continuous loop_start=0 loop_end=95999 "
            + "ampeg_attack=0.2 ampeg_hold=0.1 ampeg_decay=0.4 ampeg_sustain=30 ampeg_release=0.5"
        let (ours, theirs) = try S.render("envelope", sfz: sfz, notes: notes)
        let length = min(ours.count, theirs.count, Int(2.4 * Double(S.rate)))
        let a = AudioComparison.loudnessEnvelope(Array(ours.prefix(length)), rate: S.rate)
        let b = AudioComparison.loudnessEnvelope(Array(theirs.prefix(length)), rate: S.rate)
        let r = AudioComparison.pearson(a, b)
        let onsetOurs = AudioAnalysis.onsets(ours).first ?? -1, onsetTheirs = AudioAnalysis.onsets(theirs).first ?? -1
        print(String(format: "sfz envelope: r = %.4f; onset backbeat frame %d, sfizz frame %d", r, onsetOurs, onsetTheirs))
        #expect(r >= 0.95)
        #expect(onsetOurs >= 0 && abs(onsetOurs - onsetTheirs) <= S.rate / 500, "onsets \(onsetOurs) and \(onsetTheirs)")
    }

    /// Round robins and key switches choose the same regions in the same order as sfizz's (the regions are
    /// `*sine` at different transpositions, so each note's pitch names the region), and a release region
    /// starts at the note-off in both.
    @Test func noteChoicesMatchSfizz() throws {
        func heard(_ samples: [Float], _ notes: [S.Note]) -> [Double] {
            notes.map { note in
                let part = AudioComparison.slice(samples, from: note.start + 0.05, to: note.end, rate: S.rate)
                if AudioComparison.rms(part) < 1e-4 { return 0 }
                return AudioComparison.strongestFrequency(part, rate: S.rate, low: 200, high: 1_800, resolution: 0.5).frequency
            }
        }
        let robin = (0..<5).map { S.Note(key: 69, velocity: 100, start: 0.2 + 0.5 * Double($0), end: 0.5 + 0.5 * Double($0)) }
        let switched = [69, 25, 69, 24, 69].enumerated().map { S.Note(key: UInt8($1), velocity: 100, start: 0.2 + 0.5 * Double($0), end: 0.5 + 0.5 * Double($0)) }
        for (name, sfz, notes) in [
            ("robin", "<group> seq_length=3 ampeg_release=0.01\n<region> seq_position=1 sample=*sine\n"
                + "<region> seq_position=2 sample=*sine transpose=12\n<region> seq_position=3 sample=*sine transpose=7", robin),
            ("switch", "<global> sw_lokey=24 sw_hikey=25 sw_default=24 ampeg_release=0.01\n<region> sw_last=24 lokey=60 hikey=80 sample=*sine\n"
                + "<region> sw_last=25 lokey=60 hikey=80 sample=*sine transpose=12", switched),
        ] {
            let (ours, theirs) = try S.render("choice-\(name)", sfz: sfz, notes: notes)
            let a = heard(ours, notes), b = heard(theirs, notes)
            print("sfz \(name): backbeat \(a.map { Int($0.rounded()) }) Hz, sfizz \(b.map { Int($0.rounded()) }) Hz")
            #expect(a.count == b.count && zip(a, b).allSatisfy { $1 == 0 ? $0 == 0 : $0 > 0 && abs(S.cents($0, $1)) < 5 }, "\(name): \(a) against \(b)")
        }
        let release = [S.Note(key: 66, velocity: 100, start: 0.2, end: 0.7)]
        // sfizz starts a release region only for a key some attack region maps (here a silent one); the MIDI
        // file's last event comes later, as sfizz's renderer stops at it.
        let (ours, theirs) = try S.render("release", sfz: "<region> key=66 sample=*silence\n<region> key=66 trigger=release sample=tone.wav pitch_keycenter=66",
                                          notes: release + [S.Note(key: 1, velocity: 1, start: 1.5, end: 1.6)])
        let onsetOurs = AudioAnalysis.onsets(ours).first ?? -1, onsetTheirs = AudioAnalysis.onsets(theirs).first ?? -1
        print("sfz release trigger: onset backbeat frame \(onsetOurs), sfizz frame \(onsetTheirs) (note-off at \(Int(0.7 * Double(S.rate))))")
        #expect(onsetOurs >= Int(0.7 * Double(S.rate)) && abs(onsetOurs - onsetTheirs) <= S.rate / 500, "onsets \(onsetOurs) and \(onsetTheirs)")
    }
}
