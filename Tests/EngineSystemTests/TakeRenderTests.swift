import Bench
import Engine
import Foundation
import MIDI
import Testing

/// Issue 21, section 2: a take sounds as it was played. Backbeat plays the built-in "pizzicato strings" patch (`--patch 58`,
/// chosen before the take began, so no program change is in the MIDI that arrives) and records both what
/// it received (`--record-midi`) and what it played (`--record-audio`); `backbeat render take.mid` (default
/// patch: GM program 0's, 13 acoustic grand piano) must give the same notes in the same sound: onsets within one period of
/// each other, each note's waveform the live one's. The take without its start state renders in piano
/// instead, which the same comparison tells apart.
extension JACK {
@Suite struct TakeRenderTests {
    @Test func aTakeRendersAsItWasHeard() throws {
        let folder = try makeTemporaryDirectory("backbeat-take-render")
        defer { try? FileManager.default.removeItem(at: folder) }
        let take = folder.appendingPathComponent("take.mid").path
        let live = folder.appendingPathComponent("live.wav").path
        // Four notes 1.5 s apart (each 0.3 s long), at offsets inside their periods that differ.
        let notes: [UInt8] = [60, 64, 67, 72]
        var rate = 0
        var starts: [Int] = []
        let recorded = try HeadlessRecording.recordAll(take: take, ["--patch", "58", "--record-audio", live], waitFor: "recording audio to") { sampleRate in
            rate = sampleRate
            starts = notes.indices.map { 4_801 + $0 * (rate * 3 / 2) + $0 * 37 }
            return zip(notes, starts).flatMap { note, start in [ProbeEvent.noteOn(start, note, 110), .noteOff(start + rate * 3 / 10, note)] }
        }
        let line = recorded.line
        #expect((statusNumber(after: "MIDI ", in: line) ?? 0) >= recorded.sent, "\(line)")
        #expect(recorded.status == 0, "\(recorded.output.joined(separator: "\n"))")

        // The take starts its channel with the program that selects the patch that played.
        let file = try StandardMIDIFile(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: take))))
        let programs = file.tracks.flatMap { $0 }.compactMap { e -> (UInt64, UInt8)? in
            if case .message(.programChange(let p)) = e.event { (e.tick, p.program) } else { nil }
        }
        // GM program 45 (pizzicato strings) plays patch 58 (docs/builtin-programs.md).
        #expect(programs.first.map { $0.0 == 0 && $0.1 == 45 } == true, "\(programs)")

        let rendered = folder.appendingPathComponent("rendered.wav").path
        let render = try run(backbeatExecutable(), ["render", take, "-o", rendered, "--rate", String(rate)])
        #expect(render.status == 0, "\(render.output)")
        // The same take without its start state: what a take that forgot the patch plays (piano, the default).
        let stripped = folder.appendingPathComponent("stripped.mid").path
        let messages: [(seconds: Double, message: MIDIMessage)] = file.timedEvents().compactMap { e in
            if case .message(let m) = e.event, !{ if case .programChange = m { true } else { false } }() { (e.seconds, m) } else { nil }
        }
        try Data(StandardMIDIFile.format0(messages)).write(to: URL(fileURLWithPath: stripped))
        let sine = folder.appendingPathComponent("default.wav").path
        #expect(try run(backbeatExecutable(), ["render", stripped, "-o", sine, "--rate", String(rate)]).status == 0)

        let heard = try WAVFile.read(live).left
        let played = try WAVFile.read(rendered).left
        let forgot = try WAVFile.read(sine).left
        let heardOnsets = AudioAnalysis.onsets(heard, threshold: 1e-3, quietFrames: rate / 2)
        let playedOnsets = AudioAnalysis.onsets(played, threshold: 1e-3, quietFrames: rate / 2)
        try #require(heardOnsets.count == notes.count && playedOnsets.count >= notes.count - 1,
                     "onsets: live \(heardOnsets), render \(playedOnsets)")
        // The render starts at its first note (a take starts at the first event), so the first onset may be at
        // frame 0, which `onsets` does not count after no silence: restore it from the second note.
        let renderedOnsets = playedOnsets.count == notes.count ? playedOnsets : [playedOnsets[0] - (heardOnsets[1] - heardOnsets[0])] + playedOnsets
        // The render's notes are as far apart as they were sent (within one period: the take's 960 ticks per
        // quarter at 120 BPM are 25 frames at 48 kHz), and as far apart as they were heard. The dummy driver
        // has xruns on a loaded machine: a cycle it skips is a period missing from the live recording (not
        // from the MIDI, whose frame times go on), so a heard distance may be short by whole periods then.
        let xruns = statusNumber(after: "xruns ", in: line) ?? 0
        for i in 1..<notes.count {
            let sent = starts[i] - starts[i - 1]
            let rendered = renderedOnsets[i] - renderedOnsets[i - 1]
            let heardDistance = heardOnsets[i] - heardOnsets[i - 1]
            #expect(abs(rendered - sent) <= 256, "note \(i): rendered \(rendered) frames after the last, sent \(sent)")
            let off = rendered - heardDistance
            let wholePeriods = min(abs(off) % 256, 256 - abs(off) % 256) <= 32
            #expect(abs(off) <= 256 || (xruns > 0 && wholePeriods),
                    "note \(i): rendered \(rendered) frames after the last, heard \(heardDistance) (\(xruns) xruns)")
        }
        // Each note's first 100 ms: the rendered waveform is the live one (same patch, same pitch, same level).
        let window = rate / 10
        for i in 1..<notes.count {
            let a = Array(heard[heardOnsets[i]..<min(heardOnsets[i] + window, heard.count)])
            let b = Array(played[renderedOnsets[i]..<min(renderedOnsets[i] + window, played.count)])
            let c = Array(forgot[max(0, renderedOnsets[i] - 200)..<min(renderedOnsets[i] + window, forgot.count)])
            let same = bestCorrelation(a, b, lags: 32)
            let other = bestCorrelation(a, c, lags: 232)
            #expect(same > 0.95, "note \(i): the render is not the live sound (correlation \(same))")
            #expect(other < 0.9 && other < same - 0.05, "note \(i): the default patch would pass too (correlation \(other), same patch \(same))")
            let levels = (AudioAnalysis.rmsDecibels(a[...]), AudioAnalysis.rmsDecibels(b[...]))
            #expect(abs(levels.0 - levels.1) < 1, "note \(i): live \(levels.0) dB, render \(levels.1) dB")
        }
    }

    /// The largest normalized cross-correlation of `a` with `b` shifted by up to `lags` frames either way.
    func bestCorrelation(_ a: [Float], _ b: [Float], lags: Int) -> Double {
        var best = -1.0
        for lag in -lags...lags {
            var ab = 0.0, aa = 0.0, bb = 0.0
            for i in a.indices {
                let j = i + lag
                guard j >= 0 && j < b.count else { continue }
                ab += Double(a[i]) * Double(b[j]); aa += Double(a[i]) * Double(a[i]); bb += Double(b[j]) * Double(b[j])
            }
            if aa > 0 && bb > 0 { best = max(best, ab / (aa * bb).squareRoot()) }
        }
        return best
    }
}
}
