import SFZ
import TextOutput

// The regions whose sound follows the note or the wheel beyond their key and velocity ranges, by opcode family:
// what `instrument info` lists as "note-following opcodes" (docs/sfz.md, "How each opcode plays").

extension SFZReport {
    /// Each family played per note and how many regions use it, in a fixed order; families no region uses
    /// are left out.
    func noteFollowing() -> [SFZNameCount] {
        let regions = instrument.regions
        let families: [(String, (SFZRegion) -> Bool)] = [
            ("fil_keytrack", { $0.cutoff != nil && $0.filterKeytrack != 0 }),
            ("fil_veltrack", { $0.cutoff != nil && $0.filterVeltrack != 0 }),
            ("bend_up/bend_down", { $0.bendUp != 200 || $0.bendDown != -200 }),
            ("amp_velcurve_N", { !$0.ampVelcurve.isEmpty }),
            ("amp_veltrack below 0", { $0.ampVelcurve.isEmpty && $0.ampVeltrack < 0 }),
            ("ampeg_vel2*", { !$0.ampEG.velocity.isEmpty }),
            ("ampeg_start", { $0.ampEG.start != 0 }),
            ("ampeg_*_onccN", { $0.ampEG.onCC.contains { !$0.value.isEmpty } }),
            ("fileg/pitcheg_vel2depth", { ($0.filterEG.velocity[.depth] ?? 0) != 0 || ($0.pitchEG.velocity[.depth] ?? 0) != 0 }),
            ("fileg/pitcheg_vel2*, *_onccN", { region in
                guard let eg = region.modulationEG else { return false }
                return eg.velocity.contains { $0.key != .depth && $0.value != 0 } || eg.onCC.contains { !$0.value.isEmpty }
            }),
            ("cutoff_onccN/resonance_onccN", { $0.cutoff != nil && !($0.cutoffOnCC.isEmpty && $0.resonanceOnCC.isEmpty) }),
            ("lfoN_ (v2 LFOs)", { $0.lfos.values.contains { lfo in lfo.moves(.volume) || lfo.moves(.pitch) || lfo.moves(.cutoff) } }),
            ("off_by", { $0.offBy != nil }),
            ("polyphony", { $0.polyphony != nil || $0.setPolyphony != nil }),
            ("note_polyphony", { ($0.notePolyphony ?? 0) != 0 }),
        ]
        return families.compactMap { name, uses in
            let count = regions.count(where: uses)
            return count > 0 ? SFZNameCount(name: name, count: count) : nil
        }
    }

    /// "note-following opcodes: 2 (fil_keytrack ×3, ampeg_start ×1)".
    func noteFollowingLine() -> String {
        let families = noteFollowing()
        return "note-following opcodes: \(families.count)" + Self.counts(families)
    }

    /// One JSON object per family: {"type":"noteFollowing","name":...,"regions":...}.
    func noteFollowingJSON() -> [String] {
        noteFollowing().map { JSONText.object([("type", .string("noteFollowing")), ("name", .string($0.name)), ("regions", .int($0.count))]) }
    }
}
