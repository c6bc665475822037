import MIDI

// The note-on choices SF2 has no word for, made for SFZ zones (SampleZoneRule.swift) on the rendering thread
// from tables made at load: nothing is allocated. At a note-on, `chooseSampleZones` marks which of the
// preset's zones the note starts (the key-switch key moves the channel's switch first; each zone in the note's
// ranges counts its round robin; one random number serves the note). At the note-off, the release-trigger
// zones the note-on's velocity reaches start. Fonts without rules skip all of it.

extension Synth {
    /// Marks in `ruleState.chosen` the zones first..<last that note `note` at `velocity` starts on `ch`.
    @_noLocks
    func chooseSampleZones(channel ch: Int, note: UInt8, velocity: UInt8, first: Int, last: Int) {
        guard let rules = samples.font.rules else { return }
        beginSampleNoteEvent()
        for z in first..<last where Int(rules[z].switchKey) == Int(note) {
            samples.ruleState.switchKey[ch] = Int8(truncatingIfNeeded: note)
            break
        }
        if samples.ruleState.noteVelocity[ch * 128 + Int(note)] == 0 {
            samples.ruleState.keysDown[ch] = samples.ruleState.keysDown[ch] &+ 1
        }
        samples.ruleState.noteVelocity[ch * 128 + Int(note)] = velocity
        samples.ruleState.clock[1 + ch * 128 + Int(note)] = samples.ruleState.clock[0]
        let random = nextRandom()
        // No `&&` below: its right side is an autoclosure capturing self, which the checker sees as a retain.
        for z in first..<last {
            var plays: UInt8 = 0
            if !rules[z].onRelease {
                if zoneContains(z, key: note, velocity: velocity) {
                    plays = ruleHolds(z, rules[z], channel: ch, random: random) ? 1 : 0
                }
            }
            samples.ruleState.chosen[z] = plays
        }
        samples.ruleState.lastKey[ch] = Int8(truncatingIfNeeded: note) // after the choice: `sw_previous` reads the note before
    }

    /// Whether zone `z` is chosen by the last `chooseSampleZones` (every zone of a font without rules).
    @_noLocks @inline(__always)
    func zoneChosen(_ z: Int) -> Bool {
        if samples.font.rules == nil { return true }
        return samples.ruleState.chosen[z] != 0
    }

    /// At the note-off of `note` on `ch`: the preset's release-trigger zones for the key and the note-on's
    /// velocity start now, those of `trigger=release` when the sustain pedal comes up if it is down.
    @_noLocks
    func startReleaseZones(channel ch: Int, note: UInt8) {
        guard samples.font.rules != nil else { return }
        let p = Int(controls.midi.preset[ch]), presets = samples.font.presetCount
        guard p >= 0 && p < presets else { return }
        let velocity = samples.ruleState.noteVelocity[ch * 128 + Int(note)]
        guard velocity > 0 else { return }
        samples.ruleState.noteVelocity[ch * 128 + Int(note)] = 0
        if samples.ruleState.keysDown[ch] > 0 { samples.ruleState.keysDown[ch] -= 1 }
        let pedal = controls.channels[ch].pedal != 0
        if pedal { samples.ruleState.pedalVelocity[ch * 128 + Int(note)] = velocity }
        startReleaseZones(channel: ch, note: note, velocity: velocity, preset: p, atNoteOff: true, pedalUp: !pedal)
    }

    /// The release zones of `note` on `ch` in preset `p`: with `atNoteOff` those that do not wait for the
    /// pedal, with `pedalUp` those that do.
    @_noLocks
    func startReleaseZones(channel ch: Int, note: UInt8, velocity: UInt8, preset p: Int, atNoteOff: Bool, pedalUp: Bool) {
        guard let rules = samples.font.rules else { return }
        let range = samples.font.presetZones[p]
        let first = Int(range[0]), last = first + Int(range[1])
        let random = nextRandom()
        beginSampleNoteEvent()
        for z in first..<last where rules[z].onRelease {
            if !(rules[z].waitsForPedal ? pedalUp : atNoteOff) { continue }
            if !zoneContains(z, key: note, velocity: velocity) { continue }
            if ruleHolds(z, rules[z], channel: ch, random: random) {
                startSampleVoice(zone: z, preset: p, channel: ch, note: note, velocity: velocity)
            }
        }
    }

