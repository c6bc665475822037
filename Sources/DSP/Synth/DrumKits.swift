// The drum kits a drum part chooses by program number, as GS and GM2 modules number them: Standard (0),
// Room (8), Power (16), Electronic (24), TR-808 (25), Jazz (32), Brush (40), Orchestra (48) and SFX (56).
// Each is the standard kit (DrumKit.swift) with its drums changed the way that kit's character asks: a room's
// longer ring, a power kit's punch, the electronic kit's swept toms, the TR-808's long sine kick and
// metallic hats, the brushes' swishes, the orchestra's timpani and concert drums, the SFX kit's sound
// effects. The same tone-and-noise voices play them all.

/// A drum kit: its program number, its name and its sounds by key.
public struct DrumKit: Sendable {
    public var program: Int
    public var name: String
    /// The sound of each key 0...127; nil where the kit is silent.
    public var sounds: [DrumSound?]

    /// The sound of `key`, nil where the kit has none.
    public func sound(key: Int) -> DrumSound? { (0..<128).contains(key) ? sounds[key] : nil }

    /// The kits in program order, Standard first.
    public static let kits: [DrumKit] = [standard, room, power, electronic, tr808, jazz, brush, orchestra, sfx]

    /// The kit (index into `kits`) that program `program` selects: the kit with that number, else the one
    /// below it in its group of eight (GS numbers a kit's variations after it: 1-7 play Standard, 26-31 the
    /// TR-808), else Standard (programs 64 and up, and a group with no kit).
    public static func index(program: Int) -> Int {
        kits.indices.last { kits[$0].program <= program && kits[$0].program / 8 == program / 8 } ?? 0
    }

    static let standard = DrumKit(program: 0, name: "Standard", sounds: (0..<128).map { DrumSound.sound(key: $0) })

    /// The standard kit with `change` applied to each sound (given its key), then the sounds of `replacing`.
    static func variant(_ program: Int, _ name: String, change: (Int, DrumSound) -> DrumSound = { $1 },
                        replacing: [Int: DrumSound?] = [:]) -> DrumKit {
        var sounds = standard.sounds.enumerated().map { key, sound in sound.map { change(key, $0) } }
        for (key, sound) in replacing { sounds[key] = sound }
        return DrumKit(program: program, name: name, sounds: sounds)
    }

    // The General MIDI keys of each kind of drum.
    static let kicks: Set = [35, 36], snares: Set = [38, 40], hats: Set = [42, 44, 46]
    static let toms: Set = [41, 43, 45, 47, 48, 50], cymbals: Set = [49, 51, 52, 55, 57, 59]
}

extension DrumSound {
    /// This sound with its tone and noise ringing `factor` times as long.
    func ringing(_ factor: Float) -> DrumSound {
        var s = self
        s.toneDecay *= factor
        s.noiseDecay *= factor
        return s
    }

    /// This sound with its tone's pitch multiplied by `factor`.
    func tuned(_ factor: Float) -> DrumSound {
        var s = self
        s.toneStart *= factor
        s.toneEnd *= factor
        return s
    }
}

extension DrumKit {
    static let room = variant(8, "Room") { key, s in
        kicks.contains(key) || snares.contains(key) ? s.ringing(1.6) : toms.contains(key) ? s.ringing(1.6).tuned(0.92) : s
    }

    static let power = variant(16, "Power") { key, s in
        var s = s
        if kicks.contains(key) {
            s = .tone(s.name, 110, 42, pitch: 0.05, decay: 0.8, noise: 0.015, noiseGain: 0.5, .lowPass, 5_000)
        } else if snares.contains(key) {
            s.toneGain = 0.6; s.toneDecay = 0.2; s.noiseDecay = 0.3; s.filterHz = 2_500
        } else if toms.contains(key) {
            s = s.ringing(1.5).tuned(1.1)
            s.toneStart *= 1.2
        }
        return s
    }

    static let electronic = variant(24, "Electronic") { key, s in
        if kicks.contains(key) { return .tone(s.name, 200, 45, pitch: 0.08, decay: 0.8) }
        if snares.contains(key) {
            return .tone(s.name, 220, 200, pitch: 0.02, decay: 0.1, gain: 0.4, noise: 0.25, noiseGain: 0.8, .highPass, 1_500)
        }
        if toms.contains(key) { return .tone(s.name, s.toneEnd * 2.5, s.toneEnd, pitch: 0.18, decay: 0.7) }
        if hats.contains(key) { var s = s; s.filter = .bandPass; s.filterHz = 8_000; s.filterK = 0.4; return s }
        return s
    }

