// Polyphonic key pressure in the built-in synth: the vibrato of the voices of the pressed key, as channel
// pressure deepens the channel's (50 cents at full, SoundFont 2.01's default for channel pressure, here per key).
// The voices read their channel's vibrato LFO (`RenderScratch.vibrato`, written while a key of the channel has
// pressure) and move from the depth they had at the end of the last slice to their key's, in a line over the
// slice, so a pressure change does not click. A channel whose keys have no pressure renders as it did before.

/// A group's key-pressure vibrato, lane by lane: the depth in semitones at the slice's first sample and its
/// step per sample. Lanes without pressure have 0 and 0, so their pitch ratio is multiplied by exactly 1.
struct KeyVibratoLanes {
    var depths = Lanes()
    var steps = Lanes()
    var isOn = false

    @_noLocks @inline(__always)
    init() {}

    /// Each lane's pitch ratio from its key's vibrato at sample `n` of the slice (1 where it has none).
    @_noLocks @inline(__always)
    func ratios(at n: Int, lfoRows: UnsafeMutablePointer<Float>, channelOffsets: SIMD8<Int32>, count: Int) -> Lanes {
        var lfo = Lanes()
        for l in 0..<count { lfo[l] = lfoRows[Int(channelOffsets[l]) &+ n] }
        return exp2Lanes((depths + steps * Float(n)) * lfo * (1.0 / 12))
    }
}

/// The key vibrato's constants: semitones per step of key pressure (0.5 at 127), and the highest pitch ratio it
/// adds (half a semitone up).
enum KeyVibrato {
    static var perStep: Float { @_noLocks get { 0.5 / 127 } }
    static var highest: Float { @_noLocks get { 1.029_302_2 } }
}

extension Synth {
    /// Whether channel `ch`'s voices read a key vibrato this slice: one of its keys has pressure now, or had it in
    /// the last slice (its voices' depths move back to 0 in this one). Remembers which for the next slice.
    @_noLocks @inline(__always)
    func updateKeyVibrato(_ ch: Int) -> Bool {
        let words = UnsafeRawPointer(controls.midi.keyPressure + ch &* 128).assumingMemoryBound(to: UInt64.self)
        var any: UInt64 = 0
        for i in 0..<16 { any |= words[i] }
        let pressed = any != 0
        var on = pressed
        if controls.channels[ch].vibrato.keysPressed { on = true } // not `||`: its closure would capture self
        controls.channels[ch].vibrato.keysPressed = pressed
        controls.channels[ch].vibrato.keyVibrato = on
        return on
    }

    /// Lane `l`'s key vibrato for voice `v` over this slice: from the depth it ended the last slice with to its
    /// key's pressure now, which it keeps for the next.
    @_noLocks @inline(__always)
    func gatherKeyVibrato(_ v: Int, channel ch: Int, lane l: Int, frames: Int, into keys: inout KeyVibratoLanes) {
        let target = Float(controls.midi.keyPressure[ch &* 128 &+ Int(voices.note[v])]) * KeyVibrato.perStep
        let from = builtIn.slots.keyVibrato[v]
        keys.depths[l] = from
        keys.steps[l] = (target - from) / Float(frames)
        builtIn.slots.keyVibrato[v] = target
        keys.isOn = true
    }
}