    /// The sustain pedal came up on `ch`: the `trigger=release` zones of the notes let go while it was down
    /// start now.
    @_noLocks
    func startPedalReleaseZones(channel ch: Int) {
        guard samples.font.rules != nil else { return }
        let p = Int(controls.midi.preset[ch]), presets = samples.font.presetCount
        let waiting = samples.ruleState.pedalVelocity.baseAddress + ch * 128
        for note in 0..<128 where waiting[note] != 0 {
            let velocity = waiting[note]
            waiting[note] = 0
            if p >= 0 && p < presets {
                startReleaseZones(channel: ch, note: UInt8(note), velocity: velocity, preset: p, atNoteOff: false, pedalUp: true)
            }
        }
    }

    /// The key switch, the held keys (`sw_down`/`sw_up`, `trigger=first`/`legato`), the controller range, then the round robin (counted only for a zone that passed the
    /// others, as sfizz counts), then the random range.
    @_noLocks
    func ruleHolds(_ z: Int, _ rule: SampleZoneRule, channel ch: Int, random: Float) -> Bool {
        if rule.switchKey >= 0 {
            let last = samples.ruleState.switchKey[ch]
            if (last >= 0 ? last : rule.switchDefault) != rule.switchKey { return false }
        }
        if rule.switchDown >= 0 {
            if samples.ruleState.noteVelocity[ch * 128 + Int(rule.switchDown)] == 0 { return false }
        }
        if rule.switchUp >= 0 {
            if samples.ruleState.noteVelocity[ch * 128 + Int(rule.switchUp)] != 0 { return false }
        }
        if rule.previousKey >= 0 {
            if samples.ruleState.lastKey[ch] != rule.previousKey { return false }
        }
        // The note itself is one of the keys down (as sfizz counts it).
        if rule.notes == SampleZoneRule.firstNote {
            if samples.ruleState.keysDown[ch] > 1 { return false }
        } else if rule.notes == SampleZoneRule.legatoNote {
            if samples.ruleState.keysDown[ch] < 2 { return false }
        }
        if rule.controllerRanges.count > 0 {
            if !rule.controllerRanges.accepts(controls.midi.controllers + ch * 128) { return false }
        }
        if rule.bendLow > -8191 || rule.bendHigh < 8191 {
            // As sfizz: the wheel and the bounds within -8191...8191 (the wheel's lowest value counts as -8191).
            let wheel = max(Int16(truncatingIfNeeded: controls.midi.pitchWheel[ch]) &- 8192, -8191)
            if wheel < rule.bendLow { return false }
            if wheel > rule.bendHigh { return false }
        }
        if rule.sequenceLength > 1 {
            let count = samples.ruleState.sequenceCounters[z]
            samples.ruleState.sequenceCounters[z] = (count &+ 1) % UInt16(rule.sequenceLength)
            if count != UInt16(rule.sequencePosition) &- 1 { return false }
        }
        if random < rule.randomLow { return false }
        if rule.randomHigh >= 1 { return true }
        return random < rule.randomHigh
    }

    /// The next of the synth's random numbers, 0 <= r < 1 (a 32-bit linear congruential generator).
    @_noLocks @inline(__always)
    func nextRandom() -> Float {
        samples.randomState = samples.randomState &* 1_664_525 &+ 1_013_904_223
        return Float(samples.randomState >> 8) * (1.0 / 16_777_216.0)
    }
}

extension Synth {
    /// A controller set to a new value: the zones of the channel's preset that this controller starts
    /// (`SampleZoneRule.triggerController`, SFZ's `on_loccN`/`on_hiccN`) and whose range holds the value start
    /// at their root key, at full velocity (sfizz leaves the velocity's gain out), when their other conditions
    /// hold (key switches, CC and wheel ranges, round robins), as sfizz starts them.
    @_noLocks
    func triggerSampleZones(channel ch: Int, controller cc: UInt8, value: UInt8) {
        guard let rules = samples.font.rules else { return }
        let p = Int(controls.midi.preset[ch])
        if p < 0 { return }
        if p >= samples.font.presetCount { return }
        let range = samples.font.presetZones[p]
        let first = Int(range[0]), last = first + Int(range[1])
        var started = false, random: Float = 0
        for z in first..<last where rules[z].triggerController == Int16(cc) {
            if value < rules[z].triggerLow { continue }
            if value > rules[z].triggerHigh { continue }
            if !started { // one note event for the zones this message starts (sfizz's sister voices)
                started = true
                beginSampleNoteEvent()
                random = nextRandom()
            }
            if !ruleHolds(z, rules[z], channel: ch, random: random) { continue }
            let root = samples.font.zones[z].generators[SoundFontGenerator.overridingRootKey]
            let key = UInt8(clamping: root >= 0 ? root : 60)
            startSampleVoice(zone: z, preset: p, channel: ch, note: key, velocity: 127)
        }
    }
}