    static let tr808 = variant(25, "TR-808", change: { key, s in
        if kicks.contains(key) { return .tone(s.name, 62, 48, pitch: 0.04, decay: 1.5, noise: 0.004, noiseGain: 0.05, .lowPass, 2_000) }
        if snares.contains(key) {
            return .tone(s.name, 240, 185, pitch: 0.01, decay: 0.12, gain: 0.45, noise: 0.2, noiseGain: 0.7, .highPass, 1_800)
        }
        if toms.contains(key) { return .tone(s.name, s.toneEnd * 1.25, s.toneEnd, pitch: 0.06, decay: 0.5) }
        if hats.contains(key) {
            return .noise(s.name, decay: key == 46 ? 0.7 : key == 44 ? 0.07 : 0.05, gain: 0.5, .bandPass, 9_000, k: 0.35, exclusive: 1)
        }
        if cymbals.contains(key) { return .noise(s.name, decay: 2.8, gain: 0.45, .bandPass, 7_000, k: 0.3) }
        if (62...64).contains(key) { return .tone(s.name, s.toneStart, s.toneEnd, pitch: 0.02, decay: s.toneDecay * 1.5) }
        return s
    }, replacing: [
        37: .tone("rim shot", 1_700, 1_650, pitch: 1, decay: 0.03, gain: 0.5),
        39: .noise("hand clap", decay: 0.3, gain: 1, .bandPass, 1_100, k: 0.5),
        56: .tone("cowbell", 800, 800, pitch: 1, decay: 0.3, gain: 0.5, noise: 0.3, noiseGain: 0.3, .bandPass, 540, k: 0.2),
        70: .noise("maracas", decay: 0.04, gain: 0.6, .highPass, 9_000),
        75: .tone("claves", 2_500, 2_500, pitch: 1, decay: 0.025, gain: 0.6),
    ])

    /// A jazz drummer's tuning: a small, higher kick, a crisper snare, higher toms, a longer ride.
    static func jazzed(_ key: Int, _ s: DrumSound) -> DrumSound {
        var s = s
        if kicks.contains(key) {
            s = .tone(s.name, 90, 55, pitch: 0.03, decay: 0.3, noise: 0.01, noiseGain: 0.2, .lowPass, 1_500)
        } else if key == 38 {
            s.toneGain = 0.25; s.noiseGain = 0.7; s.noiseDecay = 0.16; s.filterHz = 5_000; s.filterK = 1.2
        } else if key == 51 || key == 59 {
            s.noiseDecay = 1.8; s.filterK = 0.6
        } else if toms.contains(key) {
            s = s.tuned(1.1)
            s.toneDecay = 0.45
        }
        return s
    }

    static let jazz = variant(32, "Jazz", change: jazzed)

    static let brush = variant(40, "Brush", change: { key, s in
        var s = jazzed(key, s)
        if toms.contains(key) { s.noiseGain = 0; s.toneDecay = 0.4; s.toneGain = 0.7 }
        if hats.contains(key) || cymbals.contains(key) { s.noiseGain *= 0.7 }
        return s
    }, replacing: [
        38: .noise("brush tap", decay: 0.3, gain: 0.55, .bandPass, 3_000, k: 1.5),
        39: .noise("brush slap", decay: 0.12, gain: 0.7, .bandPass, 2_200, k: 1.2),
        40: .noise("brush swirl", decay: 1, gain: 0.35, .bandPass, 2_500, k: 1.8),
    ])

    static let orchestra: DrumKit = {
        var replacing: [Int: DrumSound?] = [
            35: .tone("concert bass drum 2", 65, 45, pitch: 0.1, decay: 1.8, noise: 0.1, noiseGain: 0.25, .lowPass, 600),
            36: .tone("concert bass drum 1", 70, 48, pitch: 0.1, decay: 1.6, noise: 0.1, noiseGain: 0.25, .lowPass, 700),
            38: .tone("concert snare drum", 280, 260, pitch: 0.02, decay: 0.1, gain: 0.2, noise: 0.4, noiseGain: 0.8, .bandPass, 4_500, k: 0.8),
            40: .tone("concert snare drum 2", 260, 240, pitch: 0.02, decay: 0.1, gain: 0.2, noise: 0.5, noiseGain: 0.8, .bandPass, 4_000, k: 0.8),
            49: .noise("concert cymbal 1", decay: 4, gain: 0.5, .highPass, 3_500),
            57: .noise("concert cymbal 2", decay: 3.5, gain: 0.5, .highPass, 4_000),
            88: .noise("applause", decay: 2.5, gain: 0.6, .bandPass, 2_500, k: 1.5),
        ]
        // Keys 41...53 are the timpani, F to F, each at its key's pitch.
        for key in 41...53 {
            let hz = Float(440 * FastMath.exp2(Double(key - 69) / 12))
            replacing[key] = .tone("timpani", hz * 1.02, hz, pitch: 0.05, decay: 2, gain: 0.9, noise: 0.05, noiseGain: 0.2, .lowPass, 800)
        }
        return variant(48, "Orchestra", replacing: replacing)
    }()
}
