import DSP

// `ampeg_delay_onccN`, `_attack_`, `_hold_`, `_decay_`, `_sustain_` and `_release_onccN` (v1: `ampeg_attackccN`...):
// seconds (the sustain: percent) at the controller's top added to the volume envelope, the controller's value /
// 127 of them, taken when the note starts, as sfizz takes them (its EGDescription, linear curve). The zone's rule
// holds one controller (SampleZoneEnvelope.controller); the voice adds it at the note-on
// (Synth+SampleZoneEnvelopes.swift).

extension SFZRegion {
    /// The volume envelope's controller and its amounts per stage into `envelope`: of several CCs, the lowest one's.
    func noteEnvelopeController(_ envelope: inout SampleZoneEnvelope, notes: inout SFZNotes) {
        let used = Set(ampEG.onCC.values.flatMap(\.keys))
        guard let cc = used.filter({ $0 < 128 }).min() else {
            if !used.isEmpty { notes.add("ampeg_*_onccN above CC 127 (ignored)") }
            return
        }
        if used.count > 1 { notes.add("ampeg_*_onccN over several CCs (the lowest CC's only)") }
        if ampEG.onCC[.start]?[cc] != nil { notes.add("ampeg_start_onccN (ignored)") }
        func amount(_ stage: SFZEnvelope.Stage) -> Float { Float(ampEG.onCC[stage]?[cc] ?? 0) }
        envelope.controller = Int16(cc)
        envelope.onController.delay = amount(.delay)
        envelope.onController.attack = amount(.attack)
        envelope.onController.hold = amount(.hold)
        envelope.onController.decay = amount(.decay)
        envelope.onController.sustain = amount(.sustain)
        envelope.onController.release = amount(.release)
    }
}
