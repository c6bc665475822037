// The sample voices' loop for groups with a filter other than the low-pass (an SFZ region's `fil_type`):
// `playSamples`' loop with the filter's output mixed (`svfMixStep`, `SampleFilterShape`). The low-pass groups
// never come here, so their loops (four and eight lanes wide, cubic and sinc) stay as they are; a group with
// another shape plays four lanes at a time with the cubic interpolation.

extension SampleLanes {
    /// The filter's mix of half `h` of a group's rows, and whether any of its lanes is not a low-pass.
    @_noLocks @inline(__always)
    mutating func takeFilterMix(_ rows: UnsafeMutablePointer<SampleGroupRows>, half h: Int) {
        mixInput = rows.pointee.parameters.filterMixInput.half(h)
        mixBand = rows.pointee.parameters.filterMixBand.half(h)
        mixLow = rows.pointee.parameters.filterMixLow.half(h)
        // A low-pass (and an empty) lane weighs neither the input nor the band-pass; every other shape does.
        shaped = any(mixInput .!= HalfLanes() .| mixBand .!= HalfLanes())
    }
}

/// `playSamples` for a group some of whose lanes have another filter shape: four lanes whose filter is mixed,
/// or as `playSamples` plays them (all low-pass, or all silent: the mix of a low-pass lane is its low-pass).
@_noLocks @inline(never)
func playSamplesShaped(_ lanes: inout SampleLanes, _ sample: SampleData, _ table: InterpolationTable, from start: Int,
                       count: Int, half: Int, left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
    guard lanes.shaped && lanes.filtered else {
        playSamples(&lanes, sample, table, from: start, count: count, half: half, left: left, right: right)
        return
    }
    playLoop(&lanes, sample, table, from: start, count: count, sumLeft: left + half, sumRight: right + half,
             filtered: true, shaped: true)
}

/// `playFast` with the filter's output mixed.
@_noLocks @inline(never)
func playFastShaped(_ s: inout SampleLanes, _ sample: SampleData, _ table: InterpolationTable, from start: Int, count: Int,
                    sumLeft: UnsafeMutablePointer<HalfLanes>, sumRight: UnsafeMutablePointer<HalfLanes>) {
    var y = HalfLanes() // only an unfiltered run keeps its last input
    fastRun(&s, sample, table, from: start, count: count, sumLeft: sumLeft, sumRight: sumRight, filtered: true,
            shaped: true, last: &y)
}

/// `carefulStep` with the filter's output mixed.
@_noLocks @inline(never)
func carefulStepShaped(_ s: inout SampleLanes, _ sample: SampleData, _ table: InterpolationTable, at n: Int,
                       sumLeft: UnsafeMutablePointer<HalfLanes>, sumRight: UnsafeMutablePointer<HalfLanes>) {
    let x = carefulInput(s, sample, table)
    mixSample(&s, x, at: n, sumLeft: sumLeft, sumRight: sumRight, filtered: true, shaped: true)
    s.advanceCarefully()
}
