/// An opcode as read, with where it is written.
struct SFZOpcode: Sendable, Hashable {
    var name: String
    var value: String
    var location: SFZLocation
}

/// What applying an opcode to a region came to.
enum SFZApplied: Equatable {
    case applied
    case unknown
    /// The value is refused; the text says what is accepted.
    case bad(String)
}

/// The highest CC number an `N` opcode takes (SFZ v2's extended CCs reach 511).
let sfzMaximumCC = 511
/// The highest v2 LFO number taken (`lfoN_`).
let sfzMaximumLFO = 32

extension SFZRegion {
    /// Sets the field `opcode` names. `samplesFolder` is what a relative `sample=` path is taken from (the
    /// root file's folder and `default_path`). A refused value leaves the region as it was.
    mutating func apply(_ opcode: SFZOpcode, samplesFolder: String) -> SFZApplied {
        let name = SFZOpcodeName(opcode.name)
        let v = opcode.value
        do throws(SFZBadValue) {
            if name.numbers.isEmpty {
                if opcode.name == "sample" {
                    try setSample(v, folder: samplesFolder)
                    sampleLocation = opcode.location
                    return .applied
                }
                if try applyMapping(opcode.name, v) { return .applied }
                if try applyPlayback(opcode.name, v) { return .applied }
                if try applyLevel(opcode.name, v) { return .applied }
                if try applyFilter(opcode.name, v) { return .applied }
                return try applyModulation(name, v) ? .applied : .unknown
            }
            guard name.numbers.allSatisfy({ $0 <= 1_000_000 }), !name.pattern.contains("#") else { return .unknown }
            if try applyNumbered(name, v) { return .applied }
            return try applyModulation(name, v) ? .applied : .unknown
        } catch {
            return .bad(error.accepted)
        }
    }

    private mutating func setSample(_ value: String, folder: String) throws(SFZBadValue) {
        if value.hasPrefix("*") {
            guard let generator = SFZGenerator(rawValue: value.lowercased() == "*tri" ? "*triangle" : value.lowercased()) else {
                throw SFZBadValue(accepted: "a file name or one of " + SFZGenerator.allCases.map(\.rawValue).joined(separator: ", "))
            }
            sample = .generator(generator)
            return
        }
        guard !value.isEmpty else { throw SFZBadValue(accepted: "a file name") }
        sample = .file(SFZPath.normalized(SFZPath.resolve(value, relativeTo: folder)))
    }

    private mutating func applyMapping(_ name: String, _ v: String) throws(SFZBadValue) -> Bool {
        switch name {
        case "key":
            let key = try SFZValue.note(v, lowest: -1)
            keys = SFZRange(key, key)
            if key >= 0 { pitchKeycenter = key }
        case "lokey": keys.low = try SFZValue.note(v, lowest: -1)
        case "hikey": keys.high = try SFZValue.note(v, lowest: -1)
        case "pitch_keycenter":
            if v.lowercased() == "sample" { pitchKeycenterFromSample = true } else {
                pitchKeycenter = try SFZValue.note(v)
                pitchKeycenterFromSample = false
            }
        case "lovel": velocities.low = try SFZValue.integer(v, 0...127)
        case "hivel": velocities.high = try SFZValue.integer(v, 0...127)
        case "lochan": channels.low = try SFZValue.integer(v, 1...16)
        case "hichan": channels.high = try SFZValue.integer(v, 1...16)
        case "lobend": bend.low = try SFZValue.integer(v, -8192...8192)
        case "hibend": bend.high = try SFZValue.integer(v, -8192...8192)
        case "lorand": random.low = try SFZValue.number(v, 0...1)
        case "hirand": random.high = try SFZValue.number(v, 0...1)
        case "seq_length": seqLength = try SFZValue.integer(v, 1...100)
        case "seq_position": seqPosition = try SFZValue.integer(v, 1...100)
        case "trigger": trigger = try SFZValue.word(v, ["attack": .attack, "release": .release, "first": .first, "legato": .legato, "release_key": .releaseKey])
        case "rt_decay": rtDecay = try SFZValue.number(v, 0...200)
        case "sw_lokey": switchKeys.low = try SFZValue.note(v)
        case "sw_hikey": switchKeys.high = try SFZValue.note(v)
        case "sw_last": switchLast = try SFZValue.note(v)
        case "sw_down": switchDown = try SFZValue.note(v)
        case "sw_up": switchUp = try SFZValue.note(v)
        case "sw_previous": switchPrevious = try SFZValue.note(v)
        case "sw_default": switchDefault = try SFZValue.note(v)
        case "sw_label": switchLabel = v
        default: return false
        }
        return true
    }

