import DSP
import MIDI
import Testing
import TestSupport
@testable import SFZ

/// The note-on choices of SFZ regions (round robins, key switches, random layers, CC ranges, release
/// triggers), played by the sample voices: each note's pitch says which region it played (the regions are
/// `*sine` at different transpositions).
@Suite struct SFZNoteRuleTests {
    /// The instrument `text` pinned to channel 1.
    private func font(_ text: String) throws -> SoundFont {
        let sfz = try writeInstrument(text, in: try temporaryFolder()).soundFont()
        return sfz.font.pinning([0: sfz.channelPresetKeys[0]], played: 1)
    }

    /// Plays `messages` at 0.25 s steps (each note 0.2 s long, key 69) and returns, per note, the frequency
    /// (220...1800 Hz) of its strongest component, or 0 when the note is silent.
    private func pitches(_ font: SoundFont, _ steps: [[ShortMessage]]) -> [Double] {
        var events: [(Int, ShortMessage)] = []
        for (i, messages) in steps.enumerated() { for m in messages { events.append((i * 12_000, m)) } }
        let out = renderFont(font, seconds: Double(steps.count) * 0.25 + 0.1, events)
        return steps.indices.compactMap { i -> Double? in
            guard steps[i].contains(where: { $0.kind == .noteOn }) else { return nil }
            let part = out.left[(i * 12_000 + 1_200)..<(i * 12_000 + 9_600)]
            if AudioComparison.rms(part) < 1e-4 { return 0 }
            return AudioComparison.strongestFrequency(part, rate: 48_000, low: 200, high: 1_800, resolution: 0.5).frequency
        }
    }

    private func note(_ key: UInt8 = 69) -> [ShortMessage] { [.noteOn(key, velocity: 100)] }
    private func near(_ measured: [Double], _ expected: [Double]) -> Bool {
        measured.count == expected.count && zip(measured, expected).allSatisfy { $1 == 0 ? $0 == 0 : abs(cents($0, $1)) < 5 }
    }

    @Test func roundRobinsTakeTurns() throws {
        let f = try font("""
            <group> seq_length=3 ampeg_release=0.01
            <region> seq_position=1 sample=*sine
            <region> seq_position=2 sample=*sine transpose=12
            <region> seq_position=3 sample=*sine transpose=7
            """)
        let heard = pitches(f, [note(), [.noteOff(69)], note(), [.noteOff(69)], note(), [.noteOff(69)], note()])
        #expect(near(heard, [440, 880, 659.26, 440]), "\(heard)")
    }

    @Test func keySwitchesChooseTheLayer() throws {
        let f = try font("""
            <global> sw_lokey=24 sw_hikey=25 sw_default=24 ampeg_release=0.01
            <region> sw_last=24 lokey=60 hikey=80 sample=*sine
            <region> sw_last=25 lokey=60 hikey=80 sample=*sine transpose=12
            """)
        let heard = pitches(f, [note(), [.noteOff(69), .noteOn(25, velocity: 100)], [.noteOff(25)] + note(), [.noteOff(69), .noteOn(24, velocity: 1)], [.noteOff(24)] + note()])
        // The switch keys sound nothing (no region maps them).
        #expect(near(heard, [440, 0, 880, 0, 440]), "\(heard)")
    }

    @Test func controllerRangesChooseTheLayer() throws {
        let f = try font("""
            <group> ampeg_release=0.01
            <region> locc1=0 hicc1=63 sample=*sine
            <region> locc1=64 hicc1=127 sample=*sine transpose=12
            """)
        // CC1, which in an SF2 font would also bring vibrato (not in SFZ: the pitch stays within 5 cents).
        let heard = pitches(f, [note(), [.noteOff(69), .controlChange(.modulationWheel, value: 100)], note()])
        #expect(near(heard, [440, 880]), "\(heard)")
    }

    @Test func randomLayersEachPlayAndNeverTogether() throws {
        let f = try font("""
            <group> ampeg_release=0.01
            <region> lorand=0 hirand=0.5 sample=*sine
            <region> lorand=0.5 hirand=1 sample=*sine transpose=12
            """)
        var steps: [[ShortMessage]] = []
        for _ in 0..<16 { steps += [note(), [.noteOff(69)]] }
        let heard = pitches(f, steps)
        let low = heard.filter { abs(cents($0, 440)) < 5 }.count, high = heard.filter { abs(cents($0, 880)) < 5 }.count
        #expect(low + high == 16 && low > 0 && high > 0, "\(heard)")
    }

    /// A release region sounds from the note-off, at the note-on's velocity; nothing plays before it.
    @Test func releaseTriggerStartsAtTheNoteOff() throws {
        let f = try font("""
            <region> sample=*sine ampeg_release=0.01
            <region> trigger=release sample=*sine transpose=12 ampeg_release=0.01 loop_mode=no_loop
            """)
        let out = renderFont(f, seconds: 0.6, [(0, .noteOn(69, velocity: 100)), (14_400, .noteOff(69))])
        let held = out.left[2_400..<12_000], after = out.left[16_800..<24_000]
        #expect(AudioComparison.magnitude(held, at: 880, rate: 48_000) < 0.01 * AudioComparison.magnitude(held, at: 440, rate: 48_000))
        #expect(abs(cents(AudioComparison.strongestFrequency(after, rate: 48_000, low: 300, high: 1_000).frequency, 880)) < 5)
    }
}
