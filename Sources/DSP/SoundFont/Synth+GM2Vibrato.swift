// GM2's modulation-wheel vibrato on the SoundFont voices. RPN 5 (modulation depth range) is a GM2 message: a
// file that sends it is written for a GM2 module, whose wheel vibrato is a smooth swing a few times a second
// to the depth RPN 5 sets, as the built-in synth plays it (a 5.5 Hz sine). A SoundFont's wheel vibrato rides
// the preset's vibrato LFO, a triangle at the font's rate (8.2 Hz unless the preset says otherwise): its depth
// is the one asked, but a pitch tracker with a window of a few tens of milliseconds reads its sharp peaks
// about a fifth low. So after RPN 5 on a channel, a note whose preset has no vibrato of its own (its
// vibLFOToPitch generator 0: the LFO only carries the wheel's and channel pressure's modulators) plays its
// vibrato LFO as the built-in synth's: a sine at 5.5 Hz, with the same depth. A preset with its own vibrato
// keeps its LFO; a channel that never received RPN 5 plays SoundFont 2.04's triangle, as FluidSynth does.
// A reset (GM, GS, XG) forgets RPN 5.

/// The sine for a triangle LFO's value `t` (-1...1, linear in the phase in each quarter): sin(pi t / 2),
/// a polynomial to 4e-6.
@_noLocks @inline(__always)
func sineOfTriangle(_ t: Lanes) -> Lanes {
    let x = t * 1.570_796_3, x2 = x * x
    let c3: Float = -1.0 / 6, c5: Float = 1.0 / 120, c7: Float = -1.0 / 5040, c9: Float = 1.0 / 362_880
    return x * (1 + x2 * (c3 + x2 * (c5 + x2 * (c7 + x2 * c9))))
}

extension Synth {
    /// A note's vibrato LFO on channel `ch` as GM2's (see above) when RPN 5 was received there and the zone has
    /// no vibrato of its own: a sine at the built-in synth's vibrato rate, its delay kept.
    @_noLocks @inline(__always)
    func useGM2Vibrato(_ lfo: inout SampleLFO, zone: SoundFontZone, channel ch: Int) {
        guard controls.channels[ch].vibrato.gm2, zone.generators[SoundFontGenerator.vibLFOToPitch] == 0 else { return }
        lfo.increment = rates.lfoIncrement
        lfo.isSine = true
    }
}
