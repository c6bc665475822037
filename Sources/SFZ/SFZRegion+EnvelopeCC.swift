import DSP

// What the velocity and controllers add to a region's envelopes at the note-on, as the zone rule's
// `SampleZoneEnvelope` (Synth+SampleZoneEnvelopes.swift adds them): `ampeg_delay_onccN`, `_start_`, `_attack_`,
// `_hold_`, `_decay_`, `_sustain_` and `_release_onccN` (v1: `ampeg_attackccN`...), seconds (start and sustain:
// percent) at the controller's top, the controller's value / 127 of them, summed over the controllers, as sfizz
// takes them when the note starts (its EGDescription, linear curve); and the same of `fileg_`/`pitcheg_` (their
// `vel2*` too) for the modulation envelope, of the one of them that shapes it (fileg's when both do, as the
// zone's generators take fileg's shape).

extension SFZRegion {
    /// The envelope that gives the zone's modulation envelope its shape: fileg's when it moves the cutoff,
    /// else pitcheg's when it moves the pitch, else none.
    public var modulationEG: SFZEnvelope? {
        func shapes(_ eg: SFZEnvelope) -> Bool { eg.depth != 0 || (eg.velocity[.depth] ?? 0) != 0 || !(eg.onCC[.depth] ?? [:]).isEmpty }
        return shapes(filterEG) ? filterEG : shapes(pitchEG) ? pitchEG : nil
    }

    /// The envelopes' velocity and controller shifts into `envelope` (the volume envelope's `vel2*` and start
    /// are set by `noteRule`).
    func noteEnvelopeControllers(_ envelope: inout SampleZoneEnvelope, notes: inout SFZNotes) {
        envelope.controllers = Self.envelopeControllers(ampEG, name: "ampeg", notes: &notes)
        guard let eg = modulationEG else { return }
        func velocity(_ stage: SFZEnvelope.Stage) -> Float { Float(eg.velocity[stage] ?? 0) }
        envelope.modulationVelocity.delay = velocity(.delay)
        envelope.modulationVelocity.attack = velocity(.attack)
        envelope.modulationVelocity.hold = velocity(.hold)
        envelope.modulationVelocity.decay = velocity(.decay)
        envelope.modulationVelocity.sustain = velocity(.sustain)
        envelope.modulationVelocity.release = velocity(.release)
        envelope.modulationControllers = Self.envelopeControllers(eg, name: eg == filterEG ? "fileg" : "pitcheg", notes: &notes)
        if eg.onCC[.start] != nil { notes.add("fileg_start_onccN/pitcheg_start_onccN (ignored)") }
    }

    /// `eg`'s `*_onccN` amounts by controller (its depth's are SF2 modulators, SFZModulators), the first
    /// `SampleZoneEnvelopeControllers.capacity` CCs, lowest first.
    static func envelopeControllers(_ eg: SFZEnvelope, name: String, notes: inout SFZNotes) -> SampleZoneEnvelopeControllers {
        var controllers = SampleZoneEnvelopeControllers()
        let stages = eg.onCC.filter { $0.key != .depth }
        let used = Set(stages.values.flatMap(\.keys))
        if used.contains(where: { $0 >= 128 }) { notes.add("\(name)_*_onccN above CC 127 (ignored)") }
        for cc in used.filter({ $0 < 128 }).sorted() {
            func amount(_ stage: SFZEnvelope.Stage) -> Float { Float(eg.onCC[stage]?[cc] ?? 0) }
            var shift = SampleZoneEnvelopeShift()
            shift.delay = amount(.delay)
            shift.attack = amount(.attack)
            shift.hold = amount(.hold)
            shift.decay = amount(.decay)
            shift.sustain = amount(.sustain)
            shift.release = amount(.release)
            shift.start = amount(.start)
            if !controllers.add(SampleZoneEnvelopeControllers.Entry(controller: UInt8(cc), shift: shift)) {
                notes.add("\(name)_*_onccN on more than \(SampleZoneEnvelopeControllers.capacity) CCs (the lowest \(SampleZoneEnvelopeControllers.capacity))")
                break
            }
        }
        return controllers
    }
}
