// GM2 Global Parameter Control (Universal Real Time 7F <device> 04 05) for the reverb and chorus slots: the
// effect types and their parameters, in the units GM2 (RP-024) gives. Other slots and parameters, and
// messages whose widths are not one byte each, are not taken (`handle(sysex:)` counts them as ignored).
//
//     F0 7F dev 04 05 01 01 01 01 01 pp vv ... F7   reverb (slot 01 01): pp 0 type, 1 time
//     F0 7F dev 04 05 01 01 01 01 02 pp vv ... F7   chorus (slot 01 02): pp 0 type, 1 rate, 2 depth
//
// Reverb types set the room size for these RT60s: 0 small room 0.6 s, 1 medium room 0.9 s, 2 large room
// 1.3 s, 3 medium hall 1.8 s, 4 large hall 2.8 s, 8 plate 1.5 s. Reverb time: e^((vv - 40) x 0.025) s.
// Chorus types (GM2's rate and depth values): 0-3 chorus 1-4, 4 feedback chorus, 5 flanger. Rate:
// vv x 0.122 Hz; depth: (vv + 1) / 3.2 ms. Feedback and send-to-reverb are not modelled.

extension Synth {
    /// Applies a GM2 reverb or chorus Global Parameter Control message; false for anything else (unchanged).
    @_noLocks
    func handleEffectSysex(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        // F0 7F dev 04 05 sw pw vw s1 s2 (pp vv)+ F7
        guard n >= 13, bytes[0] == 0xF0, bytes[1] == 0x7F, bytes[3] == 0x04, bytes[4] == 0x05, bytes[n - 1] == 0xF7,
              bytes[5] == 1, bytes[6] == 1, bytes[7] == 1, bytes[8] == 0x01, (n - 11) % 2 == 0 else { return false }
        let slot = bytes[9]
        guard slot == 0x01 || slot == 0x02 else { return false }
        var applied = false
        var i = 10
        while i + 1 < n - 1 {
            let parameter = bytes[i], value = bytes[i + 1]
            i += 2
            guard value <= 0x7F else { return applied }
            if slot == 0x01 {
                switch parameter {
                case 0: // type
                    let time: Float
                    switch value {
                    case 0: time = 0.6
                    case 1: time = 0.9
                    case 2: time = 1.3
                    case 3: time = 1.8
                    case 4: time = 2.8
                    case 8: time = 1.5
                    default: continue
                    }
                    setReverbTime(time)
                    applied = true
                case 1: // time, seconds = e^((vv - 40) * 0.025)
                    setReverbTime(Float(FastMath.exp2(Double(Int(value) - 40) * 0.025 * 1.442_695_040_888_963)))
                    applied = true
                default: continue
                }
            } else {
                switch parameter {
                case 0: // type: GM2's rate and depth values
                    let rate: Float, depth: Float
                    switch value {
                    case 0: (rate, depth) = (3, 5)
                    case 1: (rate, depth) = (9, 19)
                    case 2: (rate, depth) = (3, 19)
                    case 3: (rate, depth) = (9, 16)
                    case 4: (rate, depth) = (2, 24)
                    case 5: (rate, depth) = (1, 5)
                    default: continue
                    }
                    setEffect(.chorusRate, rate * 0.122)
                    setEffect(.chorusDepth, (depth + 1) / 3.2)
                    applied = true
                case 1: setEffect(.chorusRate, Float(value) * 0.122); applied = true
                case 2: setEffect(.chorusDepth, Float(Int(value) + 1) / 3.2); applied = true
                default: continue
                }
            }
        }
        return applied
    }

    /// The room size whose RT60 (0.3 s + 5 s x room size) is `seconds`, clamped to the room's range.
    @_noLocks
    func setReverbTime(_ seconds: Float) {
        setEffect(.roomSize, (seconds - 0.3) / 5)
    }
}
