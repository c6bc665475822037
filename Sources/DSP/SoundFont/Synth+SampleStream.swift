import Synchronization

// The real-time side of a streamed instrument (SampleStreamStore.swift): a note-on asks for its sample's rest,
// and per control block a voice whose sample is not whole checks that the frames it will read are loaded,
// else it ends there, silent, and is counted late. It never plays frames that are not loaded or are evicted.

/// What the real-time thread reads of a `SampleStreamStore`: plain pointers (the font keeps the store).
struct SampleStreamView {
    /// Per sample header of the layer (its own index): its unit, or -1.
    let sampleUnits: UnsafePointer<Int32>
    let sampleCount: Int
    let unitStarts: UnsafePointer<Int>
    let loaded: UnsafeMutablePointer<Atomic<Int>>
    let wanted: UnsafeMutablePointer<Atomic<UInt8>>
    let lastPlayed: UnsafeMutablePointer<Atomic<UInt64>>
    /// [0] block clock, [1] late voices, [2] streamed voices.
    let counters: UnsafeMutablePointer<Atomic<UInt64>>

    init(_ store: SampleStreamStore) {
        sampleUnits = UnsafePointer(store.sampleUnits.baseAddress)
        sampleCount = store.sampleUnits.count
        unitStarts = UnsafePointer(store.unitStarts.baseAddress)
        loaded = store.loaded
        wanted = store.wanted
        lastPlayed = store.lastPlayed
        counters = store.counters
    }

    /// The unit of the layer's sample header `s`, or -1.
    @_noLocks @inline(__always)
    func unit(ofSample s: Int) -> Int { s >= 0 && s < sampleCount ? Int(sampleUnits[s]) : -1 }

    /// A voice starts on the layer's sample header `s`: its rest is asked for (the loader's next pass reads
    /// it, or marks it used when it is whole), and the unit is marked played so it is not evicted under the
    /// voice. Asked for even when whole: the loader may be lowering it to its head for eviction right now,
    /// and then reads it again (its pages go only after two blocks, and the voice checks the count).
    @_noLocks
    func noteOn(sample s: Int) {
        let u = unit(ofSample: s)
        guard u >= 0 else { return }
        lastPlayed[u].store(counters[0].load(ordering: .relaxed), ordering: .relaxed)
        counters[2].wrappingAdd(1, ordering: .relaxed)
        wanted[u].store(1, ordering: .releasing)
    }
}

/// Frames past the last one a block's increment reaches that the interpolation may read (cubic reads two,
/// the sinc kernels more): a voice needs these loaded too.
var streamReadMargin: Int { @_noLocks get { 64 } }

extension Synth {
    /// Ends the lanes of group `slots[0..<count]` (stack layer `layer`, a streamed instrument's) whose next
    /// `frames` samples would read frames of their sample not loaded: silent from here (`endLane`), counted
    /// late. Every lane's unit is marked played now (not evicted while it sounds).
    @_noLocks
    func endLateLanes(_ low: inout SampleLanes, _ high: inout SampleLanes, _ slots: UnsafeMutablePointer<Int32>, count: Int,
                      layer: Int, frames: Int) {
        guard let stream = samples.font.layerStream[layer] else { return }
        let clock = stream.counters[0].load(ordering: .sequentiallyConsistent)
        let base = samples.font.layerSampleBase[layer]
        for l in 0..<min(count, 8) {
            let h = l < 4 ? 0 : 1, i = l & 3
            let alive = h == 0 ? low.alive[i] : high.alive[i]
            if alive == 0 { continue }
            let voice = samples.slots.state.baseAddress + Int(slots[l])
            let z = Int(voice.pointee.zone)
            guard z >= 0, z < samples.font.zones.count else { continue }
            let u = stream.unit(ofSample: Int(samples.font.zones[z].sample) - base)
            guard u >= 0 else { continue }
            stream.lastPlayed[u].store(clock, ordering: .relaxed)
            let position = Int(h == 0 ? low.position[i] : high.position[i])
            let whole = Int(h == 0 ? low.whole[i] : high.whole[i])
            let wrap = Int(h == 0 ? low.wrapAt[i] : high.wrapAt[i]), stop = Int(h == 0 ? low.stopAt[i] : high.stopAt[i])
            // The furthest frame read: the increment (its fraction as one more frame) over the block, no
            // further than the loop's end or the sample's (past which the voice wraps or stops).
            let reach = min(position + (whole + 1) * frames, min(wrap, stop)) + streamReadMargin
            let loaded = stream.loaded[u].load(ordering: .sequentiallyConsistent)
            if loaded != .max && reach - stream.unitStarts[u] > loaded {
                if h == 0 { low.endLane(i) } else { high.endLane(i) }
                stream.counters[1].wrappingAdd(1, ordering: .relaxed)
            }
        }
    }

    /// One more render call done (the stores' "block clock", one tick per `Synth.render`), for each streamed layer's store: its evictions wait for two.
    @_noLocks
    func advanceStreamClocks() {
        for layer in 0..<samples.font.layerCount {
            guard let stream = samples.font.layerStream[layer] else { continue }
            stream.counters[0].wrappingAdd(1, ordering: .sequentiallyConsistent)
        }
    }
}

extension SampleLanes {
    /// Lane `l` ends now: silenced, parked at frame 1 with no increment, as at a sample's end
    /// (`advanceCarefully`).
    @_noLocks @inline(__always)
    mutating func endLane(_ l: Int) {
        alive[l] = 0
        left[l] = 0; right[l] = 0
        stepLeft[l] = 0; stepRight[l] = 0
        whole[l] = 0; part[l] = 0
        fraction[l] = 0
        position[l] = 1
    }
}
