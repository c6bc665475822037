// The SFX kit (program 56): GS's sound effects on keys 39...84, each made as the drums are, from a swept tone
// and filtered noise with their own decays. A sketch of each effect, not a recording: a siren rises, an
// explosion rumbles, rain hisses, a laser gun falls from 3 kHz. Its other keys are silent.

extension DrumKit {
    static let sfx: DrumKit = {
        let t = DrumSound.tone, n = DrumSound.noise
        let effects: [DrumSound] = [
            t("high q", 1_400, 500, 0.01, 0.06, 0.5, 0.01, 0.2, .bandPass, 3_000, 1, 0),                  // 39
            n("slap", 0.05, 0.8, .bandPass, 1_800, 0.8, 0),                                              // 40
            t("scratch push", 400, 1_400, 0.06, 0.12, 0.3, 0.12, 0.5, .bandPass, 2_500, 0.5, 0),          // 41
            t("scratch pull", 1_200, 300, 0.06, 0.12, 0.3, 0.12, 0.5, .bandPass, 1_800, 0.5, 0),          // 42
            t("sticks", 2_200, 2_000, 0.005, 0.04, 0.5, 0.02, 0.4, .highPass, 3_000, 1, 0),               // 43
            t("square click", 1_000, 1_000, 1, 0.02, 0.6, 0, 0, .bandPass, 2_000, 1, 0),                  // 44
            t("metronome click", 2_000, 2_000, 1, 0.025, 0.5, 0.01, 0.2, .highPass, 4_000, 1, 0),         // 45
            t("metronome bell", 2_600, 2_600, 1, 0.3, 0.4, 0, 0, .bandPass, 2_000, 1, 0),                 // 46
            t("guitar fret noise", 1_500, 900, 0.04, 0.1, 0.3, 0.1, 0.5, .bandPass, 3_000, 0.6, 0),      // 47
            n("guitar cutting noise up", 0.25, 0.6, .bandPass, 2_000, 0.5, 0),                            // 48
            n("guitar cutting noise down", 0.25, 0.6, .bandPass, 1_500, 0.5, 0),                          // 49
            t("string slap", 110, 100, 0.02, 0.3, 0.8, 0.05, 0.4, .bandPass, 1_000, 1, 0),               // 50
            t("flute key click", 1_800, 1_800, 1, 0.02, 0.4, 0, 0, .bandPass, 2_000, 1, 0),               // 51
            t("laughing", 300, 250, 0.5, 1, 0.4, 0.8, 0.3, .bandPass, 1_200, 0.5, 0),                     // 52
            t("screaming", 1_200, 900, 1, 1.2, 0.4, 1, 0.3, .bandPass, 2_500, 0.5, 0),                    // 53
            t("punch", 150, 60, 0.03, 0.2, 1, 0.08, 0.8, .lowPass, 2_000, 1, 0),                          // 54
            t("heart beat", 60, 45, 0.05, 0.25, 1, 0, 0, .lowPass, 500, 1, 0),                            // 55
            n("footsteps 1", 0.08, 0.8, .lowPass, 800, 1, 0),                                             // 56
            n("footsteps 2", 0.06, 0.8, .lowPass, 1_200, 1, 0),                                           // 57
            n("applause", 2.5, 0.6, .bandPass, 2_500, 1.5, 0),                                            // 58
            t("door creaking", 500, 300, 0.8, 1, 0.3, 1, 0.4, .bandPass, 800, 0.2, 0),                    // 59
            t("door", 90, 70, 0.05, 0.4, 0.8, 0.3, 0.6, .lowPass, 400, 1, 0),                             // 60
            n("scratch", 0.2, 0.7, .bandPass, 3_000, 0.4, 0),                                             // 61
            t("wind chimes", 3_500, 3_300, 1, 2.5, 0.3, 2, 0.1, .highPass, 6_000, 1, 0),                  // 62
            t("car engine", 60, 55, 1, 2, 0.6, 2, 0.5, .lowPass, 300, 1, 0),                              // 63
            t("car stop", 800, 300, 0.5, 1, 0.3, 1, 0.6, .bandPass, 1_500, 0.3, 0),                       // 64
            t("car pass", 300, 200, 1, 2.5, 0.3, 2.5, 0.6, .lowPass, 1_200, 1, 0),                        // 65
            t("car crash", 100, 50, 0.2, 1, 0.6, 1.8, 1, .lowPass, 3_000, 1, 0),                          // 66
            t("siren", 600, 1_200, 0.8, 3, 0.4, 0, 0, .bandPass, 2_000, 1, 0),                            // 67
            t("train", 120, 110, 1, 2.5, 0.4, 2.5, 0.6, .lowPass, 600, 1, 0),                             // 68
            n("jetplane", 3, 0.5, .highPass, 2_000, 0.5, 0),                                              // 69
            n("helicopter", 2.5, 0.7, .lowPass, 400, 0.3, 0),                                             // 70
            t("starship", 2_000, 400, 1.5, 2, 0.4, 0, 0, .bandPass, 2_000, 1, 0),                         // 71
            t("gun shot", 200, 60, 0.02, 0.2, 0.6, 0.3, 1, .lowPass, 4_000, 1, 0),                        // 72
            n("machine gun", 0.15, 0.9, .bandPass, 2_000, 0.8, 0),                                        // 73
            t("laser gun", 3_000, 400, 0.08, 0.3, 0.5, 0, 0, .bandPass, 2_000, 1, 0),                     // 74
            t("explosion", 60, 30, 0.3, 1.5, 0.8, 2.5, 1, .lowPass, 800, 1, 0),                           // 75
            t("dog", 600, 400, 0.08, 0.25, 0.6, 0.2, 0.4, .bandPass, 1_000, 0.6, 0),                      // 76
            t("horse gallop", 200, 180, 0.02, 0.1, 0.6, 0.1, 0.6, .lowPass, 1_000, 1, 0),                 // 77
            t("birds", 4_000, 3_000, 0.05, 0.3, 0.3, 0, 0, .bandPass, 2_000, 1, 0),                       // 78
            n("rain", 3, 0.4, .highPass, 4_000, 1.5, 0),                                                  // 79
            t("thunder", 50, 30, 0.5, 2, 0.6, 3.5, 1, .lowPass, 300, 1, 0),                               // 80
            n("wind", 3, 0.5, .bandPass, 800, 0.2, 0),                                                    // 81
            n("seashore", 3.5, 0.5, .lowPass, 2_000, 1, 0),                                               // 82
            n("stream", 2.5, 0.35, .highPass, 3_000, 0.8, 0),                                             // 83
            t("bubble", 500, 1_500, 0.03, 0.1, 0.5, 0, 0, .bandPass, 2_000, 1, 0),                        // 84
        ]
        var sounds = [DrumSound?](repeating: nil, count: 128)
        for (i, sound) in effects.enumerated() { sounds[39 + i] = sound }
        return DrumKit(program: 56, name: "SFX", sounds: sounds)
    }()
}
