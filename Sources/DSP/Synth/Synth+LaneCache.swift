import MIDI

// Steady voice groups kept in their SIMD lanes from one slice to the next (LaneCache.swift).
//
// A steady voice (sustaining, pitch, gains and filter at rest) needs nothing per slice but its phase and
// filter state: its phase step, table, coefficients and levels are the same as in the last slice as long
// as the voice, its channel's pitch and gains, its patch's smoothed filter values and waveform are. Gathering
// all that into lanes and scattering it back costs, in 64-frame calls, about what rendering the samples does.
// So each steady group keeps its lanes: the next slice renders it straight
// from them when it holds the same voices in the same lanes (the steady voices, sorted by slot, chunked by
// eight, give the same chunk) and nothing it was computed from has changed; otherwise its phases and
// filter states are written back to the voices and the group is gathered afresh, exactly as without the
// cache. The groups, their lanes and their order in the lane sums are the uncached ones, and every lane
// value is what a fresh gather computes from the same inputs (filter states flushed below 1e-30 at the end
// of every slice as the scatter does), so the output is bit for bit the same.

extension Synth {
    /// Renders the slice's steady voices in groups of eight as `renderGroup` does, reusing each group kept
    /// from the last slice that is still valid: patch by patch (in index order), each patch's steady voices
    /// `builtIn.slots.activeSlots[steadyStart ..< steadyStart + steadyCount]` in slot order (`patchStates`). Entry `e`
    /// is the slice's `e`th steady group counted over the patches in that order.
    @_noLocks
    func renderSteadyGroups(frames: Int, activeChannels: UInt16, pitchMoves: UInt16, gainsMove: UInt16) {
        // What kept lanes were computed from: a channel whose values differ from the last slice's makes its
        // groups stale; a patch's values (or the sample rate) all of that patch's.
        var stale: UInt16 = pitchMoves | gainsMove
        let buses = (mix.effects.reverbOn ? 1 : 0) | (mix.effects.chorusOn ? 2 : 0)
        if buses != builtIn.laneCache.buses { // every kept group's sends
            stale = 0xFFFF
            builtIn.laneCache.buses = buses
        }
        let states = builtIn.patchStates.state
        let frameCount = maxFrames
        var stalePatches = PatchSet()
        var bits = builtIn.patchesInUse
        while true {
            let p = bits.popFirst()
            if p < 0 { break }
            guard states[p].steadyCount > 0 else { continue }
            let row = p &* frameCount
            let filter = SIMD4<Float>(mix.scratch.cutoff[row], mix.scratch.envelopeAmount[row], mix.scratch.damping[row], rates.inverseRate)
            let wave = states[p].wave, keptWave = builtIn.laneCache.wave[p]
            if any(filter .!= builtIn.laneCache.filter[p]) || wave != keptWave { stalePatches.insert(p) }
            builtIn.laneCache.filter[p] = filter
            builtIn.laneCache.wave[p] = wave
        }
        for ch in 0..<channelCount where activeChannels & (1 << UInt16(ch)) != 0 {
            let cc = controls.midi.controllers + ch * 128
            let state = SIMD8<Float>(mix.scratch.pitch[ch * frameCount], mix.scratch.pitchMax[ch],
                                     mix.scratch.left[ch * frameCount], mix.scratch.right[ch * frameCount],
                                     Float(cc[Int(Controller.reverbSend.rawValue)]),
                                     Float(cc[Int(Controller.chorusSend.rawValue)]), 0, 0)
            if any(state .!= builtIn.laneCache.channelState[ch]) {
                stale |= 1 << UInt16(ch)
                builtIn.laneCache.channelState[ch] = state
            }
        }

        // Before any group of this slice is gathered: groups that are not kept give their state back.
        let entries = builtIn.laneCache.entries, slots = builtIn.slots.activeSlots
        let live = builtIn.laneCache.live
        var e = 0
        bits = builtIn.patchesInUse
        while true {
            let p = bits.popFirst()
            if p < 0 { break }
            let start = states[p].steadyStart, steadyCount = states[p].steadyCount
            let patchStale = stalePatches.contains(p)
            for g in stride(from: 0, to: steadyCount, by: 8) {
                defer { e += 1 }
                guard e < live, entries[e].count > 0 else { continue }
                if !patchStale && entries[e].channels & stale == 0 {
                    if sameSlots(entries[e].slots, count: entries[e].count, slots + start + g, min(8, steadyCount - g)) {
                        continue
                    }
                }
                writeBack(e)
            }
        }
        let groups = e
        if groups < live { for e in groups..<live where entries[e].count > 0 { writeBack(e) } }
        builtIn.laneCache.live = groups // entries past the old `live` are empty already

        var kept = 0
        e = 0
        bits = builtIn.patchesInUse
        // A kept group waits for the next: two kept groups in a row play in one loop (`renderKept(_:_:)`).
        var waiting = -1
        while true {
            let p = bits.popFirst()
            if p < 0 { break }
            let first = states[p].steadyStart, steadyCount = states[p].steadyCount
            for g in stride(from: 0, to: steadyCount, by: 8) {
                let start = first + g
                let count = min(8, steadyCount - g)
                if entries[e].count > 0 {
                    if waiting >= 0 {
                        renderKept(entries + waiting, entries + e, frames: frames)
                        waiting = -1
                    } else {
                        waiting = e
                    }
                    kept += 1
                } else {
                    if waiting >= 0 { renderKept(entries + waiting, frames: frames); waiting = -1 }
                    renderGroup(slots + start, count: count, kind: .steady, patch: p, frames: frames,
                                pitchMoves: pitchMoves, gainsMove: gainsMove, keep: entries + e)
                    for l in 0..<count { builtIn.laneCache.ages[8 * e + l] = voices.age[Int(slots[start + l])] }
                }
                e += 1
            }
        }
        if waiting >= 0 { renderKept(entries + waiting, frames: frames) }
        builtIn.laneCache.keptRenders &+= kept
    }


