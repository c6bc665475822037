import DSP
import Glibc

// What a region's controllers do to its volume, amplitude and pan while its note sounds (`volume_onccN`,
// `amplitude_onccN`, `pan_onccN`, each through `volume_curveccN`... : one of sfizz's seven predefined curves
// or a `<curve>` of the instrument), as the zone rule's `SampleZoneControllerLevels`.

extension SFZRegion {
    /// The CCs the region's opcodes read (as sfizz counts them when it decides which of its default CC 7, 10
    /// and 11 connections an instrument keeps).
    var controllersUsed: Set<Int> {
        var used = Set(volumeOnCC.keys).union(amplitudeOnCC.keys).union(panOnCC.keys).union(ccCrossfades.keys)
        used.formUnion(ccRanges.filter { $0.value != SFZRange(0, 127) }.keys)
        used.formUnion(cutoffOnCC.keys)
        used.formUnion(resonanceOnCC.keys)
        for eg in [ampEG, filterEG, pitchEG] { for ccs in eg.onCC.values { used.formUnion(ccs.keys) } }
        for lfo in lfos.values { for ccs in lfo.onCC.values { used.formUnion(ccs.keys) } }
        return used
    }

    /// The region's controller levels, its curves taken from `curves` (the instrument's `<curve>`s; a later one
    /// of the same index wins, as it replaces it in sfizz).
    func controllerLevels(curves: [SFZCurve], notes: inout SFZNotes) -> SampleZoneControllerLevels {
        var levels = SampleZoneControllerLevels()
        let targets: [(String, [Int: Double], [Int: Int], UInt8, Double)] = [
            ("volume", volumeOnCC, volumeCurveCC, SampleZoneControllerLevels.volume, 1),
            ("amplitude", amplitudeOnCC, amplitudeCurveCC, SampleZoneControllerLevels.amplitude, 0.01),
            ("pan", panOnCC, panCurveCC, SampleZoneControllerLevels.pan, 1),
        ]
        for (name, amounts, curveIndices, target, scale) in targets {
            for (cc, amount) in amounts.sorted(by: { $0.key < $1.key }) {
                guard cc < 128 else {
                    notes.add("\(name)_onccN above CC 127 (ignored)")
                    continue
                }
                let curve = Self.controllerCurve(curveIndices[cc] ?? 0, curves: curves, notes: &notes)
                if !levels.add(controller: UInt8(cc), target: target, amount: Float(amount * scale), curve: curve) {
                    notes.add("volume_onccN, amplitude_onccN and pan_onccN on more than \(SampleZoneControllerLevels.capacity) CCs (the first \(SampleZoneControllerLevels.capacity))")
                }
            }
        }
        return levels
    }

    /// Curve `index` over a controller's 0...127: sfizz's predefined ones (0 linear, 1 bipolar -1 to 1, 2
    /// inverted, 3 bipolar inverted, 4 x squared, 5 its square root, 6 the square root of 1 - x), else the
    /// instrument's `<curve>` of that index (its points, 0 at 0 and 1 at 127 unless given, straight lines
    /// between), else linear, said.
    static func controllerCurve(_ index: Int, curves: [SFZCurve], notes: inout SFZNotes) -> SampleZoneCurve {
        func sampled(_ f: (Double) -> Double) -> [Int: Double] {
            Dictionary(uniqueKeysWithValues: (0..<SampleZoneCurve.capacity).map { i in
                let x = Int((Double(i) * 127 / Double(SampleZoneCurve.capacity - 1)).rounded())
                return (x, f(Double(x) / 127))
            })
        }
        let points: [Int: Double]
        if let defined = curves.last(where: { $0.index == index }) {
            var given: [Int: Double] = [0: 0, 127: 1]
            for (x, y) in defined.points where (0...127).contains(x) { given[x] = y }
            points = given
        } else {
            switch index {
            case 0: points = [0: 0, 127: 1]
            case 1: points = [0: -1, 127: 1]
            case 2: points = [0: 1, 127: 0]
            case 3: points = [0: 1, 127: -1]
            case 4: points = sampled { $0 * $0 }
            case 5: points = sampled { $0.squareRoot() }
            case 6: points = sampled { (1 - $0).squareRoot() }
            default:
                notes.add("a curve index no <curve> defines (played linear)")
                points = [0: 0, 127: 1]
            }
        }
        return zoneCurve(points, what: "<curve>", notes: &notes)
    }
}
