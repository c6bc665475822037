import MIDI

/// A format 0 file, 96 ticks a quarter at 120 BPM, 60 beats (30 s): on every beat channel 1 strikes A5 (880 Hz)
/// and channel 2 E4 (329.6 Hz; neither a harmonic of the other), each held 0.45 s at `velocity`, after
/// `prefix` (events at tick 0, e.g. effect sends). The mixer's and the channel outputs' system tests hear
/// each channel apart by its pitch.
public func twoChannelSong(velocity: UInt8, prefix: [UInt8] = []) -> [UInt8] {
    var track = prefix
    for beat in 0..<60 {
        track += [beat == 0 ? 0 : 0x0C, 0x90, 81, velocity, 0x00, 0x91, 64, velocity]  // 12 ticks after the last note-off
        track += [0x56, 0x80, 81, 0, 0x00, 0x81, 64, 0]                               // 86 ticks (0.45 s) on
    }
    track += [0x0A, 0xFF, 0x2F, 0x00]
    return SMFEncoder.header(format: 0, tracks: 1, division: .ticksPerQuarterNote(96)) + SMFEncoder.trackChunk(track)
}
