import DSP
import MIDI
import Testing
import TestSupport
@testable import SFZ

/// `group`/`off_by`, `polyphony` and `note_polyphony`: the limits the translation gives each zone, and the voices
/// the synth ends by them (the regions are `*sine` at different keys, so each pitch names a note).
@Suite struct SFZVoiceLimitTests {
    private func font(_ text: String) throws -> SoundFont {
        let sfz = try writeInstrument(text, in: try temporaryFolder()).soundFont()
        return sfz.font.pinning([0: sfz.channelPresetKeys[0]], played: 1)
    }

    /// The level (dB against the pitch's strongest window) of each of `pitches` in 0.1 s windows from each of
    /// `starts` (seconds) of the left channel of `events` (seconds, message) played for `seconds`.
    private func levels(_ font: SoundFont, seconds: Double, _ events: [(Double, ShortMessage)], starts: [Double], pitches: [Double]) -> [[Double]] {
        let out = renderFont(font, seconds: seconds, events.map { (Int($0.0 * 48_000), $0.1) }).left
        let raw = starts.map { start in
            pitches.map { AudioComparison.magnitude(out[Int(start * 48_000)..<Int((start + 0.1) * 48_000)], at: $0, rate: 48_000) }
        }
        let peaks = pitches.indices.map { p in raw.map { $0[p] }.max() ?? 0 }
        return raw.map { row in row.indices.map { AudioComparison.decibels(row[$0] / max(peaks[$0], 1e-12)) } }
    }

    private func sounding(_ levels: [[Double]]) -> [[Bool]] { levels.map { $0.map { $0 > -20 } } }

    @Test func limitsAreNumberedPerInstrument() throws {
        let instrument = try writeInstrument("""
            <group> group=7 off_by=-3 polyphony=2
            <region> key=60 sample=*sine
            <group> group=-3 off_by=99 note_polyphony=1
            <region> key=62 sample=*sine
            <group> polyphony=3
            <region> key=64 sample=*sine
            <region> key=65 sample=*sine polyphony=1
            """, in: try temporaryFolder())
        let limits = instrument.voiceLimits()
        #expect(limits.map(\.group) == [0, 1, 2, 2])
        // off_by=99 names no group: it turns nothing off.
        #expect(limits.map(\.offBy) == [1, -1, -1, -1])
        #expect(limits.map(\.cuts) == [false, true, false, false])
        #expect(limits.map(\.regionPolyphony) == [2, .max, 3, 1])
        #expect(limits.map(\.groupPolyphony) == [2, .max, .max, .max])
        #expect(limits.map(\.notePolyphony) == [.max, 1, .max, .max])
        // The <group> without group= limits its two regions together.
        #expect(limits[2].set == limits[3].set && limits[2].set >= 0 && limits[2].setPolyphony == 3 && limits[3].setPolyphony == 3)
        #expect(limits[0].setPolyphony == .max)
        let plain = try writeInstrument("<group> group=1\n<region> key=60 sample=*sine", in: try temporaryFolder())
        #expect(plain.voiceLimits() == [SampleZoneLimits()], "no limit opcode: no rule")
    }

    @Test func offTimeAloneIsTheTimeMode() throws {
        let sfz = try writeInstrument("<group> group=1 off_by=1\n<region> key=60 sample=*sine off_time=0.2\n"
                                      + "<region> key=61 sample=*sine off_time=0.2 off_mode=normal", in: try temporaryFolder()).soundFont()
        #expect(sfz.font.zoneRules[0].offMode == SampleZoneRule.offTime && abs(sfz.font.zoneRules[0].offTime - 0.2) < 1e-6)
        #expect(sfz.font.zoneRules[1].offMode == SampleZoneRule.offNormal)
    }

    @Test func offByEndsAnotherGroupsVoices() throws {
        let f = try font("""
            <group> group=1 off_by=2
            <region> key=69 sample=*sine
            <group> group=2
            <region> key=72 sample=*sine
            <group> group=3
            <region> key=76 sample=*sine
            """)
        let heard = levels(f, seconds: 1.2, [(0.0, .noteOn(69, velocity: 100)), (0.3, .noteOn(76, velocity: 100)),
                                              (0.6, .noteOn(72, velocity: 100)), (0.9, .noteOn(69, velocity: 100))],
                           starts: [0.15, 0.45, 0.75, 1.05], pitches: [440, 523.25, 659.26])
        // Group 3's note leaves A4; group 2's ends it; A4 again ends nothing (no group is off_by 1).
        #expect(sounding(heard) == [[true, false, false], [true, false, true], [false, true, true], [true, true, true]], "\(heard)")
    }

    @Test func polyphonyEndsTheOldestAndCountsReleasedVoices() throws {
        let f = try font("<region> lokey=60 hikey=80 sample=*sine polyphony=2 ampeg_release=2")
        let heard = levels(f, seconds: 1.0, [(0.0, .noteOn(60, velocity: 100)), (0.2, .noteOff(60)), (0.3, .noteOn(64, velocity: 100)),
                                              (0.6, .noteOn(67, velocity: 100))],
                           starts: [0.4, 0.8], pitches: [261.63, 329.63, 392])
        // C4, released, still rings (one of two) until G4 makes three: then it is the oldest.
        #expect(sounding(heard) == [[true, true, false], [false, true, true]], "\(heard)")
    }

    @Test func notePolyphonyEndsSofterVoicesOfTheKey() throws {
        let f = try font("""
            <group> group=1 note_polyphony=1 ampeg_release=3
            <region> key=69 hivel=80 sample=*sine
            <region> key=69 lovel=81 sample=*sine transpose=7
            """)
        let heard = levels(f, seconds: 1.0, [(0.0, .noteOn(69, velocity: 60)), (0.2, .noteOff(69)), (0.3, .noteOn(69, velocity: 100)),
                                              (0.5, .noteOff(69)), (0.6, .noteOn(69, velocity: 60))],
                           starts: [0.1, 0.4, 0.8], pitches: [440, 659.26])
        #expect(sounding(heard) == [[true, false], [false, true], [true, true]], "\(heard)")
    }
}
