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
// vv x 0.122 Hz; depth: (vv + 1) / 3.2 ms. The types' feedback is GS's macros' (0, 5, 8, 16, 64, 112 of 127).
//
// Roland GS patch common parameters 40 01 30...3F (a data set, F0 41 dev 42 12 40 01 aa dd... cs F7, any
// device number, one or more data bytes at consecutive addresses, the checksum checked: a wrong one changes
// nothing and the message is counted as ignored). Taken where they mean what these effects have:
//
//     30 reverb macro   0 Room 1 0.6 s, 1 Room 2 0.9 s, 2 Room 3 1.3 s, 3 Hall 1 1.8 s, 4 Hall 2 2.8 s,
//                       5 Plate 1.5 s (the RT60 the room size is set to, as the GM2 types), 6 Delay, 7 Panning
//                       Delay; each sets the character of its name and the SC-55's pre-LPF for it (Room 1 3,
//                       Room 2 4, Hall 1 4, others 0), the delays their echo time and feedback
//     31 character      0-7 as the macros: the rooms' and halls' line lengths and colour, the plate, the echoes
//     32 pre-LPF        0-7: a low-pass on the reverb's input, 7 the dullest (ReverbSettings.preLowPass)
//     33 reverb level   vv / 127 (the reverb's level, 0...1)
//     34 reverb time    e^((vv - 40) x 0.025) s, GM2's reverb time scale (64: 1.8 s); with Delay and Panning
//                       Delay the echo time follows the room size it sets
//     35 delay feedback vv / 127 (the echoes' feedback, 127 being 0.9)
//     37 predelay       vv ms
//     38 chorus macro   0-3 Chorus 1-4, 4 Feedback Chorus, 5 Flanger: the rate, depth and feedback of GM2's
//                       chorus types (which are GS's; Flanger with a 1 ms delay); 6 Short Delay and 7 Short
//                       Delay (FB): 12.8 ms unmodulated, without and with feedback
//     3A chorus level   vv / 127 x 4 (GS's default 64 is about FluidSynth's level 2)
//     3B chorus feedback vv / 127 (127 being 0.9)
//     3C chorus delay   (vv + 1) / 10 ms, the shortest delay of the sweep
//     3D chorus rate    vv x 0.122 Hz
//     3E chorus depth   (vv + 1) / 3.2 ms
//     3F chorus send to reverb  vv / 127 of the chorus's output into the reverb
//
// The rest (36 reverb send to chorus, 39 chorus pre-LPF) are not modelled. A message counts as acted on when
// at least one of its bytes was taken. A system reset (GM/GM2 System On, GS Reset, XG System On) returns every
// setting sysex changed to what it was before (EffectBuses.swift's EffectControls).

