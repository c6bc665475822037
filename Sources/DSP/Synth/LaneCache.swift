/// The SIMD lane state of the steady voice groups of the last slice, kept so that the next slice can render
/// a group that is the same again without gathering its voices' state into lanes, planning its filter and
/// choosing its tables anew, and without scattering it back (Synth+LaneCache.swift uses it). Arrays owned by
/// its `FixedArray`s, like `VoiceSlots`.
struct LaneCache: ~Copyable {
    /// One group of up to eight steady voices, as `renderGroup` gathered it: everything its loop reads.
    struct Entry: BitwiseCopyable {
        var phase = LaneBits(), step = LaneBits(), offset = LaneBits()
        var z1 = Lanes(), z2 = Lanes(), b1 = Lanes(), b2 = Lanes(), b3 = Lanes()
        var levelLeft = Lanes(), levelRight = Lanes()
        /// Each lane's reverb and chorus send (`Synth.wavetableSends`); 0 past `count`.
        var reverb = Lanes(), chorus = Lanes()
        /// The voices' slots, lane by lane; -1 past `count`.
        var slots = SIMD8<Int32>(repeating: -1)
        /// Voices in the group: 0 means the entry holds nothing.
        var count = 0
        /// The channels of its voices, one bit each.
        var channels: UInt16 = 0
    }

    /// One entry per possible group of eight: entry `e` is the `e`th steady group of the last slice.
    private let entriesMemory: FixedArray<Entry>
    var entries: UnsafeMutablePointer<Entry> { @_noLocks get { entriesMemory.baseAddress } }
    /// `ages[8 e + l]`: the note-on serial (`VoiceSlots.age`) of entry `e`'s lane `l`: a slot freed and
    /// taken by a new note between two slices gets no stale state written into it.
    let ages: FixedArray<UInt64>
    /// Per channel, what its steady voices' lanes were computed from in the last slice: pitch ratio,
    /// highest pitch ratio, left and right gain at the slice's first sample, CC91 and CC93 (the sends).
    private let channelStateMemory: FixedArray<SIMD8<Float>>
    var channelState: UnsafeMutablePointer<SIMD8<Float>> { @_noLocks get { channelStateMemory.baseAddress } }
    /// The send buses' switches the kept sends were computed with: reverb 1, chorus 2 (-1: none yet).
    var buses = -1
    let capacity: Int
    /// Entries the last slice rendered (0 after `prepare`): the prefix of `entries` that may hold state.
    var live = 0
    /// Per built-in patch, the values its kept coefficients and tables came from: smoothed cutoff (octaves),
    /// filter envelope amount, SVF damping, 1 / sample rate; and the waveform (-1: none kept).
    private let filterMemory: FixedArray<SIMD4<Float>>
    var filter: UnsafeMutablePointer<SIMD4<Float>> { @_noLocks get { filterMemory.baseAddress } }
    private let waveMemory: FixedArray<Int>
    var wave: UnsafeMutablePointer<Int> { @_noLocks get { waveMemory.baseAddress } }
    let patchCount: Int
    /// False: every slice gathers every group afresh (the path the cache must match, for tests).
    var isEnabled = true
    /// Groups rendered straight from kept lanes since `init` (the tests' evidence that the cache was used).
    var keptRenders = 0

    init(slots: Int, patches: Int) {
        capacity = max((slots + 7) / 8, 1)
        patchCount = patches
        filterMemory = FixedArray(patches, SIMD4<Float>(repeating: .nan))
        waveMemory = FixedArray(patches, -1)
        entriesMemory = FixedArray(capacity, Entry())
        ages = FixedArray(8 * capacity, 0)
        channelStateMemory = FixedArray(channelCount, SIMD8<Float>(repeating: .nan))
    }

    /// Forgets every kept group without writing anything back (the voices were reset).
    @_noLocks
    mutating func reset() {
        for e in 0..<live { entries[e].count = 0 }
        live = 0
        filter.update(repeating: SIMD4(repeating: .nan), count: patchCount)
        wave.update(repeating: -1, count: patchCount)
        channelState.update(repeating: SIMD8(repeating: .nan), count: channelCount)
        buses = -1
    }
}

extension LaneCache.Entry {
    /// Whether any lane sends (the sends are 0...1, so this is `wavetableSends`' "any above 0").
    var sends: Bool {
        @_noLocks @inline(__always) get { anyLane((reverb + chorus) .> Lanes.zero) }
    }
}
