// `cutoff_onccN` and `resonance_onccN` against `sfizz_render`, in the pattern of SFZAgainstSfizzTests.swift:
// noise through lpf_2p under a held note while the CC moves, each stretch's response in third-octave bands. The
// figures are printed for docs/sfz.md.
import Foundation
import MIDI
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// One note held 3 s with the CC at 0, then 64 from 1 s, then 127 from 2 s: `cutoff_oncc20=2400` on a
    /// 500 Hz cutoff (500 Hz, about 1 kHz, 2 kHz) and `resonance_oncc21=12` on a 1 kHz cutoff (0 dB, 6 dB,
    /// 12 dB). In each stretch every band where sfizz's response is above -20 dB is within 1.5 dB of sfizz's,
    /// and the CC moved the response (the 1 kHz band by more than 6 dB between the first and last stretches).
    @Test func filterControllersMatchSfizz() throws {
        let note = S.Note(key: 60, velocity: 127, start: 0.1, end: 3.0)
        let centres: [Double] = [250, 500, 800, 1000, 1250, 2000, 4000]
        let stretches: [(value: UInt8, from: Double, to: Double)] = [(0, 0.3, 0.95), (64, 1.15, 1.95), (127, 2.15, 2.95)]
        let base = "<region> sample=noise.wav pitch_keytrack=0 loop_mode=loop_continuous"
        for (name, cc, opcodes) in [("cutoff", UInt8(20), "cutoff=500 cutoff_oncc20=2400"), ("resonance", UInt8(21), "cutoff=1000 resonance_oncc21=12")] {
            let extra: [(seconds: Double, message: MIDIMessage)] = stretches.map {
                ($0.from - 0.15, .controlChange(.init(channel: 0, controller: cc, value: $0.value)))
            }
            let open = try S.render("filcc-open-\(name)", sfz: base, notes: [note], extra: extra)
            let filtered = try S.render("filcc-\(name)", sfz: "\(base) \(opcodes)", notes: [note], extra: extra)
            var moved: [Double] = []
            for stretch in stretches {
                let ours = Self.compareResponses("\(opcodes) CC\(cc) \(stretch.value)", filtered: filtered, open: open,
                                                 from: stretch.from, to: stretch.to, centres: centres)
                moved.append(ours[3])
            }
            #expect(abs(moved[2] - moved[0]) > 6, "\(opcodes): the 1 kHz band did not follow CC\(cc): \(moved)")
        }
    }
}
