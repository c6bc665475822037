import MIDI

// Tuning in the pitch of both kinds of voice. A note sounds at its key plus the key's tuning (the channel's
// scale/octave tuning for its pitch class, plus the MTS tuning program the channel selected with RPN 3)
// plus the channel's tuning (RPN 1 fine, RPN 2 coarse, Master Fine and Coarse Tuning), plus the bend.
// - Tuning programs live in tuning banks (RPN 4 selects the bank, RPN 3 the program; MTS messages with a
//   bank address write there, those without bank 0): each written program takes one of
//   `tuningTableCapacity` tables in the order messages first write to them; one never written is untuned.
// - The key's tuning is fixed when the note starts (`keyTuning`): the built-in voice's phase step holds it,
//   the sample voice's `tuningCents`. Real-time tuning messages (7F forms, GS scale tuning) change sounding
//   notes too (`retune`); non-real-time ones (7E) only the notes that start afterwards.
// - The channel's tuning is part of its pitch like the bend (`updateBend`: `ChannelControlState.bend` of the
//   built-in voices; `applyModulated` of the sample voices), so it moves sounding notes at the message's frame.
// All tables are made with the synth (ChannelControls): nothing here allocates.

extension Synth {
    /// Cents by which `key` on channel `ch` sounds off equal temperament: scale/octave tuning plus the
    /// selected tuning program.
    @_noLocks @inline(__always)
    func keyTuning(channel ch: Int, key: UInt8) -> Float {
        let k = Int(key & 0x7F)
        var cents = controls.channels[ch].pitch.scale[k % 12]
        let program = Int(controls.channels[ch].pitch.tuningProgram)
        if program >= 0 && program < 128 {
            let table = Int(controls.tuningTables[(Int(controls.channels[ch].pitch.tuningBank) & 0x7F) * 128 + program])
            if table >= 0 { cents += controls.programs[table * 128 + k] }
        }
        return cents
    }

    /// The channel's tuning in cents: RPN 1 and 2 plus master fine and coarse tuning.
    @_noLocks @inline(__always)
    func channelTuningCents(_ ch: Int) -> Float { controls.channels[ch].pitch.tuning * 100 }

    /// Recomputes the channel's tuning (after RPN 1/2 or master tuning) and everything that reads it.
    @_noLocks
    func updateTuning(channels mask: UInt16) {
        for ch in 0..<channelCount where mask & (1 << UInt16(ch)) != 0 {
            controls.channels[ch].pitch.tuning = controls.channels[ch].pitch.coarseTuning + controls.master[1]
                + (controls.channels[ch].pitch.fineTuning + controls.master[0]) / 100
            updateBend(ch)
        }
        samples.dirty |= mask
    }

    /// The built-in voice's phase step for `note` on `ch`, its key tuning included.
    @_noLocks @inline(__always)
    func wavetableIncrement(channel ch: Int, note: UInt8) -> Float {
        guard sampleRate > 0 else { return 0 }
        let semitones = Double(note) - 69 + Double(keyTuning(channel: ch, key: note)) / 100
        return Float(440 * FastMath.exp2(semitones / 12) / sampleRate)
    }

    /// Sounding notes on the channels of `mask` take their keys' tuning as it is now (a real-time tuning
    /// message): the built-in voices' phase steps (their kept lanes made stale), the sample voices' tuning.
    @_noLocks
    func retune(channels mask: UInt16) {
        guard mask != 0 else { return }
        for v in 0..<slotLimit where voices.stage[v] != Stage.free {
            let ch = Int(voices.channel[v])
            guard mask & (1 << UInt16(ch)) != 0 else { continue }
            let note = voices.note[v]
            if voices.kind[v] == VoiceKind.wavetable {
                builtIn.slots.increment[v] = wavetableIncrement(channel: ch, note: note)
            } else {
                samples.slots.state[v].modulation.tuningCents = keyTuning(channel: ch, key: note)
            }
        }
        for ch in 0..<channelCount where mask & (1 << UInt16(ch)) != 0 {
            builtIn.laneCache.channelState[ch] = SIMD8(repeating: .nan) // regathered from the new phase steps
        }
        samples.dirty |= mask
    }

    /// Channels whose selected tuning bank and program are `bank` and `program`.
    @_noLocks
    func channelsUsing(bank: Int, program: Int) -> UInt16 {
        var mask: UInt16 = 0
        for ch in 0..<channelCount where Int(controls.channels[ch].pitch.tuningProgram) == program {
            if Int(controls.channels[ch].pitch.tuningBank) & 0x7F == bank { mask |= 1 << UInt16(ch) }
        }
        return mask
    }

