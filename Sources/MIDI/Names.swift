/// Which octave number middle C (note 60) gets in note names.
public enum MiddleC: Sendable {
    /// Note 60 is C4, note 0 is C-1, note 127 is G9 (scientific pitch, the default).
    case c4
    /// Note 60 is C3, note 0 is C-2, note 127 is G8 (Yamaha, many DAWs).
    case c3
}

/// Note names.
public enum NoteName {
    static let pitchClasses = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    /// The name of a MIDI note number, e.g. 60 is "C4", 61 "C#4", 0 "C-1", 127 "G9".
    public static func name(of note: UInt8, middleC: MiddleC = .c4) -> String {
        let octave = Int(note / 12) - (middleC == .c4 ? 1 : 2)
        return pitchClasses[Int(note % 12)] + String(octave)
    }
}

/// General MIDI Level 1 names.
public enum GeneralMIDI {
    /// The 128 GM program (instrument) names, indexed by program number 0...127.
    public static let programNames: [String] = [
        "Acoustic Grand Piano", "Bright Acoustic Piano", "Electric Grand Piano", "Honky-tonk Piano",
        "Electric Piano 1", "Electric Piano 2", "Harpsichord", "Clavinet",
        "Celesta", "Glockenspiel", "Music Box", "Vibraphone", "Marimba", "Xylophone", "Tubular Bells", "Dulcimer",
        "Drawbar Organ", "Percussive Organ", "Rock Organ", "Church Organ", "Reed Organ", "Accordion", "Harmonica",
        "Tango Accordion",
        "Acoustic Guitar (nylon)", "Acoustic Guitar (steel)", "Electric Guitar (jazz)", "Electric Guitar (clean)",
        "Electric Guitar (muted)", "Overdriven Guitar", "Distortion Guitar", "Guitar Harmonics",
        "Acoustic Bass", "Electric Bass (finger)", "Electric Bass (pick)", "Fretless Bass", "Slap Bass 1",
        "Slap Bass 2", "Synth Bass 1", "Synth Bass 2",
        "Violin", "Viola", "Cello", "Contrabass", "Tremolo Strings", "Pizzicato Strings", "Orchestral Harp",
        "Timpani",
        "String Ensemble 1", "String Ensemble 2", "Synth Strings 1", "Synth Strings 2", "Choir Aahs", "Voice Oohs",
        "Synth Voice", "Orchestra Hit",
        "Trumpet", "Trombone", "Tuba", "Muted Trumpet", "French Horn", "Brass Section", "Synth Brass 1",
        "Synth Brass 2",
        "Soprano Sax", "Alto Sax", "Tenor Sax", "Baritone Sax", "Oboe", "English Horn", "Bassoon", "Clarinet",
        "Piccolo", "Flute", "Recorder", "Pan Flute", "Blown Bottle", "Shakuhachi", "Whistle", "Ocarina",
        "Lead 1 (square)", "Lead 2 (sawtooth)", "Lead 3 (calliope)", "Lead 4 (chiff)", "Lead 5 (charang)",
        "Lead 6 (voice)", "Lead 7 (fifths)", "Lead 8 (bass + lead)",
        "Pad 1 (new age)", "Pad 2 (warm)", "Pad 3 (polysynth)", "Pad 4 (choir)", "Pad 5 (bowed)", "Pad 6 (metallic)",
        "Pad 7 (halo)", "Pad 8 (sweep)",
        "FX 1 (rain)", "FX 2 (soundtrack)", "FX 3 (crystal)", "FX 4 (atmosphere)", "FX 5 (brightness)",
        "FX 6 (goblins)", "FX 7 (echoes)", "FX 8 (sci-fi)",
        "Sitar", "Banjo", "Shamisen", "Koto", "Kalimba", "Bagpipe", "Fiddle", "Shanai",
        "Tinkle Bell", "Agogo", "Steel Drums", "Woodblock", "Taiko Drum", "Melodic Tom", "Synth Drum",
        "Reverse Cymbal",
        "Guitar Fret Noise", "Breath Noise", "Seashore", "Bird Tweet", "Telephone Ring", "Helicopter", "Applause",
        "Gunshot",
    ]

    /// The GM program name of `program` (0...127; masked to 7 bits).
    public static func programName(_ program: UInt8) -> String { programNames[Int(program & 0x7F)] }

    /// The name of a defined controller (MIDI 1.0 / GM), channel mode messages 120...127 included;
    /// nil for undefined controller numbers (see ``Controller/name``).
    public static func controllerName(_ controller: UInt8) -> String? { Controller(rawValue: controller).name }

    /// The name of a registered parameter number (RPN), or nil when not defined by MIDI 1.0.
    public static func registeredParameterName(_ parameter: UInt16) -> String? { RegisteredParameter(rawValue: parameter)?.name }
}
