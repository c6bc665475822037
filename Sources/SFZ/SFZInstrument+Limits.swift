import DSP

// What a region's note ends before it sounds (`group`, `off_by`, `polyphony`, `note_polyphony`), as
// `SampleZoneLimits` the voices play (Synth+SampleZoneLimits.swift). The rules follow sfizz's (its
// Synth.cpp, VoiceManager.cpp and Voice::checkOffGroup): a `polyphony` on a region of a group other than 0
// is also the group's limit (the last such region's wins), one in a `<group>` or `<master>` without a
// `group=` also the limit of that header's regions together.

extension SFZInstrument {
    /// Each region's limits; all defaults (no rule needed) when no region uses these opcodes.
    func voiceLimits() -> [SampleZoneLimits] {
        let used = regions.contains { $0.offBy != nil || $0.polyphony != nil || $0.notePolyphony != nil || $0.setPolyphony != nil }
        guard used else { return Array(repeating: SampleZoneLimits(), count: regions.count) }
        var groups: [Int: Int32] = [:], groupLimits: [Int: Int] = [:]
        for region in regions {
            if groups[region.group] == nil { groups[region.group] = Int32(groups.count) }
            if region.group != 0, let limit = region.polyphony { groupLimits[region.group] = limit }
        }
        let cutGroups = Set(regions.compactMap(\.offBy))
        func limit(_ value: Int?) -> UInt16 { value.map { UInt16(clamping: $0) } ?? .max }
        return regions.enumerated().map { r, region in
            var limits = SampleZoneLimits()
            limits.group = groups[region.group] ?? 0
            // An off_by naming a group no region has turns nothing off.
            limits.offBy = region.offBy.flatMap { groups[$0] } ?? -1
            limits.cuts = cutGroups.contains(region.group)
            limits.region = Int32(r)
            limits.regionPolyphony = limit(region.polyphony)
            limits.groupPolyphony = limit(groupLimits[region.group])
            if let setLimit = region.setPolyphony {
                limits.set = Int32(region.polyphonySet)
                limits.setPolyphony = limit(setLimit)
            }
            // sfizz reads note_polyphony from 1 (0 limits nothing there).
            limits.notePolyphony = region.notePolyphony == 0 ? .max : limit(region.notePolyphony)
            return limits
        }
    }
}