    /// The 128 keys of tuning program `program` of tuning bank `bank`, given a table of its own if it has none
    /// yet; nil when every table is taken (the message is then ignored).
    @_noLocks
    func tuningTable(bank: Int, program: Int) -> UnsafeMutablePointer<Float>? {
        let tables = controls.tuningTables, at = (bank & 0x7F) * 128 + (program & 0x7F)
        var table = Int(tables[at])
        if table < 0 {
            table = Int(tables[128 * 128])
            guard table < tuningTableCapacity else { return nil }
            tables[at] = Int16(table)
            tables[128 * 128] = Int16(table + 1)
        }
        return controls.programs + table * 128
    }

    /// Every channel's tuning and RPN-set values at power-on (GM System On and the other resets): no scale or
    /// program tuning, RPN 1 and 2 at 0, modulation depth range 50 cents.
    @_noLocks
    func resetChannelTuning() {
        for ch in 0..<channelCount {
            controls.channels[ch].pitch.fineTuning = 0
            controls.channels[ch].pitch.coarseTuning = 0
            controls.channels[ch].pitch.tuningProgram = -1
            controls.channels[ch].pitch.tuningBank = 0
            controls.channels[ch].vibrato.depthRange = 0.5
            controls.channels[ch].vibrato.gm2 = false
            controls.channels[ch].pitch.scale = InlineArray(repeating: 0)
            updateModulation(ch)
        }
        updateTuning(channels: 0xFFFF)
    }

    /// Master tuning at A440 and the balance centred (GM2 System On, GS Reset, XG System On).
    @_noLocks
    func resetMaster() {
        controls.master[0] = 0
        controls.master[1] = 0
        setMasterBalance(8192)
        updateTuning(channels: 0xFFFF)
    }

    /// Master Balance: the side away from the balance is attenuated linearly (8192 centre: both full).
    @_noLocks
    func setMasterBalance(_ value: UInt16) {
        let b = min(max(Float(Int(value & 0x3FFF) - 8192) / 8191, -1), 1)
        controls.master[2] = b > 0 ? 1 - b : 1
        controls.master[3] = b < 0 ? 1 + b : 1
        samples.dirty = 0xFFFF
    }

    // MARK: MIDI Tuning Standard and GS scale tuning (payloads read in place)

    /// Scale/octave tuning, 1- or 2-byte form, on the channels of its mask.
    @_noLocks
    func applyScaleOctaveTuning(_ bytes: UnsafeBufferPointer<UInt8>, bytesPerClass: Int, realTime: Bool) {
        let mask = UniversalSystemExclusive.channelMask(bytes)
        for ch in 0..<channelCount where mask & (1 << UInt16(ch)) != 0 {
            for pc in 0..<12 {
                let cents: Float
                if bytesPerClass == 2 {
                    let at = 8 + 2 * pc
                    cents = UniversalSystemExclusive.cents(fourteenBit: UInt16(bytes[at] & 0x7F) << 7 | UInt16(bytes[at + 1] & 0x7F))
                } else {
                    cents = Float(Int(bytes[8 + pc] & 0x7F) - 64)
                }
                controls.channels[ch].pitch.scale[pc] = cents
            }
        }
        if realTime { retune(channels: mask) }
    }

    /// GS scale tuning of one part: `count` pitch classes from `first`.
    @_noLocks
    func applyGSScaleTuning(_ bytes: UnsafeBufferPointer<UInt8>, channel: Int, first: Int, count: Int) {
        for i in 0..<count where first + i < 12 {
            controls.channels[channel].pitch.scale[first + i] = Float(Int(bytes[8 + i] & 0x7F) - 64)
        }
        retune(channels: 1 << UInt16(channel))
    }

    /// Single note tuning change: `count` keys of tuning program `program` of tuning bank `bank`.
    @_noLocks
    func applySingleNoteTuning(_ bytes: UnsafeBufferPointer<UInt8>, bank: Int, program: Int, count: Int, dataStart: Int,
                               realTime: Bool) {
        guard let table = tuningTable(bank: bank, program: program) else { return }
        for i in 0..<count {
            let at = dataStart + 4 * i
            guard at + 3 < bytes.count else { break }
            let key = Int(bytes[at] & 0x7F)
            if let cents = UniversalSystemExclusive.absoluteCents(bytes[at + 1], bytes[at + 2], bytes[at + 3]) {
                table[key] = cents - Float(key) * 100
            }
        }
        if realTime { retune(channels: channelsUsing(bank: bank & 0x7F, program: program & 0x7F)) }
    }

    /// Bulk tuning dump: all 128 keys of tuning program `program` of tuning bank `bank`, for notes that start
    /// afterwards.
    @_noLocks
    func applyBulkTuningDump(_ bytes: UnsafeBufferPointer<UInt8>, bank: Int, program: Int, dataStart: Int) {
        guard let table = tuningTable(bank: bank, program: program) else { return }
        for key in 0..<128 {
            let at = dataStart + 3 * key
            guard at + 2 < bytes.count else { break }
            if let cents = UniversalSystemExclusive.absoluteCents(bytes[at], bytes[at + 1], bytes[at + 2]) {
                table[key] = cents - Float(key) * 100
            }
        }
    }
}
