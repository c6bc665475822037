import MIDI

// Which samples a MIDI file can reach: what a render of a SoundFont 3 font decodes before it starts, and what
// `soundfont info --for` lists.

extension SoundFont {
    /// The samples of every zone of preset `index` (all keys and velocities).
    public func samples(ofPreset index: Int) -> Set<Int> {
        guard index >= 0 && index < presets.count else { return [] }
        let p = presets[index]
        var result = Set<Int>()
        let end = min(Int(p.zoneStart) + Int(p.zoneCount), zones.count)
        for z in max(Int(p.zoneStart), 0) ..< max(end, 0) { result.insert(Int(zones[z].sample)) }
        return result
    }

    /// The samples that playing `messages` (channel messages in time order) through a synth with this font
    /// starts: each note-on's zones in the preset its channel has then (bank select CC 0 and program change
    /// as the synth follows them, channel 10 in the drum banks). `channel` restricts it to the one channel
    /// a synth answers. Sorted.
    public func samplesNeeded(by messages: some Sequence<ShortMessage>, channel: UInt8? = nil) -> [Int] {
        var bank = [Int](repeating: 0, count: 16), program = [Int](repeating: 0, count: 16)
        var preset = (0 ..< 16).map { preferredPreset(bank: 0, program: 0, percussion: $0 == 9) }
        var seen = Set<Int64>()
        var result = Set<Int>()
        for m in messages where m.isChannelMessage {
            let ch = Int(m.channel)
            if let channel, m.channel != channel { continue }
            switch m.kind {
            case .controlChange where m.data1 == Controller.bankSelect.rawValue:
                bank[ch] = Int(m.data2)
            case .programChange:
                program[ch] = Int(m.data1)
                preset[ch] = preferredPreset(bank: bank[ch], program: program[ch], percussion: ch == 9)
            case .noteOn where m.data2 > 0:
                guard let p = preset[ch] else { continue }
                // Each (preset, key, velocity) once: a file repeats its notes.
                guard seen.insert(Int64(p) << 16 | Int64(m.data1) << 8 | Int64(m.data2)).inserted else { continue }
                let header = presets[p]
                let end = min(Int(header.zoneStart) + Int(header.zoneCount), zones.count)
                for z in max(Int(header.zoneStart), 0) ..< max(end, 0) where zones[z].contains(key: m.data1, velocity: m.data2) {
                    result.insert(Int(zones[z].sample))
                }
            default:
                break
            }
        }
        return result.sorted()
    }
}
