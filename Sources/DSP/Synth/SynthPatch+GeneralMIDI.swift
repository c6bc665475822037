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
    /// envelope amount, velocity sensitivity, reverb and chorus sends (`SynthPatch`'s fields).
    static let generalMIDIPatchTable: [SynthPatch] = {
        typealias Row = (Waveform, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float)
        let rows: [Row] = [
            // 0-7 piano
            (.triangle, 0.002, 6, 0, 0.3, 2500, 0.1, 2, 0.8, 0, 0), // 0 Acoustic Grand Piano
            (.saw, 0.002, 5, 0, 0.3, 3000, 0.1, 2, 0.8, 0.05, 0), // 1 Bright Acoustic Piano
            (.triangle, 0.002, 4, 0, 0.3, 5000, 0.2, 1.5, 0.8, 0.05, 0), // 2 Electric Grand Piano
            (.triangle, 0.002, 5, 0, 0.3, 3000, 0.2, 2, 0.8, 0.05, 0.03), // 3 Honky-tonk Piano
            (.tine, 0.002, 3, 0, 0.4, 8000, 0, 0.5, 0.8, 0.1, 0.005), // 4 Electric Piano 1
            (.tine, 0.001, 2.5, 0, 0.3, 12000, 0.1, 2, 0.8, 0.1, 0.015), // 5 Electric Piano 2
            (.pulse, 0.001, 2.5, 0, 0.15, 6000, 0.1, 1, 0.3, 0.1, 0), // 6 Harpsichord
            (.pulse, 0.001, 1.2, 0, 0.08, 3000, 0.4, 3, 0.8, 0, 0), // 7 Clavinet
            // 8-15 chromatic percussion
            (.bell, 0.001, 4, 0, 0.3, 10000, 0, 0, 0.7, 0.2, 0), // 8 Celesta
            (.bell, 0.001, 2.5, 0, 0.4, 20000, 0, 0, 0.7, 0.25, 0), // 9 Glockenspiel
            (.bell, 0.001, 1.2, 0, 0.6, 20000, 0, 0, 0.5, 0.3, 0), // 10 Music Box
            (.mallet, 0.002, 4, 0, 0.4, 20000, 0, 0, 0.8, 0.2, 0.02), // 11 Vibraphone
            (.mallet, 0.001, 3.5, 0, 0.15, 4000, 0, 1, 0.8, 0.1, 0), // 12 Marimba
            (.mallet, 0.001, 1.2, 0, 0.1, 20000, 0, 0, 0.8, 0.15, 0), // 13 Xylophone
            (.bell, 0.001, 6, 0, 1, 8000, 0, 0, 0.7, 0.3, 0), // 14 Tubular Bells
            (.bell, 0.001, 1.5, 0, 0.3, 8000, 0.1, 1, 0.8, 0.15, 0.01), // 15 Dulcimer
            // 16-23 organ
            (.organ, 0.01, 0.1, 1, 0.05, 8000, 0, 0, 0.2, 0.1, 0.003), // 16 Drawbar Organ
            (.organ, 0.002, 0.4, 0.7, 0.05, 6000, 0.1, 2, 0.3, 0.1, 0), // 17 Percussive Organ
            (.organ, 0.005, 0.3, 0.8, 0.08, 2000, 0.7, 0, 0.3, 0.1, 0.015), // 18 Rock Organ
            (.organ, 0.08, 0.3, 1, 1.2, 12000, 0, 0, 0.1, 0.5, 0), // 19 Church Organ
            (.organ, 0.05, 0.2, 1, 0.1, 2000, 0, 0, 0.3, 0.1, 0), // 20 Reed Organ
            (.vocal, 0.05, 0.2, 1, 0.1, 3000, 0.2, 0, 0.4, 0.1, 0.025), // 21 Accordion
            (.vocal, 0.03, 0.4, 0.8, 0.1, 2000, 0.7, 0.5, 0.6, 0.1, 0), // 22 Harmonica
            (.organ, 0.01, 0.2, 1, 0.1, 2500, 0.3, 0, 0.4, 0.1, 0.035), // 23 Tango Accordion
            // 24-31 guitar
            (.plucked, 0.002, 3, 0, 0.25, 1800, 0.1, 2, 0.8, 0.1, 0), // 24 Acoustic Guitar (nylon)
            (.plucked, 0.001, 3.5, 0, 0.2, 4000, 0.15, 2, 0.8, 0.1, 0.005), // 25 Acoustic Guitar (steel)
            (.plucked, 0.002, 2.5, 0, 0.2, 1000, 0.1, 1, 0.8, 0.05, 0), // 26 Electric Guitar (jazz)
            (.plucked, 0.001, 4, 0, 0.2, 2500, 0.1, 1, 0.8, 0.1, 0.02), // 27 Electric Guitar (clean)
            (.plucked, 0.001, 0.8, 0, 0.05, 1200, 0.2, 2, 0.8, 0, 0), // 28 Electric Guitar (muted)
            (.pulse, 0.002, 2, 0.4, 0.15, 2500, 0.6, 2, 0.7, 0.1, 0), // 29 Overdriven Guitar
            (.square, 0.001, 3, 0.4, 0.15, 2500, 0.8, 2, 0.6, 0.1, 0.01), // 30 Distortion Guitar
            (.sine, 0.001, 2, 0, 0.3, 20000, 0, 0, 0.7, 0.2, 0), // 31 Guitar Harmonics
            // 32-39 bass
            (.bass, 0.002, 2, 0, 0.15, 800, 0.1, 1, 0.8, 0.05, 0), // 32 Acoustic Bass
            (.bass, 0.002, 1.5, 0.3, 0.1, 1000, 0.15, 1.5, 0.8, 0, 0), // 33 Electric Bass (finger)
            (.saw, 0.001, 2, 0.2, 0.1, 1200, 0.25, 2, 0.8, 0, 0), // 34 Electric Bass (pick)
            (.bass, 0.03, 2, 0.4, 0.15, 700, 0.2, 0.5, 0.7, 0.05, 0.005), // 35 Fretless Bass
            (.pulse, 0.001, 0.8, 0.1, 0.1, 1800, 0.3, 3, 0.9, 0, 0), // 36 Slap Bass 1
            (.pulse, 0.001, 0.6, 0.1, 0.08, 2500, 0.35, 4, 0.9, 0, 0), // 37 Slap Bass 2
            (.square, 0.002, 0.25, 0.5, 0.08, 500, 0.3, 2, 0.7, 0, 0), // 38 Synth Bass 1
            (.saw, 0.002, 0.3, 0.4, 0.08, 700, 0.5, 3, 0.7, 0, 0), // 39 Synth Bass 2
            // 40-47 strings
            (.bowed, 0.2, 1, 0.9, 0.3, 4000, 0.1, 0.5, 0.5, 0.2, 0.005), // 40 Violin
            (.bowed, 0.22, 1, 0.9, 0.35, 2800, 0.1, 0.5, 0.5, 0.2, 0.005), // 41 Viola
            (.bowed, 0.25, 1, 0.9, 0.4, 2000, 0.1, 0.5, 0.5, 0.2, 0.005), // 42 Cello
            (.bowed, 0.28, 1, 0.9, 0.4, 1200, 0.1, 0.5, 0.5, 0.2, 0.003), // 43 Contrabass
            (.bowed, 0.05, 0.3, 0.9, 0.3, 3000, 0.1, 0.5, 0.5, 0.3, 0.04), // 44 Tremolo Strings
            (.bowed, 0.001, 0.8, 0, 0.15, 2000, 0.1, 2, 0.8, 0.2, 0), // 45 Pizzicato Strings
            (.triangle, 0.001, 3, 0, 0.6, 5000, 0, 1, 0.7, 0.3, 0), // 46 Orchestral Harp
            (.sine, 0.005, 1.5, 0, 0.5, 800, 0.1, 1, 0.9, 0.3, 0), // 47 Timpani
            // 48-55 ensemble
            (.saw, 0.35, 1, 0.9, 0.8, 2200, 0.1, 0.5, 0.5, 0.3, 0.01), // 48 String Ensemble 1
            (.bowed, 0.6, 1, 0.9, 1, 1800, 0.1, 0.5, 0.5, 0.35, 0.015), // 49 String Ensemble 2
            (.saw, 0.15, 1, 0.85, 0.5, 4000, 0.5, 2, 0.5, 0.3, 0.025), // 50 Synth Strings 1
            (.square, 0.2, 1, 0.85, 0.5, 2500, 0.2, 1, 0.5, 0.3, 0.025), // 51 Synth Strings 2
            (.vocal, 0.25, 1, 0.9, 0.5, 5000, 0, 0, 0.4, 0.4, 0.015), // 52 Choir Aahs
            (.vocal, 0.2, 1, 0.9, 0.4, 1200, 0, 0, 0.4, 0.4, 0.01), // 53 Voice Oohs
            (.vocal, 0.1, 1, 0.85, 0.4, 3000, 0.3, 1, 0.5, 0.3, 0.025), // 54 Synth Voice
            (.brassy, 0.001, 0.8, 0, 0.3, 8000, 0.2, 2, 0.9, 0.4, 0), // 55 Orchestra Hit
            // 56-63 brass
            (.brassy, 0.08, 0.6, 0.6, 0.15, 2500, 0, 3, 0.6, 0.15, 0), // 56 Trumpet
            (.brassy, 0.1, 0.5, 0.65, 0.2, 1500, 0.15, 1.5, 0.6, 0.15, 0), // 57 Trombone
            (.brassy, 0.06, 0.5, 0.85, 0.2, 700, 0.1, 1, 0.6, 0.1, 0), // 58 Tuba
            (.brassy, 0.05, 0.4, 0.6, 0.1, 5000, 0.6, 1, 0.6, 0.1, 0), // 59 Muted Trumpet
            (.brassy, 0.15, 0.6, 0.95, 0.4, 500, 0, 1, 0.5, 0.25, 0), // 60 French Horn
            (.saw, 0.04, 0.5, 0.65, 0.15, 1200, 0.2, 2, 0.6, 0.15, 0), // 61 Brass Section
            (.saw, 0.15, 0.4, 0.7, 0.15, 1600, 0.3, 3, 0.6, 0.1, 0.015), // 62 Synth Brass 1
            (.brassy, 0.15, 0.6, 0.8, 0.2, 1400, 0.3, 3, 0.6, 0.15, 0.02), // 63 Synth Brass 2
            // 64-71 reed
            (.square, 0.05, 0.3, 0.8, 0.15, 3000, 0.15, 1, 0.5, 0.15, 0), // 64 Soprano Sax
            (.square, 0.05, 0.3, 0.8, 0.15, 2000, 0.15, 1, 0.5, 0.15, 0), // 65 Alto Sax
            (.square, 0.05, 0.3, 0.8, 0.15, 1400, 0.2, 1, 0.5, 0.15, 0), // 66 Tenor Sax
            (.square, 0.05, 0.3, 0.8, 0.15, 900, 0.2, 1, 0.5, 0.15, 0), // 67 Baritone Sax
            (.nasal, 0.03, 0.3, 0.9, 0.1, 6000, 0.1, 0, 0.5, 0.15, 0), // 68 Oboe
            (.nasal, 0.04, 0.3, 0.9, 0.12, 3000, 0.1, 0, 0.5, 0.15, 0), // 69 English Horn
            (.nasal, 0.04, 0.3, 0.9, 0.12, 1500, 0.1, 0, 0.5, 0.15, 0), // 70 Bassoon
            (.clarinet, 0.03, 0.3, 0.9, 0.1, 4000, 0, 0, 0.5, 0.15, 0), // 71 Clarinet
            // 72-79 pipe
            (.sine, 0.06, 0.3, 0.9, 0.12, 10000, 0, 0, 0.4, 0.2, 0), // 72 Piccolo
            (.triangle, 0.05, 0.3, 0.9, 0.15, 5000, 0, 0.5, 0.4, 0.2, 0), // 73 Flute
            (.triangle, 0.03, 0.3, 0.9, 0.1, 1500, 0, 0, 0.4, 0.15, 0), // 74 Recorder
            (.triangle, 0.08, 0.4, 0.85, 0.2, 2500, 0.1, 0, 0.4, 0.3, 0.01), // 75 Pan Flute
            (.sine, 0.1, 0.3, 0.9, 0.2, 20000, 0, 0, 0.4, 0.2, 0), // 76 Blown Bottle
            (.triangle, 0.06, 0.4, 0.85, 0.2, 3000, 0.2, 1, 0.5, 0.2, 0), // 77 Shakuhachi
            (.sine, 0.03, 0.2, 0.95, 0.1, 20000, 0, 0, 0.4, 0.15, 0), // 78 Whistle
            (.sine, 0.05, 0.5, 0.8, 0.1, 20000, 0, 0, 0.4, 0.1, 0), // 79 Ocarina
            // 80-87 synth lead
            (.square, 0.001, 0.2, 1, 0.1, 6000, 0.85, 2, 0.6, 0.1, 0), // 80 Lead 1 (square)
            (.saw, 0.001, 0.2, 1, 0.1, 6000, 0.85, 2.5, 0.6, 0, 0), // 81 Lead 2 (sawtooth)
            (.fifths, 0.001, 0.2, 1, 0.1, 1500, 0.85, 0, 0.5, 0.1, 0.015), // 82 Lead 3 (calliope)
            (.pulse, 0.001, 0.1, 0.9, 0.15, 4000, 0.6, 3, 0.6, 0.1, 0), // 83 Lead 4 (chiff)
            (.pulse, 0.001, 0.2, 1, 0.1, 5000, 0.9, 2, 0.6, 0.1, 0.01), // 84 Lead 5 (charang)
            (.vocal, 0.001, 0.1, 1, 0.2, 3000, 0.9, 3, 0.6, 0.1, 0.015), // 85 Lead 6 (voice)
            (.fifths, 0.001, 0.2, 1, 0.15, 2000, 0.85, 1, 0.6, 0.1, 0), // 86 Lead 7 (fifths)
            (.bass, 0.001, 0.2, 1, 0.1, 2000, 0.85, 3, 0.7, 0.05, 0), // 87 Lead 8 (bass + lead)
            // 88-95 synth pad
            (.bell, 0.4, 2, 0.6, 1.5, 6000, 0.1, 0, 0.4, 0.4, 0.015), // 88 Pad 1 (new age)
            (.triangle, 0.6, 1.5, 0.8, 1.5, 2500, 0.1, 1, 0.4, 0.3, 0.015), // 89 Pad 2 (warm)
            (.saw, 0.05, 1.5, 0.6, 0.8, 2500, 0.3, 2, 0.5, 0.3, 0.02), // 90 Pad 3 (polysynth)
            (.vocal, 0.7, 2, 0.85, 1.5, 3000, 0, 0, 0.4, 0.5, 0.015), // 91 Pad 4 (choir)
            (.bowed, 1.2, 2, 0.6, 1.2, 1500, 0.3, 1, 0.4, 0.4, 0.01), // 92 Pad 5 (bowed)
            (.bell, 0.3, 2, 0.7, 1.5, 8000, 0.3, 1, 0.4, 0.4, 0.02), // 93 Pad 6 (metallic)
            (.vocal, 0.8, 2, 0.8, 2, 2000, 0.2, 0.5, 0.3, 0.5, 0.025), // 94 Pad 7 (halo)
            (.saw, 1.5, 2, 0.8, 1.5, 800, 0.8, 5, 0.4, 0.4, 0.015), // 95 Pad 8 (sweep)
            // 96-103 synth effects
            (.noise, 0.001, 1, 0.3, 0.6, 12000, 0.3, 1, 0.6, 0.5, 0.015), // 96 FX 1 (rain)
            (.fifths, 0.6, 2, 0.7, 1.5, 1500, 0.3, 2, 0.4, 0.5, 0.015), // 97 FX 2 (soundtrack)
            (.bell, 0.001, 1, 0.3, 1.5, 12000, 0.1, 0, 0.6, 0.5, 0.015), // 98 FX 3 (crystal)
            (.plucked, 0.002, 3, 0.5, 1.5, 3000, 0.2, 1, 0.5, 0.5, 0.015), // 99 FX 4 (atmosphere)
            (.brassy, 0.3, 1.5, 0.8, 1.2, 10000, 0.1, 0, 0.4, 0.5, 0.015), // 100 FX 5 (brightness)
            (.noise, 0.8, 2, 0.7, 1.5, 2500, 0.7, 3, 0.4, 0.5, 0.02), // 101 FX 6 (goblins)
            (.tine, 0.01, 2, 0.5, 2, 4000, 0.2, 1, 0.5, 0.8, 0.015), // 102 FX 7 (echoes)
            (.square, 0.3, 2, 0.6, 1.5, 2000, 0.7, 4, 0.4, 0.5, 0.02), // 103 FX 8 (sci-fi)
            // 104-111 ethnic
            (.plucked, 0.001, 2, 0, 0.3, 2500, 0.7, 1, 0.7, 0.15, 0.01), // 104 Sitar
            (.nasal, 0.001, 3.5, 0, 0.15, 5000, 0.3, 1, 0.8, 0.1, 0), // 105 Banjo
            (.pulse, 0.001, 0.8, 0, 0.15, 3500, 0.3, 2, 0.8, 0.1, 0), // 106 Shamisen
            (.plucked, 0.001, 2, 0, 0.3, 4000, 0.2, 1.5, 0.8, 0.2, 0), // 107 Koto
            (.tine, 0.001, 1.5, 0, 0.2, 6000, 0, 0, 0.8, 0.2, 0), // 108 Kalimba
            (.nasal, 0.005, 0.3, 1, 0.1, 1200, 0.9, 0, 0.2, 0.15, 0), // 109 Bagpipe
            (.fifths, 0.15, 1, 0.8, 0.2, 6000, 0.3, 0.5, 0.6, 0.15, 0), // 110 Fiddle
            (.nasal, 0.001, 0.8, 0.5, 0.1, 9000, 0.5, 1, 0.6, 0.15, 0), // 111 Shanai
            // 112-119 percussive
            (.bell, 0.001, 0.6, 0, 0.3, 20000, 0, 0, 0.9, 0.3, 0), // 112 Tinkle Bell
            (.mallet, 0.001, 0.4, 0, 0.15, 3000, 0.5, 0, 0.8, 0.2, 0), // 113 Agogo
            (.tine, 0.001, 1.2, 0, 0.3, 6000, 0.1, 1, 0.8, 0.2, 0.01), // 114 Steel Drums
            (.sine, 0.001, 0.3, 0, 0.05, 20000, 0, 0, 0.9, 0.1, 0), // 115 Woodblock
            (.bass, 0.002, 1.2, 0, 0.4, 600, 0.1, 2, 0.9, 0.3, 0), // 116 Taiko Drum
            (.sine, 0.002, 1, 0, 0.3, 2000, 0.1, 0, 0.9, 0.2, 0), // 117 Melodic Tom
            (.square, 0.001, 0.8, 0, 0.2, 1500, 0.5, 4, 0.9, 0.2, 0), // 118 Synth Drum
            (.noise, 0.9, 0.1, 1, 0.05, 16000, 0.1, 0, 0.5, 0.3, 0), // 119 Reverse Cymbal
            // 120-127 sound effects
            (.noise, 0.001, 0.3, 0, 0.05, 8000, 0.4, 2, 0.8, 0, 0), // 120 Guitar Fret Noise
            (.noise, 0.05, 0.3, 0.7, 0.2, 6000, 0.2, 0, 0.5, 0.1, 0), // 121 Breath Noise
            (.noise, 1, 2, 0.6, 2, 5000, 0.1, 0, 0.3, 0.5, 0), // 122 Seashore
            (.fifths, 0.02, 0.2, 0.3, 0.1, 20000, 0, 0, 0.5, 0.3, 0), // 123 Bird Tweet
            (.bell, 0.001, 0.1, 1, 0.05, 8000, 0, 0, 0.8, 0.1, 0), // 124 Telephone Ring
            (.noise, 0.3, 1, 0.9, 0.5, 2000, 0.6, 0, 0.4, 0.2, 0), // 125 Helicopter
            (.noise, 0.4, 1, 0.8, 1, 10000, 0, 0, 0.4, 0.5, 0), // 126 Applause
            (.noise, 0.001, 1, 0, 0.2, 6000, 0.2, 2, 0.9, 0.4, 0), // 127 Gunshot
        ]
        return rows.enumerated().map { program, r in
            SynthPatch(name: GeneralMIDI.programName(UInt8(program)).lowercased(), waveform: r.0, attack: r.1,
                       decay: r.2, sustain: r.3, release: r.4, cutoff: r.5, resonance: r.6,
                       filterEnvelopeAmount: r.7, velocitySensitivity: r.8, reverbSend: r.9, chorusSend: r.10)
        }
    }()
}