    /// Gives a kept group's phases and filter states back to its voices (those still playing the note they
    /// played when kept) and empties the entry.
    @_noLocks
    func writeBack(_ e: Int) {
        let entry = builtIn.laneCache.entries + e
        let count = entry.pointee.count
        for l in 0..<count {
            let v = Int(entry.pointee.slots[l])
            guard voices.age[v] == builtIn.laneCache.ages[8 * e + l] else { continue }
            builtIn.slots.phase[v] = entry.pointee.phase[l]
            voices.ic1[v] = entry.pointee.z1[l]
            voices.ic2[v] = entry.pointee.z2[l]
        }
        entry.pointee.count = 0
    }

    /// Renders a kept group from its lanes (the loops `renderGroup` runs for a steady group) and keeps its
    /// new phases and filter states, flushed as the scatter flushes them.
    @_noLocks @inline(__always)
    func renderKept(_ entry: UnsafeMutablePointer<LaneCache.Entry>, frames: Int) {
        var g = entry.pointee
        let sends = g.sends, split = mix.outputs.isOn // per-channel outputs: Synth+ChannelOutputs.swift
        let outLeft = sends || split ? mix.effects.groupLeft : mix.scratch.sumLeft
        let outRight = sends || split ? mix.effects.groupRight : mix.scratch.sumRight
        // Eight lanes wide where the path says so (`VoiceLoopPath.playsKeptGroupsEightWide`).
        let path = voiceLoops, wideAllowed = playsWideLoops
        let wide = wideAllowed && path.playsKeptGroupsEightWide
        if g.count > 4 && wide {
            // Both halves at once (WideLoops.swift): the same samples.
            playWideWavetables(&g, frames: frames, left: outLeft, right: outRight)
        } else {
            for half in 0..<(g.count > 4 ? 2 : 1) {
                oscillateAndFilter(frames: frames, half: half, pairs: builtIn.wavetables.pairs, tableOffsets: g.offset,
                                   phase: &g.phase, increment: g.step, z1: &g.z1, z2: &g.z2, b1: g.b1, b2: g.b2,
                                   b3: g.b3, levelLeft: g.levelLeft, levelRight: g.levelRight, left: outLeft, right: outRight)
            }
        }
        if split {
            foldSplit(g.slots, count: g.count, frames: frames, reverb: g.reverb, chorus: g.chorus, sends: sends)
        } else if sends { mix.foldGroup(frames: frames, reverb: g.reverb, chorus: g.chorus) }
        keepRendered(g, in: entry)
    }
}

extension Synth {
    /// Two kept groups in a row, `first` then `second`: in one loop (`playWideWavetables(_:_:)`) when both play
    /// eight lanes wide into the lane sums (no effect sends), else one after the other (`renderKept`).
    @_noLocks
    func renderKept(_ first: UnsafeMutablePointer<LaneCache.Entry>, _ second: UnsafeMutablePointer<LaneCache.Entry>,
                    frames: Int) {
        let path = voiceLoops, wideAllowed = playsWideLoops
        var together = wideAllowed && path.playsKeptGroupsEightWide
        if together { together = keptPlain(first) }
        if together { together = keptPlain(second) }
        guard together else {
            renderKept(first, frames: frames)
            renderKept(second, frames: frames)
            return
        }
        var a = first.pointee, b = second.pointee
        playWideWavetables(&a, &b, frames: frames, left: mix.scratch.sumLeft, right: mix.scratch.sumRight)
        keepRendered(a, in: first)
        keepRendered(b, in: second)
    }

    /// A kept group's new phases and filter states after a render, flushed as the scatter flushes them.
    @_noLocks @inline(__always)
    func keepRendered(_ g: borrowing LaneCache.Entry, in entry: UnsafeMutablePointer<LaneCache.Entry>) {
        entry.pointee.phase = g.phase
        entry.pointee.z1 = flushTiny(g.z1)
        entry.pointee.z2 = flushTiny(g.z2)
    }
}

extension Synth {
    /// Whether a kept group plays eight lanes wide into the lane sums: more than four voices, no effect sends, no
    /// per-channel outputs.
    @_noLocks @inline(__always)
    func keptPlain(_ entry: UnsafeMutablePointer<LaneCache.Entry>) -> Bool {
        let split = mix.outputs.isOn // per-channel outputs: every group apart (Synth+ChannelOutputs.swift)
        return entry.pointee.count > 4 && !entry.pointee.sends && !split
    }
}

/// Filter states too small to matter set to 0, lane by lane: exactly the scatter's `abs(z) < 1e-30 ? 0 : z`.
@_noLocks @inline(__always)
func flushTiny(_ z: Lanes) -> Lanes {
    var result = z
    result.replace(with: 0, where: (z .< 1e-30) .& (z .> -1e-30))
    return result
}

/// Whether a kept group's voices (`kept[0..<keptCount]`) are exactly `slots[0..<count]`, lane by lane (the
/// built-in voices' lane cache and the sample voices' kept groups: Synth+SampleLaneCache.swift).
@_noLocks @inline(__always)
func sameSlots(_ kept: SIMD8<Int32>, count keptCount: Int, _ slots: UnsafeMutablePointer<Int32>, _ count: Int) -> Bool {
    guard keptCount == count else { return false }
    if count == 8 {
        return all(UnsafeRawPointer(slots).loadUnaligned(as: SIMD8<Int32>.self) .== kept)
    }
    for l in 0..<count where slots[l] != kept[l] { return false }
    return true
}