    private mutating func applyPlayback(_ name: String, _ v: String) throws(SFZBadValue) -> Bool {
        let frames = 0...Int(UInt32.max)
        switch name {
        case "offset": offset = try SFZValue.integer(v, frames)
        case "end": end = try SFZValue.integer(v, -1...Int(UInt32.max))
        case "count":
            // As sfizz: a count makes the region a one-shot (a loop_mode after it still wins).
            count = try SFZValue.integer(v, frames)
            loopMode = .oneShot
        case "loop_mode", "loopmode":
            loopMode = try SFZValue.word(v, ["no_loop": .noLoop, "one_shot": .oneShot, "loop_continuous": .loopContinuous, "loop_sustain": .loopSustain])
        case "loop_start", "loopstart": loopStart = try SFZValue.integer(v, frames)
        case "loop_end", "loopend": loopEnd = try SFZValue.integer(v, frames)
        case "delay": delay = try SFZValue.number(v, 0...100)
        case "group": group = try SFZValue.integer(v, Int(Int32.min)...Int(UInt32.max))
        case "off_by": offBy = try SFZValue.integer(v, Int(Int32.min)...Int(UInt32.max))
        case "off_mode": offMode = try SFZValue.word(v, ["fast": .fast, "normal": .normal, "time": .time])
        case "off_time":
            // As sfizz: an off_time makes the mode `time` (an off_mode after it still wins).
            offTime = try SFZValue.number(v, 0...100)
            offMode = .time
        case "polyphony": polyphony = try SFZValue.integer(v, 0...65535)
        case "note_polyphony": notePolyphony = try SFZValue.integer(v, 0...65535)
        case "transpose": transpose = try SFZValue.integer(v, -127...127)
        case "tune", "pitch": tune = try SFZValue.integer(v, -9600...9600)
        case "pitch_keytrack": pitchKeytrack = try SFZValue.integer(v, -1200...1200)
        case "pitch_veltrack": pitchVeltrack = try SFZValue.integer(v, -9600...9600)
        case "bend_up", "bendup": bendUp = try SFZValue.integer(v, -9600...9600)
        case "bend_down", "benddown": bendDown = try SFZValue.integer(v, -9600...9600)
        default: return false
        }
        return true
    }

    private mutating func applyLevel(_ name: String, _ v: String) throws(SFZBadValue) -> Bool {
        let curve: KeyValuePairs<String, SFZCurveShape> = ["gain": .gain, "power": .power]
        switch name {
        case "volume": volume = try SFZValue.number(v, -144...48)
        case "amplitude": amplitude = try SFZValue.number(v, 0...10000)
        case "pan": pan = try SFZValue.number(v, -100...100)
        case "width": width = try SFZValue.number(v, -100...100)
        case "position": position = try SFZValue.number(v, -100...100)
        case "amp_veltrack": ampVeltrack = try SFZValue.number(v, -100...100)
        case "amp_keytrack": ampKeytrack = try SFZValue.number(v, -96...12)
        case "amp_keycenter": ampKeycenter = try SFZValue.note(v)
        case "xfin_lokey": keyCrossfade.inLow = try SFZValue.note(v)
        case "xfin_hikey": keyCrossfade.inHigh = try SFZValue.note(v)
        case "xfout_lokey": keyCrossfade.outLow = try SFZValue.note(v)
        case "xfout_hikey": keyCrossfade.outHigh = try SFZValue.note(v)
        case "xfin_lovel": velocityCrossfade.inLow = try SFZValue.integer(v, 0...127)
        case "xfin_hivel": velocityCrossfade.inHigh = try SFZValue.integer(v, 0...127)
        case "xfout_lovel": velocityCrossfade.outLow = try SFZValue.integer(v, 0...127)
        case "xfout_hivel": velocityCrossfade.outHigh = try SFZValue.integer(v, 0...127)
        case "xf_keycurve": keyCrossfadeCurve = try SFZValue.word(v, curve)
        case "xf_velcurve": velocityCrossfadeCurve = try SFZValue.word(v, curve)
        case "xf_cccurve": ccCrossfadeCurve = try SFZValue.word(v, curve)
        default: return false
        }
        return true
    }

