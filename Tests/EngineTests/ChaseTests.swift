// Chase (issue 39, part 3): a song started at bar N (`SongEdit.start`, `--start N` in play and render)
// sounds from there as the same song played from the top sounds from bar N: the same notes with the same
// programs, bend range and bend, volume, and a GS drum part set up mid-song. Measured from the audio, per
// beat, with the send effects off (a reverb tail from before bar N is the one thing a chase cannot bring).
@testable import Engine
import DSP
import Foundation
import MIDI
import Testing
import TestSupport

private enum ChaseFonts {
    static let timGM6mb = "/usr/share/sounds/sf2/TimGM6mb.sf2"
}

struct ChaseTests {
    static let rate = 48_000.0
    /// 480 ticks per quarter at 120 BPM, 4/4: a beat is 0.5 s, a bar 2 s.
    static let beat = 480, bar = 4 * 480

    /// Eight bars. Channel 1: piano, then strings (program 48) from bar 3, its bend range set to 12 semitones
    /// at bar 2 and bent up by 7 semitones at bar 4 (beat 3); its volume lowered at bar 5. Channel 11: a GS
    /// drum part from bar 4 (a melodic part before), its notes the standard kit's from then on. Channel 10:
    /// the kick and snare throughout. Every note ends inside its beat, so nothing sounds across a bar line.
    static func song() throws -> (song: Song, file: StandardMIDIFile) {
        var events: [(tick: Int, bytes: [UInt8])] = [
            (0, [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]), // GS reset
            (0, [0xC0, 0]), (0, [0xCA, 33]),
            (bar, [0xB0, 101, 0]), (bar, [0xB0, 100, 0]), (bar, [0xB0, 6, 12]), (bar, [0xB0, 38, 0]),
            (bar, [0xB0, 101, 127]), (bar, [0xB0, 100, 127]),
            (2 * bar, [0xC0, 48]),
            // GS "use for rhythm part" of part 11 (block A): map 1.
            (3 * bar, [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x1A, 0x15, 0x01, 0x10, 0xF7]),
            (3 * bar + 2 * beat, [0xE0, 0x55, 0x4A]), // +7 of 12 semitones: 8192 + 4779 = 12971
            (4 * bar, [0xB0, 7, 64]),
        ]
        for b in 0..<8 {
            for q in 0..<4 {
                let t = b * bar + q * beat
                let melody: UInt8 = [60, 64, 67, 72][q]
                events += [(t, [0x90, melody, 100]), (t + 300, [0x80, melody, 0])]
                events += [(t, [0x99, q % 2 == 0 ? 36 : 38, 110]), (t + 120, [0x89, q % 2 == 0 ? 36 : 38, 0])]
                events += [(t + 240, [0x9A, 42, 90]), (t + 360, [0x8A, 42, 0])]
            }
        }
        events.sort { $0.tick < $1.tick }
        var track: [UInt8] = [], last = 0
        for event in events {
            track += vlq(event.tick - last)
            if event.bytes[0] == 0xF0 {
                track += [0xF0] + vlq(event.bytes.count - 1) + event.bytes.dropFirst()
            } else {
                track += event.bytes
            }
            last = event.tick
        }
        track += vlq(8 * bar - last) + [0xFF, 0x2F, 0]
        let bytes = SMFEncoder.header(format: 0, tracks: 1, division: .ticksPerQuarterNote(480)) + SMFEncoder.trackChunk(track)
        let file = try StandardMIDIFile(bytes: bytes)
        return (Song(name: "chase.mid", file: file), file)
    }

    static func render(_ song: Song, font: SoundFont?) -> [Float] {
        OfflineRenderer.render(song.messages, sampleRate: rate, voices: 64, soundFont: font, periodFrames: 256,
                               padding: 0, until: song.duration, reverb: false, chorus: false).left
    }

    /// How far apart two beats sound: their levels (dB) and their spectra's shapes (the mean difference in dB of
    /// `AudioComparison.bandEnergies` over the bands within 40 dB of the strongest of either).
    static func distance(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> (level: Double, spectrum: Double) {
        let level = AudioComparison.decibels(AudioComparison.rms(a)) - AudioComparison.decibels(AudioComparison.rms(b))
        let x = AudioComparison.bandEnergies(a, rate: Int(rate), n: 16_384, low: 60, high: 12_000)
        let y = AudioComparison.bandEnergies(b, rate: Int(rate), n: 16_384, low: 60, high: 12_000)
        let bands = x.indices.filter { x[$0] > -40 || y[$0] > -40 }
        let spectrum = bands.reduce(0.0) { $0 + abs(x[$1] - y[$1]) } / Double(max(bands.count, 1))
        return (abs(level), spectrum)
    }

    /// From each bar N, every beat of the song started there against the same beat of the full play: levels
    /// within 1 dB, spectra within 2 dB on average. Without the chase (the state before bar N dropped with
    /// the notes) the beats after the program change, bend and drum part are far apart: the measure can tell.
    static func expectChased(font: SoundFont?) throws {
        let (song, file) = try song()
        let full = render(song, font: font)
        let beatFrames = Int(0.5 * rate)
        func beat(_ audio: [Float], _ index: Int) -> ArraySlice<Float> { audio[(index * beatFrames)..<((index + 1) * beatFrames)] }
        for n in 2...7 {
            var edit = SongEdit()
            edit.start = .bar(n)
            let chased = render(edit.apply(to: song, file: file), font: font)
            for b in 0..<((9 - n) * 4 - 4) {
                let d = distance(beat(full, (n - 1) * 4 + b), beat(chased, b))
                #expect(d.level <= 1 && d.spectrum <= 2, "from bar \(n), beat \(b): \(d.level) dB apart, spectra \(d.spectrum) dB")
            }
        }
        // The same from bar 5 with the state before it left out: strings, bend, volume and drum part lost.
        let from = try #require(file.seconds(atBar: 5))
        let unchased = Song(name: "unchased", messages: song.messages.filter { $0.seconds >= from }.map {
            TimedMessage(seconds: $0.seconds - from, message: $0.message)
        }, duration: song.duration - from)
        let lost = render(unchased, font: font)
        let worst = (0..<8).map { distance(beat(full, 16 + $0), beat(lost, $0)) }.map { max($0.level, $0.spectrum / 2) }.max() ?? 0
        #expect(worst > 2, "without the chase the beats are only \(worst) apart")
    }

    @Test func aSongStartedAtAnyBarSoundsAsItDoesThereFromTheTopBuiltIn() throws {
        try Self.expectChased(font: nil)
    }

    @Test(.needs(file: ChaseFonts.timGM6mb, package: "timgm6mb-soundfont"))
    func aSongStartedAtAnyBarSoundsAsItDoesThereFromTheTopWithAFont() throws {
        try Self.expectChased(font: try SoundFont.load(path: ChaseFonts.timGM6mb))
    }
}

/// A variable-length quantity (SMFEncoder's).
private func vlq(_ value: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    SMFEncoder.appendVLQ(UInt32(value), to: &bytes)
    return bytes
}
