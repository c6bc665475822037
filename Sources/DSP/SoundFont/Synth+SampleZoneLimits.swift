// The voices an SFZ zone's note ends before its own voice starts (SampleZoneLimits in SampleZoneRule.swift), in
// sfizz's order (its Synth::Impl::checkOffGroups, then VoiceManager::checkPolyphony): the voices of the zones
// `off_by` its group; the lowest-velocity voices of its group on its key over `note_polyphony`; the oldest
// voice over the region's, the group's and the `<group>` header's `polyphony`. Each voice ends as its zone's
// `off_mode` says, with the voices its note event started with it (sfizz's sister voices), and no longer
// counts ("offed"). Voices are counted within the zone's preset (one instrument); a stereo region's second
// zone counts as its first. Fonts without rules (every SF2 font) skip all of it.

extension Synth {
    /// A note event (a note-on's or a note-off's zones) begins: the voices it starts share its serial.
    @_noLocks @inline(__always)
    func beginSampleNoteEvent() {
        guard samples.font.rules != nil else { return }
        samples.ruleState.event[0] = samples.ruleState.event[0] &+ 1
    }

    /// Slot `v` started a voice of the current note event.
    @_noLocks @inline(__always)
    func sampleVoiceStarted(_ v: Int) {
        guard samples.font.rules != nil else { return }
        samples.ruleState.voiceEvent[v] = samples.ruleState.event[0]
        samples.ruleState.offed[v] = 0
    }

    /// Before zone `z`'s voice of `note` at `velocity` starts in preset `p`: the voices its group turns off and
    /// those over its limits end.
    @_noLocks
    func limitSampleVoices(zone z: Int, preset p: Int, note: UInt8, velocity: UInt8) {
        guard let rules = samples.font.rules else { return }
        let limits = rules[z].limits
        if limits.sister { return }
        if !limits.endsVoices { return }
        if limits.cuts {
            for v in 0..<slotLimit {
                if !limitable(v, preset: p) { continue }
                let other = rules[Int(samples.slots.state[v].zone)]
                if other.limits.offBy != limits.group { continue }
                if other.onRelease { continue } // sfizz turns off note-on voices only
                // A group that turns itself off leaves the same key's voices (the key's own release does).
                if other.limits.group == limits.group { if voices.note[v] == note { continue } }
                offSampleVoice(v, other)
            }
        }
        if limits.notePolyphony != UInt16.max { limitNotePolyphony(limits, preset: p, note: note, velocity: velocity) }
        if limits.regionPolyphony != UInt16.max {
            limitOldest(preset: p, to: Int(limits.regionPolyphony), what: 0, value: limits.region)
        }
        if limits.groupPolyphony != UInt16.max {
            limitOldest(preset: p, to: Int(limits.groupPolyphony), what: 1, value: limits.group)
        }
        if limits.setPolyphony != UInt16.max {
            limitOldest(preset: p, to: Int(limits.setPolyphony), what: 2, value: limits.set)
        }
    }

    /// sfizz's note polyphony (its default `note_selfmask=on`): of the group's voices on the key, those of a
    /// velocity at most the note's end, lowest velocity first, until `notePolyphony - 1` are left.
    @_noLocks
    func limitNotePolyphony(_ limits: SampleZoneLimits, preset p: Int, note: UInt8, velocity: UInt8) {
        guard let rules = samples.font.rules else { return }
        var count = 0
        for v in 0..<slotLimit where voices.note[v] == note {
            if !counted(v, preset: p) { continue }
            if rules[Int(samples.slots.state[v].zone)].limits.group == limits.group { count += 1 }
        }
        while count > Int(limits.notePolyphony) - 1 {
            var victim = -1, lowest = UInt8.max, oldest = UInt64.max
            for v in 0..<slotLimit where voices.note[v] == note {
                if !counted(v, preset: p) { continue }
                if rules[Int(samples.slots.state[v].zone)].limits.group != limits.group { continue }
                let played = samples.slots.state[v].velocity
                if played > velocity { continue }
                let age = voices.age[v]
                if played < lowest || (played == lowest && age < oldest) {
                    victim = v
                    lowest = played
                    oldest = age
                }
            }
            if victim < 0 { return }
            offSampleNote(victim, preset: p)
            count -= 1
        }
    }

    /// sfizz's oldest-voice stealing: when `limit` or more of the preset's voices of the same region (`what`
    /// 0), group (1) or `<group>` header (2), `value`, sound, the oldest of them ends.
    @_noLocks
    func limitOldest(preset p: Int, to limit: Int, what: Int, value: Int32) {
        guard let rules = samples.font.rules else { return }
        var count = 0, oldest = -1, oldestAge = UInt64.max
        for v in 0..<slotLimit {
            if !counted(v, preset: p) { continue }
            let limits = rules[Int(samples.slots.state[v].zone)].limits
            let own = what == 0 ? limits.region : what == 1 ? limits.group : limits.set
            if own != value { continue }
            count += 1
            let age = voices.age[v]
            if age < oldestAge {
                oldest = v
                oldestAge = age
            }
        }
        if count >= limit { if oldest >= 0 { offSampleNote(oldest, preset: p) } }
    }

    /// Whether slot `v` sounds a voice of preset `p` that no limit has ended (sfizz's "not offed or free").
    @_noLocks @inline(__always)
    func limitable(_ v: Int, preset p: Int) -> Bool {
        if voices.kind[v] != VoiceKind.sample { return false }
        if voices.stage[v] == Stage.free { return false }
        if voices.fadeStep[v] > 0 { return false }
        if samples.ruleState.offed[v] != 0 { return false }
        return Int(samples.slots.state[v].preset) == p
    }

    /// `limitable`, and the first (or only) zone of its region: one voice per region and note, as sfizz counts.
    @_noLocks @inline(__always)
    func counted(_ v: Int, preset p: Int) -> Bool {
        guard let rules = samples.font.rules, limitable(v, preset: p) else { return false }
        return !rules[Int(samples.slots.state[v].zone)].limits.sister
    }

    /// Ends slot `v`'s voice and the others its note event started (sfizz's sister voices).
    @_noLocks
    func offSampleNote(_ victim: Int, preset p: Int) {
        guard let rules = samples.font.rules else { return }
        let event = samples.ruleState.voiceEvent[victim]
        for v in 0..<slotLimit where samples.ruleState.voiceEvent[v] == event {
            if !limitable(v, preset: p) { continue }
            offSampleVoice(v, rules[Int(samples.slots.state[v].zone)])
        }
    }

    /// Ends slot `v`'s voice as `rule` (its zone's) says: `offFast` the synth's 3 ms steal fade, `offNormal` its
    /// own release, `offTime` its release at `offTime`'s length (sfizz's).
    @_noLocks
    func offSampleVoice(_ v: Int, _ rule: SampleZoneRule) {
        samples.ruleState.offed[v] = 1
        if rule.offMode == SampleZoneRule.offNormal {
            voices.stage[v] = Stage.release
        } else if rule.offMode == SampleZoneRule.offTime {
            let voice = samples.slots.state.baseAddress + v
            voice.pointee.volumeEnvelope.releaseStep = 1 / max(rule.offTime * Float(sampleRate), 1)
            voices.stage[v] = Stage.release
        } else {
            allocator.startFade(voices, v, step: allocator.stealFadeStep)
        }
    }
}
