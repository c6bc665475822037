// The SFX kit (program 56): GS's sound effects on keys 39...84, each made as the drums are, from a swept tone
// and filtered noise with their own decays. A sketch of each effect, not a recording: a siren rises, an
// explosion rumbles, rain hisses, a laser gun falls from 3 kHz. Its other keys are silent.

extension DrumKit {
    static let sfx: DrumKit = {
        let effects: [DrumSound] = [
            .tone("high q", 1_400, 500, pitch: 0.01, decay: 0.06, gain: 0.5, noise: 0.01, noiseGain: 0.2, .bandPass, 3_000),  // 39
            .noise("slap", decay: 0.05, .bandPass, 1_800, k: 0.8),  // 40
            .tone("scratch push", 400, 1_400, pitch: 0.06, decay: 0.12, gain: 0.3, noise: 0.12, noiseGain: 0.5, .bandPass, 2_500, k: 0.5),  // 41
            .tone("scratch pull", 1_200, 300, pitch: 0.06, decay: 0.12, gain: 0.3, noise: 0.12, noiseGain: 0.5, .bandPass, 1_800, k: 0.5),  // 42
            .tone("sticks", 2_200, 2_000, pitch: 0.005, decay: 0.04, gain: 0.5, noise: 0.02, noiseGain: 0.4, .highPass, 3_000),  // 43
            .tone("square click", 1_000, 1_000, pitch: 1, decay: 0.02, gain: 0.6),  // 44
            .tone("metronome click", 2_000, 2_000, pitch: 1, decay: 0.025, gain: 0.5, noise: 0.01, noiseGain: 0.2, .highPass, 4_000),  // 45
            .tone("metronome bell", 2_600, 2_600, pitch: 1, decay: 0.3, gain: 0.4),  // 46
            .tone("guitar fret noise", 1_500, 900, pitch: 0.04, decay: 0.1, gain: 0.3, noise: 0.1, noiseGain: 0.5, .bandPass, 3_000, k: 0.6),  // 47
            .noise("guitar cutting noise up", decay: 0.25, gain: 0.6, .bandPass, 2_000, k: 0.5),  // 48
            .noise("guitar cutting noise down", decay: 0.25, gain: 0.6, .bandPass, 1_500, k: 0.5),  // 49
            .tone("string slap", 110, 100, pitch: 0.02, decay: 0.3, gain: 0.8, noise: 0.05, noiseGain: 0.4, .bandPass, 1_000),  // 50
            .tone("flute key click", 1_800, 1_800, pitch: 1, decay: 0.02, gain: 0.4),  // 51
            .tone("laughing", 300, 250, pitch: 0.5, decay: 1, gain: 0.4, noise: 0.8, noiseGain: 0.3, .bandPass, 1_200, k: 0.5),  // 52
            .tone("screaming", 1_200, 900, pitch: 1, decay: 1.2, gain: 0.4, noise: 1, noiseGain: 0.3, .bandPass, 2_500, k: 0.5),  // 53
            .tone("punch", 150, 60, pitch: 0.03, decay: 0.2, noise: 0.08, noiseGain: 0.8, .lowPass, 2_000),  // 54
            .tone("heart beat", 60, 45, pitch: 0.05, decay: 0.25, .lowPass, 500),  // 55
            .noise("footsteps 1", decay: 0.08, .lowPass, 800, k: 1),  // 56
            .noise("footsteps 2", decay: 0.06, .lowPass, 1_200, k: 1),  // 57
            .noise("applause", decay: 2.5, gain: 0.6, .bandPass, 2_500, k: 1.5),  // 58
            .tone("door creaking", 500, 300, pitch: 0.8, decay: 1, gain: 0.3, noise: 1, noiseGain: 0.4, .bandPass, 800, k: 0.2),  // 59
            .tone("door", 90, 70, pitch: 0.05, decay: 0.4, gain: 0.8, noise: 0.3, noiseGain: 0.6, .lowPass, 400),  // 60
            .noise("scratch", decay: 0.2, gain: 0.7, .bandPass, 3_000, k: 0.4),  // 61
            .tone("wind chimes", 3_500, 3_300, pitch: 1, decay: 2.5, gain: 0.3, noise: 2, noiseGain: 0.1, .highPass, 6_000),  // 62
            .tone("car engine", 60, 55, pitch: 1, decay: 2, gain: 0.6, noise: 2, noiseGain: 0.5, .lowPass, 300),  // 63
            .tone("car stop", 800, 300, pitch: 0.5, decay: 1, gain: 0.3, noise: 1, noiseGain: 0.6, .bandPass, 1_500, k: 0.3),  // 64
            .tone("car pass", 300, 200, pitch: 1, decay: 2.5, gain: 0.3, noise: 2.5, noiseGain: 0.6, .lowPass, 1_200),  // 65
            .tone("car crash", 100, 50, pitch: 0.2, decay: 1, gain: 0.6, noise: 1.8, noiseGain: 1, .lowPass, 3_000),  // 66
            .tone("siren", 600, 1_200, pitch: 0.8, decay: 3, gain: 0.4),  // 67
            .tone("train", 120, 110, pitch: 1, decay: 2.5, gain: 0.4, noise: 2.5, noiseGain: 0.6, .lowPass, 600),  // 68
            .noise("jetplane", decay: 3, gain: 0.5, .highPass, 2_000, k: 0.5),  // 69
            .noise("helicopter", decay: 2.5, gain: 0.7, .lowPass, 400, k: 0.3),  // 70
            .tone("starship", 2_000, 400, pitch: 1.5, decay: 2, gain: 0.4),  // 71
            .tone("gun shot", 200, 60, pitch: 0.02, decay: 0.2, gain: 0.6, noise: 0.3, noiseGain: 1, .lowPass, 4_000),  // 72
            .noise("machine gun", decay: 0.15, gain: 0.9, .bandPass, 2_000, k: 0.8),  // 73
            .tone("laser gun", 3_000, 400, pitch: 0.08, decay: 0.3, gain: 0.5),  // 74
            .tone("explosion", 60, 30, pitch: 0.3, decay: 1.5, gain: 0.8, noise: 2.5, noiseGain: 1, .lowPass, 800),  // 75
            .tone("dog", 600, 400, pitch: 0.08, decay: 0.25, gain: 0.6, noise: 0.2, noiseGain: 0.4, .bandPass, 1_000, k: 0.6),  // 76
            .tone("horse gallop", 200, 180, pitch: 0.02, decay: 0.1, gain: 0.6, noise: 0.1, noiseGain: 0.6, .lowPass, 1_000),  // 77
            .tone("birds", 4_000, 3_000, pitch: 0.05, decay: 0.3, gain: 0.3),  // 78
            .noise("rain", decay: 3, gain: 0.4, .highPass, 4_000, k: 1.5),  // 79
            .tone("thunder", 50, 30, pitch: 0.5, decay: 2, gain: 0.6, noise: 3.5, noiseGain: 1, .lowPass, 300),  // 80
            .noise("wind", decay: 3, gain: 0.5, .bandPass, 800, k: 0.2),  // 81
            .noise("seashore", decay: 3.5, gain: 0.5, .lowPass, 2_000, k: 1),  // 82
            .noise("stream", decay: 2.5, gain: 0.35, .highPass, 3_000, k: 0.8),  // 83
            .tone("bubble", 500, 1_500, pitch: 0.03, decay: 0.1, gain: 0.5),  // 84
        ]
        var sounds = [DrumSound?](repeating: nil, count: 128)
        for (i, sound) in effects.enumerated() { sounds[39 + i] = sound }
        return DrumKit(program: 56, name: "SFX", sounds: sounds)
    }()
}