    private mutating func applyFilter(_ name: String, _ v: String) throws(SFZBadValue) -> Bool {
        switch name {
        case "fil_type", "filtype":
            guard let type = SFZFilterType(rawValue: v.lowercased()) else {
                throw SFZBadValue(accepted: "one of " + SFZFilterType.allCases.map(\.rawValue).joined(separator: ", "))
            }
            filterType = type
        case "cutoff": cutoff = try SFZValue.number(v, 0...100_000)
        case "resonance": resonance = try SFZValue.number(v, 0...96)
        case "fil_keytrack": filterKeytrack = try SFZValue.integer(v, 0...1200)
        case "fil_keycenter": filterKeycenter = try SFZValue.note(v)
        case "fil_veltrack": filterVeltrack = try SFZValue.integer(v, -9600...9600)
        default: return false
        }
        return true
    }

    /// The opcodes with a CC, velocity or LFO number in their name.
    private mutating func applyNumbered(_ name: SFZOpcodeName, _ v: String) throws(SFZBadValue) -> Bool {
        let n = name.number
        if name.pattern.hasSuffix("ccN"), n > sfzMaximumCC { return false }
        switch name.pattern {
        case "loccN": ccRanges[n, default: SFZRange(0, 127)].low = try SFZValue.integer(v, 0...127)
        case "hiccN": ccRanges[n, default: SFZRange(0, 127)].high = try SFZValue.integer(v, 0...127)
        case "on_loccN": ccTriggers[n, default: SFZRange(0, 127)].low = try SFZValue.integer(v, 0...127)
        case "on_hiccN": ccTriggers[n, default: SFZRange(0, 127)].high = try SFZValue.integer(v, 0...127)
        case "amp_velcurve_N" where n <= 127: ampVelcurve[n] = try SFZValue.number(v, 0...1)
        case "xfin_loccN": ccCrossfades[n, default: SFZCrossfade()].inLow = try SFZValue.integer(v, 0...127)
        case "xfin_hiccN": ccCrossfades[n, default: SFZCrossfade()].inHigh = try SFZValue.integer(v, 0...127)
        case "xfout_loccN": ccCrossfades[n, default: SFZCrossfade()].outLow = try SFZValue.integer(v, 0...127)
        case "xfout_hiccN": ccCrossfades[n, default: SFZCrossfade()].outHigh = try SFZValue.integer(v, 0...127)
        case "volume_onccN", "gain_ccN", "volume_ccN": volumeOnCC[n] = try SFZValue.number(v, -144...48)
        case "amplitude_onccN", "amplitude_ccN": amplitudeOnCC[n] = try SFZValue.number(v, -10000...10000)
        case "pan_onccN", "pan_ccN": panOnCC[n] = try SFZValue.number(v, -200...200)
        case "volume_curveccN": volumeCurveCC[n] = try SFZValue.integer(v, 0...255)
        case "amplitude_curveccN": amplitudeCurveCC[n] = try SFZValue.integer(v, 0...255)
        case "pan_curveccN": panCurveCC[n] = try SFZValue.integer(v, 0...255)
        case "cutoff_onccN", "cutoff_ccN": cutoffOnCC[n] = try SFZValue.number(v, -9600...9600)
        case "resonance_onccN", "resonance_ccN": resonanceOnCC[n] = try SFZValue.number(v, -96...96)
        default: return false
        }
        return true
    }
}
