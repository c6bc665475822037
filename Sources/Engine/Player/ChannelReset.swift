import MIDI

/// What the songs played so far changed in each channel, so that a reset puts back exactly that (a fresh
/// render's state) and no more: a seek or the next file then sounds as a play from a fresh synth, and the MIDI
/// monitor and `midi_out` carry a few messages per channel the song used, not every reset on all 16.
struct ChannelReset {
    /// Controllers a song set, per channel (two 64-bit words of 128 bits).
    private var controllers = [(UInt64, UInt64)](repeating: (0, 0), count: 16)
    private var programs: UInt16 = 0
    private var used: UInt16 = 0
    /// A song sent system exclusive (a rhythm part, a tuning, master volume): the reset starts with a GS Reset.
    private(set) var system = false

    mutating func add(_ song: Song) {
        for timed in song.messages {
            let message = timed.message
            if message.isSystemExclusive { system = true; continue }
            guard message.status < 0xF0 else { continue }
            let ch = Int(message.channel)
            used |= 1 << ch
            switch message.kind {
            case .controlChange:
                let c = message.data1 & 0x7F
                if c < 64 { controllers[ch].0 |= 1 << UInt64(c) } else { controllers[ch].1 |= 1 << UInt64(c - 64) }
            case .programChange: programs |= 1 << ch
            default: break
            }
        }
    }

    private func touched(_ ch: Int, _ c: UInt8) -> Bool {
        c < 64 ? controllers[ch].0 & (1 << UInt64(c)) != 0 : controllers[ch].1 & (1 << UInt64(c - 64)) != 0
    }

    /// The messages (status with its channel, data 1, data 2) that put every channel a song used as a fresh synth
    /// has it: notes released, controllers reset (CC 121: bend, pressure, modulation, pedals, expression), and
    /// what the songs set beyond that back to its power-on value: bank 0 program 0, volume 100, pan and balance
    /// centred, sound controllers centred, effect sends 0, bend range 2 semitones and tunings centred with no
    /// parameter number selected, poly mode.
    var messages: [(UInt8, UInt8, UInt8)] {
        var out: [(UInt8, UInt8, UInt8)] = []
        for ch in 0..<16 where used & (1 << ch) != 0 {
            let cc = 0xB0 | UInt8(ch)
            out += [(cc, 123, 0), (cc, 121, 0)]
            if programs & (1 << ch) != 0 || touched(ch, 0) || touched(ch, 32) { out += [(cc, 0, 0), (cc, 32, 0), (0xC0 | UInt8(ch), 0, 0)] }
            if [6, 38, 96, 97, 98, 99, 100, 101].contains(where: { touched(ch, $0) }) {
                out += [(cc, 101, 0), (cc, 100, 0), (cc, 6, 2), (cc, 38, 0),   // RPN 0: bend range 2 semitones
                        (cc, 100, 1), (cc, 6, 64), (cc, 38, 0),                 // RPN 1: fine tuning centred
                        (cc, 100, 2), (cc, 6, 64),                              // RPN 2: coarse tuning centred
                        (cc, 101, 127), (cc, 100, 127)]
            }
            if touched(ch, 126) || touched(ch, 127) { out.append((cc, 127, 0)) }
            for c in UInt8(0)..<120 where touched(ch, c) && !Self.handled.contains(c) {
                out.append((cc, c, c == 7 ? 100 : c == 8 || c == 10 || (70...79).contains(c) ? 64 : 0))
            }
        }
        return out
    }

    /// Controllers the lines above (or CC 121) put back.
    private static let handled: Set<UInt8> = [0, 32, 1, 11, 64, 65, 66, 67, 6, 38, 96, 97, 98, 99, 100, 101]
}
