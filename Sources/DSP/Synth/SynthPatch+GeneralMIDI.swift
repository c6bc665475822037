import MIDI

// The built-in synth's General MIDI programs: a patch of its own for each of the 128, in its family's character
// (docs/builtin-programs.md). Each family has its own spectra (`Waveform`) and envelope shapes: pianos,
// mallets, guitars and harps decay while held; organs, reeds, pipes, strings, leads and pads hold; pads and
// some effects swell. A few keep the values of the patch that served their family before (program 0 is
// the old "piano", 48 "strings", 61 "brass", 65 "reed", 73 "flute", 81 "saw lead", 89 "soft pad", 38
// "square bass"), so a file of those programs sounds as it did.

extension SynthPatch {
    /// The patch of General MIDI program n is `builtIn[firstGeneralMIDI + n]`.
    public static var firstGeneralMIDI: Int { namedPatches.count }

    /// One row per program, 0...127: waveform, attack, decay, sustain, release, cutoff, resonance, filter
    /// envelope amount, velocity sensitivity, reverb and chorus sends (`SynthPatch`'s fields), then the
    /// program's General MIDI name, which must be `GeneralMIDI.programName` of the row's number (the patch is
    /// named from there, lowercased).
    static let generalMIDIPatchTable: [SynthPatch] = {
        typealias Row = (Waveform, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, String)
        let rows: [Row] = [
            // 0-7 piano
            (.triangle, 0.002, 6, 0, 0.3, 2500, 0.1, 2, 0.8, 0, 0, "Acoustic Grand Piano"),
            (.saw, 0.002, 5, 0, 0.3, 3000, 0.1, 2, 0.8, 0.05, 0, "Bright Acoustic Piano"),
            (.triangle, 0.002, 4, 0, 0.3, 5000, 0.2, 1.5, 0.8, 0.05, 0, "Electric Grand Piano"),
            (.triangle, 0.002, 5, 0, 0.3, 3000, 0.2, 2, 0.8, 0.05, 0.03, "Honky-tonk Piano"),
            (.tine, 0.002, 3, 0, 0.4, 8000, 0, 0.5, 0.8, 0.1, 0.005, "Electric Piano 1"),
            (.tine, 0.001, 2.5, 0, 0.3, 12000, 0.1, 2, 0.8, 0.1, 0.015, "Electric Piano 2"),
            (.pulse, 0.001, 2.5, 0, 0.15, 6000, 0.1, 1, 0.3, 0.1, 0, "Harpsichord"),
            (.pulse, 0.001, 1.2, 0, 0.08, 3000, 0.4, 3, 0.8, 0, 0, "Clavinet"),
            // 8-15 chromatic percussion
            (.bell, 0.001, 4, 0, 0.3, 10000, 0, 0, 0.7, 0.2, 0, "Celesta"),
            (.bell, 0.001, 2.5, 0, 0.4, 20000, 0, 0, 0.7, 0.25, 0, "Glockenspiel"),
            (.bell, 0.001, 1.2, 0, 0.6, 20000, 0, 0, 0.5, 0.3, 0, "Music Box"),
            (.mallet, 0.002, 4, 0, 0.4, 20000, 0, 0, 0.8, 0.2, 0.02, "Vibraphone"),
            (.mallet, 0.001, 3.5, 0, 0.15, 4000, 0, 1, 0.8, 0.1, 0, "Marimba"),
            (.mallet, 0.001, 1.2, 0, 0.1, 20000, 0, 0, 0.8, 0.15, 0, "Xylophone"),
            (.bell, 0.001, 6, 0, 1, 8000, 0, 0, 0.7, 0.3, 0, "Tubular Bells"),
            (.bell, 0.001, 1.5, 0, 0.3, 8000, 0.1, 1, 0.8, 0.15, 0.01, "Dulcimer"),
            // 16-23 organ
            (.organ, 0.01, 0.1, 1, 0.05, 8000, 0, 0, 0.2, 0.1, 0.003, "Drawbar Organ"),
            (.organ, 0.002, 0.4, 0.7, 0.05, 6000, 0.1, 2, 0.3, 0.1, 0, "Percussive Organ"),
            (.organ, 0.005, 0.3, 0.8, 0.08, 2000, 0.7, 0, 0.3, 0.1, 0.015, "Rock Organ"),
            (.organ, 0.08, 0.3, 1, 1.2, 12000, 0, 0, 0.1, 0.5, 0, "Church Organ"),
            (.organ, 0.05, 0.2, 1, 0.1, 2000, 0, 0, 0.3, 0.1, 0, "Reed Organ"),
            (.vocal, 0.05, 0.2, 1, 0.1, 3000, 0.2, 0, 0.4, 0.1, 0.025, "Accordion"),
            (.vocal, 0.03, 0.4, 0.8, 0.1, 2000, 0.7, 0.5, 0.6, 0.1, 0, "Harmonica"),
            (.organ, 0.01, 0.2, 1, 0.1, 2500, 0.3, 0, 0.4, 0.1, 0.035, "Tango Accordion"),
            // 24-31 guitar
            (.plucked, 0.002, 3, 0, 0.25, 1800, 0.1, 2, 0.8, 0.1, 0, "Acoustic Guitar (nylon)"),
            (.plucked, 0.001, 3.5, 0, 0.2, 4000, 0.15, 2, 0.8, 0.1, 0.005, "Acoustic Guitar (steel)"),
            (.plucked, 0.002, 2.5, 0, 0.2, 1000, 0.1, 1, 0.8, 0.05, 0, "Electric Guitar (jazz)"),
            (.plucked, 0.001, 4, 0, 0.2, 2500, 0.1, 1, 0.8, 0.1, 0.02, "Electric Guitar (clean)"),
            (.plucked, 0.001, 0.8, 0, 0.05, 1200, 0.2, 2, 0.8, 0, 0, "Electric Guitar (muted)"),
            (.pulse, 0.002, 2, 0.4, 0.15, 2500, 0.6, 2, 0.7, 0.1, 0, "Overdriven Guitar"),
            (.square, 0.001, 3, 0.4, 0.15, 2500, 0.8, 2, 0.6, 0.1, 0.01, "Distortion Guitar"),
            (.sine, 0.001, 2, 0, 0.3, 20000, 0, 0, 0.7, 0.2, 0, "Guitar Harmonics"),
            // 32-39 bass
            (.bass, 0.002, 2, 0, 0.15, 800, 0.1, 1, 0.8, 0.05, 0, "Acoustic Bass"),
            (.bass, 0.002, 1.5, 0.3, 0.1, 1000, 0.15, 1.5, 0.8, 0, 0, "Electric Bass (finger)"),
            (.saw, 0.001, 2, 0.2, 0.1, 1200, 0.25, 2, 0.8, 0, 0, "Electric Bass (pick)"),
            (.bass, 0.03, 2, 0.4, 0.15, 700, 0.2, 0.5, 0.7, 0.05, 0.005, "Fretless Bass"),
            (.pulse, 0.001, 0.8, 0.1, 0.1, 1800, 0.3, 3, 0.9, 0, 0, "Slap Bass 1"),
            (.pulse, 0.001, 0.6, 0.1, 0.08, 2500, 0.35, 4, 0.9, 0, 0, "Slap Bass 2"),
            (.square, 0.002, 0.25, 0.5, 0.08, 500, 0.3, 2, 0.7, 0, 0, "Synth Bass 1"),
            (.saw, 0.002, 0.3, 0.4, 0.08, 700, 0.5, 3, 0.7, 0, 0, "Synth Bass 2"),
            // 40-47 strings
            (.bowed, 0.2, 1, 0.9, 0.3, 4000, 0.1, 0.5, 0.5, 0.2, 0.005, "Violin"),
            (.bowed, 0.22, 1, 0.9, 0.35, 2800, 0.1, 0.5, 0.5, 0.2, 0.005, "Viola"),
            (.bowed, 0.25, 1, 0.9, 0.4, 2000, 0.1, 0.5, 0.5, 0.2, 0.005, "Cello"),
            (.bowed, 0.28, 1, 0.9, 0.4, 1200, 0.1, 0.5, 0.5, 0.2, 0.003, "Contrabass"),
            (.bowed, 0.05, 0.3, 0.9, 0.3, 3000, 0.1, 0.5, 0.5, 0.3, 0.04, "Tremolo Strings"),
            (.bowed, 0.001, 0.8, 0, 0.15, 2000, 0.1, 2, 0.8, 0.2, 0, "Pizzicato Strings"),
            (.triangle, 0.001, 3, 0, 0.6, 5000, 0, 1, 0.7, 0.3, 0, "Orchestral Harp"),
            (.sine, 0.005, 1.5, 0, 0.5, 800, 0.1, 1, 0.9, 0.3, 0, "Timpani"),
            // 48-55 ensemble
            (.saw, 0.35, 1, 0.9, 0.8, 2200, 0.1, 0.5, 0.5, 0.3, 0.01, "String Ensemble 1"),
            (.bowed, 0.6, 1, 0.9, 1, 1800, 0.1, 0.5, 0.5, 0.35, 0.015, "String Ensemble 2"),
            (.saw, 0.15, 1, 0.85, 0.5, 4000, 0.5, 2, 0.5, 0.3, 0.025, "Synth Strings 1"),
            (.square, 0.2, 1, 0.85, 0.5, 2500, 0.2, 1, 0.5, 0.3, 0.025, "Synth Strings 2"),
            (.vocal, 0.25, 1, 0.9, 0.5, 5000, 0, 0, 0.4, 0.4, 0.015, "Choir Aahs"),
            (.vocal, 0.2, 1, 0.9, 0.4, 1200, 0, 0, 0.4, 0.4, 0.01, "Voice Oohs"),
            (.vocal, 0.1, 1, 0.85, 0.4, 3000, 0.3, 1, 0.5, 0.3, 0.025, "Synth Voice"),
            (.brassy, 0.001, 0.8, 0, 0.3, 8000, 0.2, 2, 0.9, 0.4, 0, "Orchestra Hit"),
            // 56-63 brass
            (.brassy, 0.08, 0.6, 0.6, 0.15, 2500, 0, 3, 0.6, 0.15, 0, "Trumpet"),
            (.brassy, 0.1, 0.5, 0.65, 0.2, 1500, 0.15, 1.5, 0.6, 0.15, 0, "Trombone"),
            (.brassy, 0.06, 0.5, 0.85, 0.2, 700, 0.1, 1, 0.6, 0.1, 0, "Tuba"),
            (.brassy, 0.05, 0.4, 0.6, 0.1, 5000, 0.6, 1, 0.6, 0.1, 0, "Muted Trumpet"),
            (.brassy, 0.15, 0.6, 0.95, 0.4, 500, 0, 1, 0.5, 0.25, 0, "French Horn"),
            (.saw, 0.04, 0.5, 0.65, 0.15, 1200, 0.2, 2, 0.6, 0.15, 0, "Brass Section"),
            (.saw, 0.15, 0.4, 0.7, 0.15, 1600, 0.3, 3, 0.6, 0.1, 0.015, "Synth Brass 1"),
            (.brassy, 0.15, 0.6, 0.8, 0.2, 1400, 0.3, 3, 0.6, 0.15, 0.02, "Synth Brass 2"),
            // 64-71 reed
            (.square, 0.05, 0.3, 0.8, 0.15, 3000, 0.15, 1, 0.5, 0.15, 0, "Soprano Sax"),
            (.square, 0.05, 0.3, 0.8, 0.15, 2000, 0.15, 1, 0.5, 0.15, 0, "Alto Sax"),
            (.square, 0.05, 0.3, 0.8, 0.15, 1400, 0.2, 1, 0.5, 0.15, 0, "Tenor Sax"),
            (.square, 0.05, 0.3, 0.8, 0.15, 900, 0.2, 1, 0.5, 0.15, 0, "Baritone Sax"),
            (.nasal, 0.03, 0.3, 0.9, 0.1, 6000, 0.1, 0, 0.5, 0.15, 0, "Oboe"),
            (.nasal, 0.04, 0.3, 0.9, 0.12, 3000, 0.1, 0, 0.5, 0.15, 0, "English Horn"),
            (.nasal, 0.04, 0.3, 0.9, 0.12, 1500, 0.1, 0, 0.5, 0.15, 0, "Bassoon"),
            (.clarinet, 0.03, 0.3, 0.9, 0.1, 4000, 0, 0, 0.5, 0.15, 0, "Clarinet"),
            // 72-79 pipe
            (.sine, 0.06, 0.3, 0.9, 0.12, 10000, 0, 0, 0.4, 0.2, 0, "Piccolo"),
            (.triangle, 0.05, 0.3, 0.9, 0.15, 5000, 0, 0.5, 0.4, 0.2, 0, "Flute"),
            (.triangle, 0.03, 0.3, 0.9, 0.1, 1500, 0, 0, 0.4, 0.15, 0, "Recorder"),
            (.triangle, 0.08, 0.4, 0.85, 0.2, 2500, 0.1, 0, 0.4, 0.3, 0.01, "Pan Flute"),
            (.sine, 0.1, 0.3, 0.9, 0.2, 20000, 0, 0, 0.4, 0.2, 0, "Blown Bottle"),
            (.triangle, 0.06, 0.4, 0.85, 0.2, 3000, 0.2, 1, 0.5, 0.2, 0, "Shakuhachi"),
            (.sine, 0.03, 0.2, 0.95, 0.1, 20000, 0, 0, 0.4, 0.15, 0, "Whistle"),
            (.sine, 0.05, 0.5, 0.8, 0.1, 20000, 0, 0, 0.4, 0.1, 0, "Ocarina"),
            // 80-87 synth lead
            (.square, 0.001, 0.2, 1, 0.1, 6000, 0.85, 2, 0.6, 0.1, 0, "Lead 1 (square)"),
            (.saw, 0.001, 0.2, 1, 0.1, 6000, 0.85, 2.5, 0.6, 0, 0, "Lead 2 (sawtooth)"),
            (.fifths, 0.001, 0.2, 1, 0.1, 1500, 0.85, 0, 0.5, 0.1, 0.015, "Lead 3 (calliope)"),
            (.pulse, 0.001, 0.1, 0.9, 0.15, 4000, 0.6, 3, 0.6, 0.1, 0, "Lead 4 (chiff)"),
            (.pulse, 0.001, 0.2, 1, 0.1, 5000, 0.9, 2, 0.6, 0.1, 0.01, "Lead 5 (charang)"),
            (.vocal, 0.001, 0.1, 1, 0.2, 3000, 0.9, 3, 0.6, 0.1, 0.015, "Lead 6 (voice)"),
            (.fifths, 0.001, 0.2, 1, 0.15, 2000, 0.85, 1, 0.6, 0.1, 0, "Lead 7 (fifths)"),
            (.bass, 0.001, 0.2, 1, 0.1, 2000, 0.85, 3, 0.7, 0.05, 0, "Lead 8 (bass + lead)"),
            // 88-95 synth pad
            (.bell, 0.4, 2, 0.6, 1.5, 6000, 0.1, 0, 0.4, 0.4, 0.015, "Pad 1 (new age)"),
            (.triangle, 0.6, 1.5, 0.8, 1.5, 2500, 0.1, 1, 0.4, 0.3, 0.015, "Pad 2 (warm)"),
            (.saw, 0.05, 1.5, 0.6, 0.8, 2500, 0.3, 2, 0.5, 0.3, 0.02, "Pad 3 (polysynth)"),
            (.vocal, 0.7, 2, 0.85, 1.5, 3000, 0, 0, 0.4, 0.5, 0.015, "Pad 4 (choir)"),
            (.bowed, 1.2, 2, 0.6, 1.2, 1500, 0.3, 1, 0.4, 0.4, 0.01, "Pad 5 (bowed)"),
            (.bell, 0.3, 2, 0.7, 1.5, 8000, 0.3, 1, 0.4, 0.4, 0.02, "Pad 6 (metallic)"),
            (.vocal, 0.8, 2, 0.8, 2, 2000, 0.2, 0.5, 0.3, 0.5, 0.025, "Pad 7 (halo)"),
            (.saw, 1.5, 2, 0.8, 1.5, 800, 0.8, 5, 0.4, 0.4, 0.015, "Pad 8 (sweep)"),
            // 96-103 synth effects
            (.noise, 0.001, 1, 0.3, 0.6, 12000, 0.3, 1, 0.6, 0.5, 0.015, "FX 1 (rain)"),
            (.fifths, 0.6, 2, 0.7, 1.5, 1500, 0.3, 2, 0.4, 0.5, 0.015, "FX 2 (soundtrack)"),
            (.bell, 0.001, 1, 0.3, 1.5, 12000, 0.1, 0, 0.6, 0.5, 0.015, "FX 3 (crystal)"),
            (.plucked, 0.002, 3, 0.5, 1.5, 3000, 0.2, 1, 0.5, 0.5, 0.015, "FX 4 (atmosphere)"),
            (.brassy, 0.3, 1.5, 0.8, 1.2, 10000, 0.1, 0, 0.4, 0.5, 0.015, "FX 5 (brightness)"),
            (.noise, 0.8, 2, 0.7, 1.5, 2500, 0.7, 3, 0.4, 0.5, 0.02, "FX 6 (goblins)"),
            (.tine, 0.01, 2, 0.5, 2, 4000, 0.2, 1, 0.5, 0.8, 0.015, "FX 7 (echoes)"),
            (.square, 0.3, 2, 0.6, 1.5, 2000, 0.7, 4, 0.4, 0.5, 0.02, "FX 8 (sci-fi)"),
            // 104-111 ethnic
            (.plucked, 0.001, 2, 0, 0.3, 2500, 0.7, 1, 0.7, 0.15, 0.01, "Sitar"),
            (.nasal, 0.001, 3.5, 0, 0.15, 5000, 0.3, 1, 0.8, 0.1, 0, "Banjo"),
            (.pulse, 0.001, 0.8, 0, 0.15, 3500, 0.3, 2, 0.8, 0.1, 0, "Shamisen"),
            (.plucked, 0.001, 2, 0, 0.3, 4000, 0.2, 1.5, 0.8, 0.2, 0, "Koto"),
            (.tine, 0.001, 1.5, 0, 0.2, 6000, 0, 0, 0.8, 0.2, 0, "Kalimba"),
            (.nasal, 0.005, 0.3, 1, 0.1, 1200, 0.9, 0, 0.2, 0.15, 0, "Bagpipe"),
            (.fifths, 0.15, 1, 0.8, 0.2, 6000, 0.3, 0.5, 0.6, 0.15, 0, "Fiddle"),
            (.nasal, 0.001, 0.8, 0.5, 0.1, 9000, 0.5, 1, 0.6, 0.15, 0, "Shanai"),
            // 112-119 percussive
            (.bell, 0.001, 0.6, 0, 0.3, 20000, 0, 0, 0.9, 0.3, 0, "Tinkle Bell"),
            (.mallet, 0.001, 0.4, 0, 0.15, 3000, 0.5, 0, 0.8, 0.2, 0, "Agogo"),
            (.tine, 0.001, 1.2, 0, 0.3, 6000, 0.1, 1, 0.8, 0.2, 0.01, "Steel Drums"),
            (.sine, 0.001, 0.3, 0, 0.05, 20000, 0, 0, 0.9, 0.1, 0, "Woodblock"),
            (.bass, 0.002, 1.2, 0, 0.4, 600, 0.1, 2, 0.9, 0.3, 0, "Taiko Drum"),
            (.sine, 0.002, 1, 0, 0.3, 2000, 0.1, 0, 0.9, 0.2, 0, "Melodic Tom"),
            (.square, 0.001, 0.8, 0, 0.2, 1500, 0.5, 4, 0.9, 0.2, 0, "Synth Drum"),
            (.noise, 0.9, 0.1, 1, 0.05, 16000, 0.1, 0, 0.5, 0.3, 0, "Reverse Cymbal"),
            // 120-127 sound effects
            (.noise, 0.001, 0.3, 0, 0.05, 8000, 0.4, 2, 0.8, 0, 0, "Guitar Fret Noise"),
            (.noise, 0.05, 0.3, 0.7, 0.2, 6000, 0.2, 0, 0.5, 0.1, 0, "Breath Noise"),
            (.noise, 1, 2, 0.6, 2, 5000, 0.1, 0, 0.3, 0.5, 0, "Seashore"),
            (.fifths, 0.02, 0.2, 0.3, 0.1, 20000, 0, 0, 0.5, 0.3, 0, "Bird Tweet"),
            (.bell, 0.001, 0.1, 1, 0.05, 8000, 0, 0, 0.8, 0.1, 0, "Telephone Ring"),
            (.noise, 0.3, 1, 0.9, 0.5, 2000, 0.6, 0, 0.4, 0.2, 0, "Helicopter"),
            (.noise, 0.4, 1, 0.8, 1, 10000, 0, 0, 0.4, 0.5, 0, "Applause"),
            (.noise, 0.001, 1, 0, 0.2, 6000, 0.2, 2, 0.9, 0.4, 0, "Gunshot"),
        ]
        return rows.enumerated().map { program, r in
            precondition(r.11 == GeneralMIDI.programName(UInt8(program)), "GM patch row \(program) is named \(r.11)")
            return SynthPatch(name: r.11.lowercased(), waveform: r.0, attack: r.1, decay: r.2, sustain: r.3,
                              release: r.4, cutoff: r.5, resonance: r.6, filterEnvelopeAmount: r.7,
                              velocitySensitivity: r.8, reverbSend: r.9, chorusSend: r.10)
        }
    }()
}
