extension SFZRegion {
    /// The envelope and LFO opcodes: `ampeg_`/`fileg_`/`pitcheg_` stages with their `vel2*` and `*_onccN`
    /// (`*ccN` in SFZ v1), the v1 `amplfo_`/`fillfo_`/`pitchlfo_`, and the v2 `lfoN_`.
    mutating func applyModulation(_ name: SFZOpcodeName, _ v: String) throws(SFZBadValue) -> Bool {
        let parts = name.pattern.split(separator: "_", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return false }
        let (prefix, rest) = (parts[0], parts[1])
        switch prefix {
        case "ampeg": return try applyEnvelope(\.ampEG, rest, numbers: name.numbers, v, hasDepth: false)
        case "fileg": return try applyEnvelope(\.filterEG, rest, numbers: name.numbers, v, hasDepth: true)
        case "pitcheg": return try applyEnvelope(\.pitchEG, rest, numbers: name.numbers, v, hasDepth: true)
        case "amplfo": return try applyLFO(\.ampLFO, rest, v, depth: 10)
        case "fillfo": return try applyLFO(\.filterLFO, rest, v, depth: 1200)
        case "pitchlfo": return try applyLFO(\.pitchLFO, rest, v, depth: 1200)
        case "lfoN":
            guard let n = name.numbers.first, (1...sfzMaximumLFO).contains(n) else { return false }
            var lfo = lfos[n] ?? SFZLFOv2()
            if name.numbers.count == 2, rest.hasSuffix("_onccN"), let target = SFZLFOv2.Target(rawValue: String(rest.dropLast(6))),
               let cc = name.numbers.last, cc <= sfzMaximumCC, let (_, range) = Self.lfoNumbers[target.rawValue] {
                lfo.onCC[target, default: [:]][cc] = try SFZValue.number(v, range)
            } else if name.numbers.count != 1 {
                return false
            } else if rest == "wave" {
                lfo.wave = try SFZValue.integer(v, 0...7)
            } else if let (field, range) = Self.lfoNumbers[rest] {
                lfo[keyPath: field] = try SFZValue.number(v, range)
            } else {
                return false
            }
            lfos[n] = lfo
            return true
        default: return false
        }
    }

    /// The v2 LFO's number opcodes (`lfoN_freq`...): the field each sets and the values it takes.
    private static let lfoNumbers: [String: (WritableKeyPath<SFZLFOv2, Double> & Sendable, ClosedRange<Double>)] = [
        "freq": (\.frequency, 0...100), "delay": (\.delay, 0...100), "fade": (\.fade, 0...100), "phase": (\.phase, 0...1),
        "amplitude": (\.amplitude, -100...100), "pitch": (\.pitch, -9600...9600), "cutoff": (\.cutoff, -9600...9600),
        "volume": (\.volume, -144...48), "pan": (\.pan, -100...100),
    ]

    /// `delay`, `vel2attack` (written `velNattack` with N = 2), `attack_onccN` or `attackccN`.
    private mutating func applyEnvelope(_ eg: WritableKeyPath<SFZRegion, SFZEnvelope>, _ rest: String, numbers: [Int], _ v: String,
                                        hasDepth: Bool) throws(SFZBadValue) -> Bool {
        func stage(_ word: Substring) -> SFZEnvelope.Stage? {
            guard let stage = SFZEnvelope.Stage(rawValue: String(word)), hasDepth || stage != .depth else { return nil }
            return stage
        }
        if numbers.isEmpty, let stage = stage(rest[...]) {
            let range: ClosedRange<Double> = stage == .depth ? -12000...12000 : 0...100
            self[keyPath: eg][stage] = try SFZValue.number(v, range)
            return true
        }
        if rest.hasPrefix("velN"), numbers == [2], let stage = stage(rest.dropFirst(4)) {
            self[keyPath: eg].velocity[stage] = try SFZValue.number(v, stage == .depth ? -12000...12000 : -100...100)
            return true
        }
        if numbers.count == 1, numbers[0] <= sfzMaximumCC {
            let word = rest.hasSuffix("_onccN") ? rest.dropLast(6) : rest.hasSuffix("ccN") ? rest.dropLast(3) : nil
            if let word, let stage = stage(word) {
                self[keyPath: eg].onCC[stage, default: [:]][numbers[0]] = try SFZValue.number(v, stage == .depth ? -12000...12000 : -100...100)
                return true
            }
        }
        return false
    }

    private mutating func applyLFO(_ lfo: WritableKeyPath<SFZRegion, SFZLFO>, _ rest: String, _ v: String, depth: Double) throws(SFZBadValue) -> Bool {
        switch rest {
        case "delay": self[keyPath: lfo].delay = try SFZValue.number(v, 0...100)
        case "fade": self[keyPath: lfo].fade = try SFZValue.number(v, 0...100)
        case "freq": self[keyPath: lfo].frequency = try SFZValue.number(v, 0...100)
        case "depth": self[keyPath: lfo].depth = try SFZValue.number(v, -depth...depth)
        default: return false
        }
        return true
    }
}
