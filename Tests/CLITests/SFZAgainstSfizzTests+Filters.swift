// The filter types (`fil_type`) against `sfizz_render`, in the pattern of SFZAgainstSfizzTests.swift: white
// noise through each type, its response (each player's filtered noise against its own unfiltered noise) in
// third-octave bands around the cutoff. The figures are printed for docs/sfz.md.
import Foundation
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// Energies (dB) of the third-octave bands centred on `centres`, from Hann-windowed power spectra of
    /// 8192 samples averaged over `samples` (half-overlapping): steady enough for noise.
    static func thirdOctaves(_ samples: ArraySlice<Float>, centres: [Double], rate: Int) -> [Double] {
        let n = 8192
        var power = [Double](repeating: 0, count: n / 2 + 1)
        var start = samples.startIndex
        while start + n <= samples.endIndex {
            for (i, p) in AudioComparison.powerSpectrum(samples[start..<start + n], n: n).enumerated() { power[i] += p }
            start += n / 2
        }
        let binWidth = Double(rate) / Double(n)
        return centres.map { centre in
            let low = centre / pow(2, 1.0 / 6), high = centre * pow(2, 1.0 / 6)
            let energy = power.indices.filter { Double($0) * binWidth >= low && Double($0) * binWidth < high }.reduce(0.0) { $0 + power[$1] }
            return 10 * log10(max(energy, 1e-30))
        }
    }

    /// Each player's response (`filtered` against its own `open` render) from `from` to `to` seconds in the
    /// third-octave bands at `centres`, printed as "sfz `label` (backbeat/sfizz dB): ..."; expects every band
    /// where sfizz's is above -20 dB within 1.5 dB of sfizz's, and returns Backbeat's.
    static func compareResponses(_ label: String, filtered: (ours: [Float], theirs: [Float]), open: (ours: [Float], theirs: [Float]),
                                 from: Double, to: Double, centres: [Double]) -> [Double] {
        func bands(_ s: [Float]) -> [Double] {
            thirdOctaves(AudioComparison.slice(s, from: from, to: to, rate: S.rate), centres: centres, rate: S.rate)
        }
        let ours = zip(bands(filtered.ours), bands(open.ours)).map { $0 - $1 }
        let theirs = zip(bands(filtered.theirs), bands(open.theirs)).map { $0 - $1 }
        let rows = centres.indices.map { String(format: "%.0f Hz %.1f/%.1f", centres[$0], ours[$0], theirs[$0]) }
        print("sfz \(label) (backbeat/sfizz dB): " + rows.joined(separator: ", "))
        for i in centres.indices where theirs[i] > -20 {
            #expect(abs(ours[i] - theirs[i]) < 1.5, "\(label) at \(centres[i]) Hz: backbeat \(ours[i]) dB, sfizz \(theirs[i]) dB")
        }
        return ours
    }

    /// lpf_1p, lpf_2p, hpf_1p, hpf_2p, bpf_2p and brf_2p at 1 kHz, the 2-pole ones also with 6 dB of
    /// resonance: in every third-octave band from 250 Hz to 4 kHz where sfizz's response is above -20 dB,
    /// Backbeat's is within 1.5 dB of it.
    @Test func filterTypesMatchSfizz() throws {
        let note = S.Note(key: 60, velocity: 127, start: 0.1, end: 1.9)
        let centres: [Double] = [250, 400, 630, 800, 1000, 1250, 1600, 2500, 4000]
        func bands(_ name: String, _ opcodes: String) throws -> (ours: [Double], theirs: [Double]) {
            let (ours, theirs) = try S.render("filter-\(name)", sfz: "<region> sample=noise.wav pitch_keycenter=60 \(opcodes)", notes: [note])
            func measured(_ s: [Float]) -> [Double] {
                Self.thirdOctaves(AudioComparison.slice(s, from: 0.3, to: 1.8, rate: S.rate), centres: centres, rate: S.rate)
            }
            return (measured(ours), measured(theirs))
        }
        let open = try bands("open", "")
        for (type, resonance) in [("lpf_2p", 0), ("lpf_2p", 6), ("lpf_1p", 0), ("hpf_1p", 0), ("hpf_2p", 0), ("hpf_2p", 6),
                                  ("bpf_2p", 0), ("bpf_2p", 6), ("brf_2p", 0)] {
            let filtered = try bands("\(type)-\(resonance)", "fil_type=\(type) cutoff=1000 resonance=\(resonance)")
            let ours = zip(filtered.ours, open.ours).map { $0 - $1 }, theirs = zip(filtered.theirs, open.theirs).map { $0 - $1 }
            let rows = centres.indices.map { String(format: "%.0f Hz %.1f/%.1f", centres[$0], ours[$0], theirs[$0]) }
            print("sfz filter \(type) resonance \(resonance) (backbeat/sfizz dB): " + rows.joined(separator: ", "))
            for i in centres.indices where theirs[i] > -20 {
                #expect(abs(ours[i] - theirs[i]) < 1.5, "\(type) resonance \(resonance) at \(centres[i]) Hz: backbeat \(ours[i]) dB, sfizz \(theirs[i]) dB")
            }
        }
    }
}
