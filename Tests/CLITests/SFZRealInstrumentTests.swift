// A real instrument against sfizz, run by hand: `BACKBEAT_SFZ_INSTRUMENT=/path/to/piano.sfz swift test --filter
// SFZRealInstrumentTests` (CI has no such instrument). Twenty notes over the keyboard at two velocities, rendered by
// `backbeat render --instrument` and by `sfizz_render`, compared note by note as SFZAgainstSfizzTests compares
// its small instruments: pitch within 5 cents, level within 1.5 dB, loudness envelope r >= 0.95.
import Foundation
import MIDI
import Testing
import TestSupport

// An opt-in, not a dependency: skipped wherever the variable is not set, CI included.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["BACKBEAT_SFZ_INSTRUMENT"] != nil, "by hand: set BACKBEAT_SFZ_INSTRUMENT to an .sfz file"),
       .needsBackbeatBinary, .needs(SfizzComparison.sfizzRender != nil, "needs sfizz_render: pip install pysfizz (scripts/setup test)"))
struct SFZRealInstrumentTests {
    typealias S = SfizzComparison

    @Test func aRealInstrumentMatchesSfizz() throws {
        let instrument = try #require(ProcessInfo.processInfo.environment["BACKBEAT_SFZ_INSTRUMENT"])
        let folder = try makeTemporaryDirectory("vs-sfizz-real")
        defer { try? FileManager.default.removeItem(at: folder) }
        // sfizz's offline renderer does not wait for the samples it streams: a copy of the instrument's text beside
        // it (so its relative paths hold) asks it to load them whole, as Backbeat does.
        let wrapper = (instrument as NSString).deletingLastPathComponent + "/.backbeat-vs-sfizz-\(getpid()).sfz"
        try "<control> hint_ram_based=1\n#include \"\((instrument as NSString).lastPathComponent)\"\n"
            .write(toFile: wrapper, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: wrapper) }

        let keys: [UInt8] = [29, 41, 48, 55, 60, 64, 69, 76, 84, 96]
        let notes = keys.flatMap { key in [45, 100].map { UInt8($0) }.map { (key, $0) } }.enumerated().map { i, note in
            S.Note(key: note.0, velocity: note.1, start: Double(i) * 2, end: Double(i) * 2 + 1.5)
        }
        let midi = folder.appendingPathComponent("notes.mid").path
        try S.writeMIDI(notes, to: midi)
        let ours = folder.appendingPathComponent("backbeat.wav").path, theirs = folder.appendingPathComponent("sfizz.wav").path
        let result = try backbeat(["render", midi, "-o", ours, "--instrument", instrument, "--no-reverb", "--no-chorus"])
        try #require(result.status == 0, "\(result.stderr)")
        let reference = try run(S.sfizzRender!, ["--sfz", wrapper, "--midi", midi, "--wav", theirs, "-s", "\(S.rate)"])
        try #require(reference.status == 0, "\(reference.output)")
        let a = AudioComparison.mono(try WAVRecording(path: ours)), b = AudioComparison.mono(try WAVRecording(path: theirs))

        var worst = (cents: 0.0, decibels: 0.0, r: 1.0)
        for note in notes {
            // The fundamental: present in both, whichever partial is strongest.
            let hertz = 440 * pow(2, (Double(note.key) - 69) / 12)
            let pitches = S.strongestPitches(a, b, over: S.Note(key: note.key, velocity: note.velocity, start: note.start, end: note.start + 0.6),
                                             after: 0.05, near: hertz)
            let cents = S.cents(pitches.ours, pitches.theirs)
            let level = AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(a, from: note.start, to: note.end, rate: S.rate)))
                - AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(b, from: note.start, to: note.end, rate: S.rate)))
            let r = AudioComparison.pearson(
                AudioComparison.loudnessEnvelope(Array(AudioComparison.slice(a, from: note.start, to: note.start + 2, rate: S.rate)), rate: S.rate),
                AudioComparison.loudnessEnvelope(Array(AudioComparison.slice(b, from: note.start, to: note.start + 2, rate: S.rate)), rate: S.rate))
            print(String(format: "real sfz: key %d velocity %d: pitch %.2f cents, level %+.2f dB, envelope r = %.4f",
                         note.key, note.velocity, cents, level, r))
            worst = (max(worst.cents, abs(cents)), max(worst.decibels, abs(level)), min(worst.r, r))
            #expect(abs(cents) <= 5 && abs(level) <= 1.5 && r >= 0.95, "key \(note.key) velocity \(note.velocity)")
        }
        print(String(format: "real sfz '%@': worst pitch %.2f cents, level %.2f dB, envelope r = %.4f", instrument, worst.cents, worst.decibels, worst.r))
    }
}
