// Portamento, in both kinds of voice: a note glides in pitch from an earlier key to its own, a ramp linear in
// cents (exponential in frequency) that starts at the note's frame. The time law is FluidSynth's
// (fluid_synth.c, fluid_voice.c): the glide takes CC5 x 128 + CC37 milliseconds, whatever the interval.
// - CC65 on: in poly mode each note glides from the channel's last note-on key; in mono mode only a note
//   played legato (a key still down) glides, as GM2's and FluidSynth's legato mode do: a detached note starts
//   at its own pitch.
// - CC84 (portamento control) key: the next note glides from that key, CC65 on or off; used once.
// - No glide when the time is 0, or the note is its origin.
// The glide lives in the voice slot (`VoiceSlots.glide`, cents from the note's own pitch, moving to 0 by
// `glideStep` a sample): the built-in voices ramp their phase steps with it (Synth+VoiceGroup.swift), the
// sample voices add it to their pitch at each control block (Synth+SampleGroup.swift).

import MIDI

extension Synth {
    /// Sets voice `v`, just started on `ch` for `note`, gliding as the channel's portamento says. Call
    /// `notePlayed` once after all of a note's voices started.
    @_noLocks @inline(__always)
    func startGlide(_ v: Int, channel ch: Int, note: UInt8) {
        let from = glideOrigin(channel: ch)
        let time = controls.channels[ch].portamento[Portamento.time]
        guard from >= 0, time > 0, sampleRate > 0 else { return }
        // In mono mode a new voice is a detached note (no key was down): only a CC84 key makes it glide.
        if isMono(ch), controls.channels[ch].portamento[Portamento.from] < 0 { return }
        let cents = Float(Int(from) - Int(note)) * 100
        guard cents != 0 else { return }
        voices.glide[v] = cents
        voices.glideStep[v] = abs(cents) / (Float(time) * 0.001 * Float(sampleRate))
    }

    /// The key a note on `ch` glides from now, -1 for none.
    @_noLocks @inline(__always)
    func glideOrigin(channel ch: Int) -> Int32 {
        let portamento = controls.channels[ch].portamento
        if portamento[Portamento.from] >= 0 { return portamento[Portamento.from] }
        return portamento[Portamento.on] != 0 ? portamento[Portamento.lastNote] : -1
    }

    /// A note-on on `ch` has started its voices: it is the key the next glide starts from; a CC84 key is used.
    @_noLocks @inline(__always)
    func notePlayed(channel ch: Int, note: UInt8) {
        controls.channels[ch].portamento[Portamento.lastNote] = Int32(note)
        controls.channels[ch].portamento[Portamento.from] = -1
    }

    /// Portamento controllers (CC5, CC37, CC65, CC84).
    @_noLocks
    func portamentoControl(channel ch: Int, controller: Controller, value: UInt8) {
        let v = Int32(value & 0x7F)
        switch controller.rawValue {
        case 5: controls.channels[ch].portamento[Portamento.time] = v << 7 // the MSB resets the LSB
        case 37: controls.channels[ch].portamento[Portamento.time] &= ~0x7F; controls.channels[ch].portamento[Portamento.time] |= v
        case 65: controls.channels[ch].portamento[Portamento.on] = value >= 64 ? 1 : 0
        case 84: controls.channels[ch].portamento[Portamento.from] = v
        default: break
        }
    }
}