extension Synth {
    /// Applies a GM2 reverb or chorus Global Parameter Control message; false for anything else (unchanged).
    @_noLocks
    func handleEffectSysex(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let applied = handleGSEffectSysex(bytes) { return applied }
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
            if setGM2Effect(slot: slot, parameter: parameter, value) { applied = true }
        }
        return applied
    }

    /// A GS data set to 40 01 30...3F: whether a byte of it was taken; nil when the message is no such data set.
    @_noLocks
    func handleGSEffectSysex(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        let n = bytes.count
        // F0 41 dev 42 12 40 01 aa dd... cs F7
        guard n >= 11, bytes[0] == 0xF0, bytes[1] == 0x41, bytes[3] == 0x42, bytes[4] == 0x12, bytes[5] == 0x40,
              bytes[6] == 0x01, bytes[7] >= 0x30, bytes[7] <= 0x3F, bytes[n - 1] == 0xF7 else { return nil }
        var sum = 0
        for i in 5..<(n - 2) {
            guard bytes[i] <= 0x7F else { return false }
            sum += Int(bytes[i])
        }
        guard Int(bytes[n - 2]) == (128 - sum % 128) % 128 else { return false } // a wrong checksum: not taken
        var applied = false
        for i in 8..<(n - 2) {
            if takeGSEffect(address: Int(bytes[7]) + (i - 8), bytes[i]) { applied = true }
        }
        return applied
    }

    /// One byte of a GS patch common data set at `address` (40 01 aa): whether it was taken.
    @_noLocks
    func takeGSEffect(address: Int, _ value: UInt8) -> Bool {
        let v = Float(value)
        switch address {
        case 0x30: return setGSReverbMacro(value)
        case 0x31:
            guard value <= 7 else { return false }
            setGSEffect(.reverbCharacter, v)
        case 0x32:
            guard value <= 7 else { return false }
            setGSEffect(.reverbPreLowPass, v)
        case 0x33: setEffectFromSysex(.reverbLevel, v / 127)
        case 0x34: return setGM2Effect(slot: 0x01, parameter: 1, value) // reverb time
        case 0x35: setGSEffect(.reverbDelayFeedback, v / 127)
        case 0x37: setGSEffect(.reverbPredelay, v)
        case 0x38: return setGM2Effect(slot: 0x02, parameter: 0, value) // chorus macro: type
        case 0x3A: setEffectFromSysex(.chorusLevel, v / 127 * 4)
        case 0x3B: setGSEffect(.chorusFeedback, v / 127)
        case 0x3C: setGSEffect(.chorusDelay, (v + 1) / 10)
        case 0x3D, 0x3E: return setGM2Effect(slot: 0x02, parameter: UInt8(address - 0x3C), value) // rate, depth
        case 0x3F: setGSEffect(.chorusSendToReverb, v / 127)
        default: return false
        }
        return true
    }

    /// GS reverb macros 0-7: GM2's reverb types for the rooms, halls and plate, the character of the macro's
    /// name, its pre-LPF; the delays' echo time and feedback.
    @_noLocks
    func setGSReverbMacro(_ value: UInt8) -> Bool {
        guard value <= 7 else { return false }
        switch value {
        case 6: // Delay: 0.25 s echoes, feedback 40
            setEffectFromSysex(.roomSize, (0.25 - 0.02) / 0.43)
            setGSEffect(.reverbDelayFeedback, 40 / 127)
        case 7: // Panning Delay: 0.3 s, feedback 32
            setEffectFromSysex(.roomSize, (0.3 - 0.02) / 0.43)
            setGSEffect(.reverbDelayFeedback, 32 / 127)
        default:
            guard setGM2Effect(slot: 0x01, parameter: 0, value == 5 ? 8 : value) else { return false } // Plate is GM2's 8
        }
        setGSEffect(.reverbCharacter, Float(value))
        setGSEffect(.reverbPreLowPass, value == 0 ? 3 : value == 1 || value == 3 ? 4 : 0)
        return true
    }

    /// One GM2 effect parameter (slot 01 reverb: 0 type, 1 time; slot 02 chorus: 0 type, 1 rate, 2 depth), the
    /// GS macros and times being the same values: whether it was taken.
    @_noLocks
    func setGM2Effect(slot: UInt8, parameter: UInt8, _ value: UInt8) -> Bool {
        switch (slot, parameter) {
        case (0x01, 0):
            guard let time = gm2ReverbTime(type: value) else { return false }
            setReverbTime(time)
        case (0x01, 1): setReverbTime(gm2ReverbTime(time: value))
        case (0x02, 0): return setChorusType(value)
        case (0x02, 1): setEffectFromSysex(.chorusRate, Float(value) * 0.122)
        case (0x02, 2): setEffectFromSysex(.chorusDepth, Float(Int(value) + 1) / 3.2)
        default: return false
        }
        return true
    }

    /// A GM2 chorus type (GS's chorus macros 0-5, and GS's 6-7): its rate, depth, feedback and delay; false for
    /// one not modelled.
    @_noLocks
    func setChorusType(_ value: UInt8) -> Bool {
        let rate: Float, depth: Float, feedback: Float
        var delay = ChorusSettings.minimumDelay
        switch value {
        case 0: (rate, depth, feedback) = (3, 5, 0) // chorus 1
        case 1: (rate, depth, feedback) = (9, 19, 5) // chorus 2
        case 2: (rate, depth, feedback) = (3, 19, 8) // chorus 3
        case 3: (rate, depth, feedback) = (9, 16, 16) // chorus 4
        case 4: (rate, depth, feedback) = (2, 24, 64) // feedback chorus
        case 5: (rate, depth, feedback) = (1, 5, 112); delay = 1 // flanger
        case 6, 7: // GS short delay, short delay (FB): unmodulated
            setEffectFromSysex(.chorusDepth, 0)
            setGSEffect(.chorusFeedback, value == 7 ? 80 / 127 : 0)
            setGSEffect(.chorusDelay, 12.8)
            return true
        default: return false
        }
        setEffectFromSysex(.chorusRate, rate * 0.122)
        setEffectFromSysex(.chorusDepth, (depth + 1) / 3.2)
        setGSEffect(.chorusFeedback, feedback / 127)
        setGSEffect(.chorusDelay, delay)
        return true
    }

    /// The room size whose RT60 (0.3 s + 5 s x room size) is `seconds`, clamped to the room's range.
    @_noLocks
    func setReverbTime(_ seconds: Float) {
        setEffectFromSysex(.roomSize, (seconds - 0.3) / 5)
    }
}

/// The RT60 of a GM2 reverb type, nil for one not modelled.
@_noLocks
func gm2ReverbTime(type value: UInt8) -> Float? {
    switch value {
    case 0: 0.6 // small room
    case 1: 0.9 // medium room
    case 2: 1.3 // large room
    case 3: 1.8 // medium hall
    case 4: 2.8 // large hall
    case 8: 1.5 // plate
    default: nil
    }
}

/// GM2's reverb time: e^((vv - 40) x 0.025) seconds.
@_noLocks
func gm2ReverbTime(time value: UInt8) -> Float {
    Float(FastMath.exp2(Double(Int(value) - 40) * 0.025 * 1.442_695_040_888_963))
}
