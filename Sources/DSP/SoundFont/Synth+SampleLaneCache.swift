// Groups of sample voices kept in their rows from one slice to the next, as the built-in voices' steady groups
// are (Synth+LaneCache.swift).
//
// A group's voices are gathered into its rows at the start of a slice (their envelopes, LFOs, place in the
// sample, filter state, levels and modulated parameters: about 60 values a voice) and written back at its
// end, which in short slices costs as much as rendering the samples themselves. Between
// two slices only the synth's entry points change a voice (a MIDI message, sysex, all notes or sound off,
// `prepare`), and each of them first gives every kept group's state back to its voices (`flushSampleGroups`).
// So a group whose slice ends with none of its voices ended stays in its rows; the next slice renders it
// straight from them when it holds the same voices in the same lanes (the sample voices sorted by slot, then
// by layer, chunked by eight, give the same chunk), and the effects were on or off alike. Its rows are then
// what a fresh gather would make of the written-back voices: the loop's copy stamped as the gather stamps it,
// the filter states flushed below 1e-30 as the write-back flushes them, the exp2s' results with the inputs
// they were computed from. So the output is bit for bit the same with groups kept or not.

extension Synth {
    /// Before the slice's groups are rendered: the kept groups that are not the same group of this slice
    /// (`activeSlots` sorted into `layerEnds`) give their voices their state back, so that every voice this
    /// slice gathers is up to date.
    @_noLocks
    func keepSampleGroups() {
        let kept = samples.slots.kept.baseAddress, slots = samples.slots.activeSlots.baseAddress
        let live = samples.slots.keptLive[0]
        let reverbOn = mix.effects.reverbOn, chorusOn = mix.effects.chorusOn
        var g = 0, begin = 0
        for layer in 0..<samples.font.layerCount {
            let end = samples.slots.layerEnds[layer]
            var start = begin
            while start < end {
                let n = min(8, end - start)
                // The same voices are the same layer (a voice's layer is its sample's).
                if g < live && kept[g].count > 0 {
                    let k = kept[g]
                    if !(k.reverbOn == reverbOn && k.chorusOn == chorusOn && sameSlots(k.slots, count: Int(k.count), slots + start, n)) {
                        writeBackSampleGroup(g)
                    }
                }
                start += n
                g += 1
            }
            begin = end
        }
        if g < live { for stale in g..<live where kept[stale].count > 0 { writeBackSampleGroup(stale) } }
        samples.slots.keptLive[0] = g // groups past the old live count are not kept already
    }

    /// Every kept group's state back into its voices, none kept: at each entry point that reads or changes a
    /// voice between slices (the messages that mark a channel's voices for a controller refresh, `samples.dirty`,
    /// among them, so the refresh at the next slice finds no group kept).
    @_noLocks
    func flushSampleGroups() {
        let live = samples.slots.keptLive[0]
        guard live > 0 else { return }
        for g in 0..<live where samples.slots.kept[g].count > 0 { writeBackSampleGroup(g) }
        samples.slots.keptLive[0] = 0
    }

    /// No group kept, nothing written back (`prepare`: every voice is freed).
    @_noLocks
    func forgetSampleGroups() {
        for g in 0..<samples.slots.groupCount { samples.slots.kept[g].count = 0 }
        samples.slots.keptLive[0] = 0
    }

    /// Kept group `g`'s state back into its voices; the group is no longer kept.
    @_noLocks
    func writeBackSampleGroup(_ g: Int) {
        let keep = samples.slots.kept.baseAddress + g, rows = samples.slots.rows(g)
        for l in 0..<Int(keep.pointee.count) { writeBackLane(rows, l, slot: Int(keep.pointee.slots[l])) }
        keep.pointee.count = 0
    }

    /// Lane `l` of a group's rows back into its voice (slot `v`), at the end of a slice in which the group was
    /// not kept or when it stops being kept.
    @_noLocks @inline(__always)
    func writeBackLane(_ rows: UnsafeMutablePointer<SampleGroupRows>, _ l: Int, slot v: Int) {
        let voice = samples.slots.state.baseAddress + v
        scatterControls(rows, l, voice: voice, slot: v)
        // A voice in its loop's copy keeps its place in the copy (`unrollLane`) from call to call.
        voice.pointee.playback.position = rows.pointee.play.position[l]
        voice.pointee.playback.fraction = UInt32(bitPattern: rows.pointee.play.fraction[l])
        voice.pointee.playback.lastLeft = rows.pointee.output.lastLeft[l]
        voice.pointee.playback.lastRight = rows.pointee.output.lastRight[l]
        voices.fade[v] = rows.pointee.output.fade[l]
        voices.envelope[v] = rows.pointee.output.level[l] // for stealing: the quietest released voice goes first
        voices.ic1[v] = rows.pointee.output.z1[l]
        voices.ic2[v] = rows.pointee.output.z2[l]
    }
}
