import DSP
import Glibc

// A region's LFOs on the two a SoundFont voice has: the vibrato LFO (to the pitch only) and the modulation LFO
// (to the pitch, the cutoff and the volume). The v1 LFOs take them first (`pitchlfo_` the vibrato LFO,
// `amplfo_` and `fillfo_` the modulation LFO, sharing amplfo's rate), then the v2 `lfoN_` in N's order: one
// that moves only the pitch takes the vibrato LFO if it is free, else the modulation LFO; one left without an
// LFO is said. The triangle and the sine play (sfizz's v1 LFOs are sines, its v2 default the triangle); other
// waves play as the triangle, said. Depths in dB and cents are SF2's in centibels and cents; a CC's share
// (`lfoN_volume_onccN`...) is an SF2 modulator from the CC to that depth, followed while the note sounds.

/// One of the voice's LFOs as a region uses it.
struct SFZLFOUse: Equatable {
    var frequency = 0.0, delay = 0.0
    var sine = false
    /// Depths: volume in dB, pitch and cutoff in cents, and the CCs' shares of each (amount at CC 127).
    var volume = 0.0, pitch = 0.0, cutoff = 0.0
    var volumeOnCC: [Int: Double] = [:], pitchOnCC: [Int: Double] = [:], cutoffOnCC: [Int: Double] = [:]

    /// The most the volume swings above the region's level, dB: its depth and every CC's share at full.
    var volumeReach: Double { abs(volume) + volumeOnCC.values.reduce(0) { $0 + abs($1) } }
}

/// What a region's LFOs come to: the voice's two, and what could not play.
struct SFZLFOPlan: Equatable {
    var vibrato: SFZLFOUse?
    var modulation: SFZLFOUse?
    var notes: [String] = []
}

extension SFZRegion {
    /// The region's LFOs as the voice's two (see the file's head).
    var lfoPlan: SFZLFOPlan {
        var plan = SFZLFOPlan()
        if pitchLFO.depth != 0 && pitchLFO.frequency > 0 {
            plan.vibrato = SFZLFOUse(frequency: pitchLFO.frequency, delay: pitchLFO.delay, sine: true, pitch: pitchLFO.depth)
        }
        let shared = ampLFO.depth != 0 && ampLFO.frequency > 0 ? ampLFO : filterLFO
        if shared.frequency > 0 && (ampLFO.depth != 0 || filterLFO.depth != 0) {
            plan.modulation = SFZLFOUse(frequency: shared.frequency, delay: shared.delay, sine: true,
                                        volume: ampLFO.depth, cutoff: filterLFO.depth)
            if ampLFO.depth != 0 && filterLFO.depth != 0 && ampLFO.frequency != filterLFO.frequency {
                plan.notes.append("amplfo_ and fillfo_ at different rates (both at amplfo's)")
            }
        }
        for (n, lfo) in lfos.sorted(by: { $0.key < $1.key }) {
            let played: [SFZLFOv2.Target] = [.volume, .pitch, .cutoff]
            guard played.contains(where: lfo.moves) else {
                if lfo.moves(.amplitude) || lfo.moves(.pan) { plan.notes.append("lfoN_amplitude and lfoN_pan (not played)") }
                continue
            }
            var use = SFZLFOUse(frequency: lfo.frequency, delay: lfo.delay, sine: lfo.wave == 1,
                                volume: lfo.volume, pitch: lfo.pitch, cutoff: lfo.cutoff,
                                volumeOnCC: (lfo.onCC[.volume] ?? [:]).filter { $0.key < 128 },
                                pitchOnCC: (lfo.onCC[.pitch] ?? [:]).filter { $0.key < 128 },
                                cutoffOnCC: (lfo.onCC[.cutoff] ?? [:]).filter { $0.key < 128 })
            if lfo.wave > 1 { plan.notes.append("lfoN_wave other than 0 and 1 (played as the triangle)") }
            if lfo.fade > 0 { plan.notes.append("lfoN_fade (left out: the LFO starts at full depth after its delay)") }
            if lfo.phase != 0 { plan.notes.append("lfoN_phase (left out: the LFO starts at 0, rising)") }
            if lfo.moves(.amplitude) || lfo.moves(.pan) { plan.notes.append("lfoN_amplitude and lfoN_pan (not played)") }
            if lfo.onCC.values.contains(where: { $0.keys.contains { $0 >= 128 } }) { plan.notes.append("lfoN_*_onccN above CC 127 (ignored)") }
            let pitchOnly = !lfo.moves(.volume) && !lfo.moves(.cutoff)
            if pitchOnly && plan.vibrato == nil {
                plan.vibrato = use
            } else if plan.modulation == nil {
                plan.modulation = use
            } else {
                use = SFZLFOUse()
                plan.notes.append("lfo\(n)_: a third LFO (a voice has two; left out)")
            }
        }
        return plan
    }

    /// The LFOs' generators in `zone`; the volume's reach is lifted out of SF2's attenuation floor (the
    /// zone's attenuation raised by it, its gain by as much) so the swing above the region's level sounds.
    func applyLFOs(_ plan: SFZLFOPlan, to zone: inout SoundFontZone) {
        typealias G = SoundFontGenerator
        if let lfo = plan.vibrato {
            zone.generators[G.freqVibLFO] = Self.absoluteCents(lfo.frequency)
            zone.generators[G.delayVibLFO] = Self.timecents(lfo.delay)
            zone.generators[G.vibLFOToPitch] = Int32(lfo.pitch.rounded())
        }
        if let lfo = plan.modulation {
            zone.generators[G.freqModLFO] = Self.absoluteCents(lfo.frequency)
            zone.generators[G.delayModLFO] = Self.timecents(lfo.delay)
            zone.generators[G.modLFOToPitch] = Int32(lfo.pitch.rounded())
            zone.generators[G.modLFOToFilterFc] = Int32(lfo.cutoff.rounded())
            // Centibels, positive where the LFO's +1 is louder (SF2's sign).
            zone.generators[G.modLFOToVolume] = Int32((10 * lfo.volume).rounded())
            let reach = min(lfo.volumeReach, 96)
            if reach > 0 {
                // The generator is read at 0.4 of its value (SFZRegion.zone).
                zone.generators[G.initialAttenuation] += Int32((10 * reach / 0.4).rounded())
                zone.gain *= Float(pow(10, reach / 20))
            }
        }
    }

    /// The LFOs' shapes as the zone's note-on rule says them (`SampleZoneRule.sineLFOs`).
    static func sineLFOs(_ plan: SFZLFOPlan) -> UInt8 {
        (plan.modulation?.sine == true ? SampleZoneRule.sineModulationLFO : 0) | (plan.vibrato?.sine == true ? SampleZoneRule.sineVibratoLFO : 0)
    }
}
