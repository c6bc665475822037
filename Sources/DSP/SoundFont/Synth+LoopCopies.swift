// Short loops played from copies repeated many times, so that a voice wraps once per many passes rather than
// every pass (`renderSampleGroup` moves a lane onto its copy when the voice first plays in the loop): the
// copies' sizes, finding or making a loop's copy, and writing one.

/// Frames of each copy in `SampleVoiceSlots.unrolledLoops`: a loop of at most half of this (less three) is
/// played from a copy repeated there, so that it wraps (a careful step and a new fast run) once per many
/// passes: loops of a few dozen frames (FluidR3's saw lead) would otherwise take a careful step every few
/// dozen samples. Long enough that a group of such voices rarely meets a wrap within a 64-sample block
/// (`SampleVoiceSlots` holds at most `unrolledLoopCopies` of them).
var unrolledLoopFrames: Int { @_noLocks get { 4096 } }
// (A loop of at most 2046 frames fits twice, with the three frames more a copy holds.)

/// The most copies of loops a synth holds (8 KiB each): loops played at once, which few songs take past a few
/// dozen. A voice that finds none free plays from the font's data, as a long loop does.
var unrolledLoopCopies: Int { @_noLocks get { 512 } }

extension Synth {
    /// Lane `l` of `rows` (slot `v`'s voice, in the loop `start..<start + length` of stack layer `layer`,
    /// short) reads from a copy of the loop repeated (`loopCopy`, found or made the first time), its rows set
    /// for the copy: frame start - 1 of the font is the copy's first; it wraps at the copy's end into the
    /// copy's second pass, whose frame before is the loop's last (as FluidSynth reads a loop that has
    /// wrapped), not the one before the loop. False, the lane untouched, when no copy is free.
    @_noLocks @inline(__always)
    func unrollLane(_ rows: UnsafeMutablePointer<SampleGroupRows>, _ l: Int, slot v: Int, layer: Int, sample: SampleData, start: Int32,
                    length: Int32) -> Bool {
        let voice = samples.slots.state.baseAddress + v
        if voice.pointee.playback.unrolledSpan == 0 {
            let c = loopCopy(layer: layer, sample: sample, start: start, length: length)
            guard c >= 0 else { return false }
            voice.pointee.playback.copy = c
            voice.pointee.playback.unrolledSpan = Int32(unrolledPasses(length)) &* length
        } else {
            samples.slots.loops.copyStamps[Int(voice.pointee.playback.copy)] = samples.slots.loops.copyClock[0]
        }
        let span = voice.pointee.playback.unrolledSpan
        rows.pointee.play.unrolledSpan[l] = span
        rows.pointee.play.wrapAt[l] = start &+ span
        rows.pointee.play.loopLength[l] = span &- length
        rows.pointee.play.lastIndex[l] = start &+ span &+ 1
        rows.pointee.play.fastLimit[l] = start &+ span &- 2
        rows.pointee.play.copy[l] = voice.pointee.playback.copy
        let copy = samples.slots.loops.unrolledLoops.baseAddress + Int(voice.pointee.playback.copy) &* unrolledLoopFrames
        rows.pointee.play.offsets[l] = sample.data.distance(to: UnsafePointer(copy)) &- Int(start &- 1)
        return true
    }

    /// The copy (`SampleVoiceSlots.unrolledLoops`) of the loop `start..<start + length` of stack layer
    /// `layer`, marked played in this slice: the one that holds it already, found by the loop's hash, or one
    /// no voice played from in this slice or the last (the clock hand goes round them) filled now with as
    /// many passes as it holds (at least two), so that a voice wraps (a careful step) once per that many
    /// frames. -1 when none is free (looked for once a slice).
    @_noLocks @inline(never)
    func loopCopy(layer: Int, sample: SampleData, start: Int32, length: Int32) -> Int32 {
        let copies = samples.slots.loops.copyCount, keys = samples.slots.loops.copyKeys.baseAddress, stamps = samples.slots.loops.copyStamps.baseAddress
        let clock = samples.slots.loops.copyClock.baseAddress
        let slice = clock[0]
        let key = SIMD4<Int32>(Int32(truncatingIfNeeded: layer), start, length, 0)
        let hash = (UInt32(bitPattern: start) &* 0x9E37_79B1) ^ (UInt32(bitPattern: length) &* 0x85EB_CA77) ^ UInt32(truncatingIfNeeded: layer)
        let bucket = samples.slots.loops.copyBuckets.baseAddress + (Int(hash >> 7) & samples.slots.loops.copyBucketMask)
        let held = Int(bucket.pointee)
        if held >= 0 && keys[held] == key {
            stamps[held] = slice
            return Int32(held)
        }
        guard clock[2] != slice else { return -1 }
        var c = Int(clock[1])
        for _ in 0..<copies {
            if slice &- stamps[c] >= 2 {
                unrollLoop(from: sample.data, start: Int(start), length: Int(length), passes: unrolledPasses(length),
                           into: samples.slots.loops.unrolledLoops.baseAddress + c &* unrolledLoopFrames)
                keys[c] = key
                stamps[c] = slice
                bucket.pointee = Int32(c)
                clock[1] = UInt32(c &+ 1 == copies ? 0 : c &+ 1)
                return Int32(c)
            }
            c = c &+ 1 == copies ? 0 : c &+ 1
        }
        clock[2] = slice
        return -1
    }
}

/// The passes of a loop of `length` frames a copy holds (at least two for a loop short enough to be copied),
/// with the frame before the loop and two after (`unrollLoop`).
@_noLocks @inline(__always)
func unrolledPasses(_ length: Int32) -> Int { (unrolledLoopFrames &- 3) / Int(length) }

/// `passes` passes of the loop `start..<start + length` of `data` into `copy`, after the frame before the
/// loop (the font's frame 0 for a loop at 0: what a careful read clamps to), and two frames more, so that
/// every position of the passes reads its four points from the copy: one copy of the loop, then the copy
/// doubled until it is long enough.
@_noLocks
func unrollLoop(from data: UnsafePointer<Int16>, start: Int, length: Int, passes: Int, into copy: UnsafeMutablePointer<Int16>) {
    copy[0] = data[max(start &- 1, 0)]
    let loop = copy + 1
    let total = passes &* length &+ 2
    UnsafeMutableRawPointer(loop).copyMemory(from: data + start, byteCount: 2 &* length)
    var have = length
    while have < total {
        let more = min(have, total &- have)
        UnsafeMutableRawPointer(loop + have).copyMemory(from: loop, byteCount: 2 &* more)
        have &+= more
    }
}
