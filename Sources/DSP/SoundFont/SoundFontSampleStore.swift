import CVorbis
import MIDI
import Synchronization
#if canImport(Glibc)
import Glibc
import TextOutput
#endif

// The samples of a SoundFont 3 font (Ogg Vorbis streams in smpl), decoded on demand and kept in a bounded
// cache. Every sample has a slot in one anonymous mapping the size of the whole font decoded: untouched
// pages cost no memory, so the font's real-time tables (sample headers as frame indices into `region`) are
// made once at load and never change. A sample is decoded into its slot off the real-time thread (libvorbisfile
// over the mapped file bytes), then its state is stored as `decoded` with release ordering; a note-on loads
// the state with acquire ordering, and plays the sample only once it is `decoded`: the real-time thread never
// waits, never locks. A note whose sample is not decoded is counted (`missedNotes`), not played, under the
// sample's state: not decoded yet, did not fit in the cache, or its stream does not decode (`broken`, a
// sample never tried again): one relaxed counter per state, so the loader and a render can say which.
// Evicting a sample clears its state before its pages are given back (madvise DONTNEED: they read as zeros
// again, never fault).

/// A SoundFont 3 sample's state in its store's `ready` flags: the real-time thread plays only `decoded`, and
/// counts a missed note in `missed[state]`.
enum SampleState {
    static var notDecoded: UInt8 { @_noLocks get { 0 } }
    static var decoded: UInt8 { @_noLocks get { 1 } }
    /// Its Ogg Vorbis stream does not decode: never tried again.
    static var broken: UInt8 { @_noLocks get { 2 } }
    /// It did not fit in the cache when last asked for.
    static var overLimit: UInt8 { @_noLocks get { 3 } }
}

/// The decoded-sample cache of one SoundFont 3 font: which samples are decoded, their memory, the bound.
public final class SoundFontSampleStore: @unchecked Sendable {
    /// Where each sample lives: its Ogg Vorbis bytes in the file (nil for a 16-bit sample, copied at load),
    /// its slot in `region` (frames) and the frames it decodes to.
    struct Slot {
        var bytes: Range<Int>?
        var start: Int
        var frames: Int
        /// Frames reserved: `frames` and a silent tail for the interpolator, in whole pages.
        var capacity: Int
    }

    /// What the cache holds, for `soundfont info`, the render summary and the UI.
    public struct Status: Sendable, Equatable {
        /// Compressed samples decoded now, and the memory their slots take.
        public var decodedSamples: Int
        public var decodedBytes: Int
        /// The bound on `decodedBytes`.
        public var limitBytes: Int
        /// Decodes done and samples evicted since load.
        public var decodes: Int
        public var evictions: Int
        /// Distinct samples that did not fit when last asked for (not decoded since), and distinct samples
        /// asked for since load (a render asks for what its file needs, so "N of the M the file needs").
        public var overLimit: Int
        public var requestedSamples: Int
        /// Samples whose Ogg Vorbis stream does not decode (`brokenSamples` names them).
        public var brokenSamples: Int
        /// Notes (one per zone) that did not play, in all: their sample was not decoded yet, did not fit in
        /// the cache (`missedOverLimit`) or does not decode (`missedBroken`).
        public var missedNotes: Int
        public var missedOverLimit: Int
        public var missedBroken: Int
        /// The notes that found their sample not decoded yet.
        public var missedNotDecoded: Int { missedNotes - missedOverLimit - missedBroken }
    }

    /// The default bound: 512 MiB, more than the largest packaged SF3 (MuseScore_General.sf3) needs for a
    /// General MIDI file.
    public static let defaultLimitBytes = 512 << 20

    let path: String
    let names: [String]
    let slots: [Slot]
    /// Where sample `index`'s Ogg Vorbis stream lies in the font file (byte offsets), nil for a 16-bit sample
    /// or an index out of range: for tools and tests that take a font apart.
    public func streamBytes(ofSample index: Int) -> Range<Int>? {
        slots.indices.contains(index) ? slots[index].bytes : nil
    }
    /// The decoded frames of every sample (an anonymous mapping, `regionFrames` long).
    let region: UnsafeMutablePointer<Int16>
    let regionFrames: Int
    /// Each sample's `SampleState`: `decoded` once its frames are in its slot (release store after they are
    /// written), `broken` when its stream does not decode, `overLimit` when it did not fit, else `notDecoded`.
    var ready: UnsafeMutablePointer<Atomic<UInt8>> { readyBytes.rawAddress.assumingMemoryBound(to: Atomic<UInt8>.self) }
    /// Note-ons whose sample was not decoded, by its state (4 counters, indexed by `SampleState`; the
    /// real-time thread adds, relaxed).
    var missed: UnsafeMutablePointer<Atomic<Int>> { missedBytes.rawAddress.assumingMemoryBound(to: Atomic<Int>.self) }
    /// The memory of `ready` and `missed` (zeroed bytes bound to atomics: an atomic's zero is its bits of zero).
    private let readyBytes: FixedArray<UInt8>, missedBytes: FixedArray<UInt8>
    /// The font file's bytes, released with the store.
    let file: UnsafeRawBufferPointer
    private let releaseFile: @Sendable () -> Void

    private struct State {
        var limit: Int
        var lastUse: [UInt64]
        var clock: UInt64 = 0
        var decodedSamples = 0
        var decodedBytes = 0
        var decodes = 0
        var evictions = 0
        var overLimit = 0
        var requested = Set<Int>()
        /// Why each broken sample's stream does not decode (it is not tried again).
        var broken: [Int: SoundFontError] = [:]
    }
    private let state: Mutex<State>

    static let pageFrames = 2048  // 4 KiB of 16-bit frames
    static let tailFrames = 64    // silence after each sample, as a SoundFont 2 smpl has 46 zero frames

    /// Lays out the slots of `parsed`'s samples and rewrites `samples` (the real-time headers) to point into
    /// them: a compressed sample's loop points are frames from its decoded start, a 16-bit sample's move
    /// with it (its frames are copied now). Takes ownership of `file` (released with the store).
    init(parsed: ParsedSoundFont, samples: inout [SoundFontSample], file: UnsafeRawBufferPointer, path: String,
         limitBytes: Int, releaseFile: @escaping @Sendable () -> Void) throws(SoundFontError) {
        var slots: [Slot] = []
        slots.reserveCapacity(samples.count)
        var next = 0
        for i in samples.indices {
            var s = samples[i]
            let compressed = parsed.compressed[i]
            let frames: Int, loopStart: Int, loopEnd: Int
            if let compressed {
                frames = compressed.frames
                loopStart = Int(s.loopStart); loopEnd = Int(s.loopEnd)
            } else if parsed.sampleUsable[i] {
                frames = Int(s.end) - Int(s.start)
                loopStart = Int(s.loopStart) - Int(s.start); loopEnd = Int(s.loopEnd) - Int(s.start)
            } else {
                frames = 0; loopStart = 0; loopEnd = 0
            }
            let capacity = frames == 0 ? 0 : (frames + Self.tailFrames + Self.pageFrames - 1) / Self.pageFrames * Self.pageFrames
            guard next + capacity < Int(Int32.max) / 2 else {
                releaseFile()
                throw SoundFontError(path: path, chunk: "pdta/shdr", offset: 0,
                                     reason: "the samples decode to more than \(Int(Int32.max) / 2) frames, too many to play")
            }
            slots.append(Slot(bytes: compressed?.bytes, start: next, frames: frames, capacity: capacity))
            s.start = UInt32(next)
            s.end = UInt32(next + frames)
            var ls = min(max(loopStart, 0), frames), le = min(max(loopEnd, 0), frames)
            if ls > le { ls = 0; le = 0 }
            s.loopStart = UInt32(next + ls)
            s.loopEnd = UInt32(next + le)
            samples[i] = s
            next += capacity
        }
        let frames = max(next, Self.pageFrames)
        guard let base = mmap(nil, frames * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              base != MAP_FAILED else {
            releaseFile()
            throw SoundFontError(path: path, chunk: "", offset: 0,
                                 reason: "cannot reserve \(frames * 2) bytes of address space for the decoded samples")
        }
        region = base.bindMemory(to: Int16.self, capacity: frames)
        regionFrames = frames
        readyBytes = FixedArray(zeroed: max(samples.count, 1) * MemoryLayout<Atomic<UInt8>>.stride)
        readyBytes.rawAddress.bindMemory(to: Atomic<UInt8>.self, capacity: max(samples.count, 1))
        missedBytes = FixedArray(zeroed: 4 * MemoryLayout<Atomic<Int>>.stride)
        missedBytes.rawAddress.bindMemory(to: Atomic<Int>.self, capacity: 4)
        self.slots = slots
        self.names = parsed.sampleNames
        self.path = path
        self.file = file
        self.releaseFile = releaseFile
        state = Mutex(State(limit: limitBytes, lastUse: Array(repeating: 0, count: slots.count)))
        // 16-bit samples in a SoundFont 3 font: copied now, always ready, outside the cache's bound.
        for (i, slot) in slots.enumerated() where slot.bytes == nil && slot.frames > 0 {
            let source = parsed.smpl.lowerBound + 2 * Int(parsed.samples[i].start)
            for f in 0 ..< slot.frames {
                let o = source + 2 * f
                region[slot.start + f] = Int16(bitPattern: UInt16(file[o]) | UInt16(file[o + 1]) << 8)
            }
            ready[i].store(SampleState.decoded, ordering: .releasing)
        }
    }

    deinit {
        munmap(UnsafeMutableRawPointer(region), regionFrames * 2)
        releaseFile()
    }

    // MARK: What the font holds

    /// Compressed samples, their Ogg Vorbis bytes, and the memory all of them would take decoded (16-bit).
    public var compressedCount: Int { slots.count { $0.bytes != nil } }
    public var compressedBytes: Int { slots.reduce(0) { $0 + ($1.bytes?.count ?? 0) } }
    public var decodedBytesIfAll: Int { slots.reduce(0) { $0 + ($1.bytes == nil ? 0 : 2 * $1.frames) } }

    /// Whether sample `index` is compressed, and its decoded size in bytes (16-bit frames).
    public func isCompressed(_ index: Int) -> Bool { index >= 0 && index < slots.count && slots[index].bytes != nil }
    public func decodedSize(_ index: Int) -> Int { index >= 0 && index < slots.count ? 2 * slots[index].frames : 0 }
    public func compressedSize(_ index: Int) -> Int { index >= 0 && index < slots.count ? slots[index].bytes?.count ?? 0 : 0 }
    public func isDecoded(_ index: Int) -> Bool {
        index >= 0 && index < slots.count && ready[index].load(ordering: .acquiring) == SampleState.decoded
    }

    public var status: Status {
        let notDecoded = missed[Int(SampleState.notDecoded)].load(ordering: .relaxed)
        let overLimit = missed[Int(SampleState.overLimit)].load(ordering: .relaxed)
        let broken = missed[Int(SampleState.broken)].load(ordering: .relaxed)
        return state.withLock { s in
            Status(decodedSamples: s.decodedSamples, decodedBytes: s.decodedBytes, limitBytes: s.limit,
                   decodes: s.decodes, evictions: s.evictions, overLimit: s.overLimit, requestedSamples: s.requested.count,
                   brokenSamples: s.broken.count, missedNotes: notDecoded + overLimit + broken,
                   missedOverLimit: overLimit, missedBroken: broken)
        }
    }

    /// The samples whose stream does not decode, in index order: "sample 12 'Piano C4'" (sanitized).
    public var brokenSamples: [String] {
        state.withLock { s in s.broken.keys.sorted().map { "sample \($0) '\(TerminalText.sanitized(names[$0]))'" } }
    }

    /// Changes the bound; samples are evicted (least recently asked for first) until the cache fits.
    public func setLimit(bytes: Int) {
        state.withLock { s in
            s.limit = max(bytes, 0)
            evict(&s, toFit: 0, keeping: [])
        }
    }

    // MARK: Decoding

    /// Decodes the compressed samples of `indices` not decoded yet (any thread but the real-time one; callers
    /// are serialised). Samples decoded before are only marked as used. When the bound is reached, samples
    /// not in `indices` are evicted, least recently used first; a sample that still does not fit is not
    /// decoded (counted once in `overLimit` until it is decoded). A stream that does not decode does not stop
    /// the others: the sample is marked broken, never tried again, and the errors naming the broken samples
    /// of `indices` (found now or before) are returned, in index order.
    public func decode(_ indices: some Sequence<Int>) -> [SoundFontError] {
        let wanted = Set(indices.filter { $0 >= 0 && $0 < slots.count && slots[$0].bytes != nil })
        var failures: [SoundFontError] = []
        // In slot order: the mapping is then written front to back.
        for i in wanted.sorted() {
            state.withLock { s in
                s.clock += 1
                s.lastUse[i] = s.clock
                s.requested.insert(i)
                let now = ready[i].load(ordering: .relaxed)
                if now == SampleState.decoded { return }
                if let error = s.broken[i] { failures.append(error); return }
                let cost = 2 * slots[i].capacity
                evict(&s, toFit: cost, keeping: wanted)
                guard s.decodedBytes + cost <= s.limit else {
                    if now != SampleState.overLimit {
                        s.overLimit += 1
                        ready[i].store(SampleState.overLimit, ordering: .relaxed)
                    }
                    return
                }
                if now == SampleState.overLimit { s.overLimit -= 1 }
                do throws(SoundFontError) {
                    try decodeSlot(i)
                } catch {
                    s.broken[i] = error
                    ready[i].store(SampleState.broken, ordering: .relaxed)
                    failures.append(error)
                    return
                }
                ready[i].store(SampleState.decoded, ordering: .releasing)
                s.decodedSamples += 1
                s.decodedBytes += cost
                s.decodes += 1
            }
        }
        return failures
    }

    /// Evicts decoded samples outside `keeping`, least recently used first, until `cost` more bytes fit.
    private func evict(_ s: inout State, toFit cost: Int, keeping: Set<Int>) {
        while s.decodedBytes + cost > s.limit {
            var victim = -1
            for i in slots.indices where slots[i].bytes != nil && !keeping.contains(i)
                && ready[i].load(ordering: .relaxed) == SampleState.decoded && (victim < 0 || s.lastUse[i] < s.lastUse[victim]) {
                victim = i
            }
            guard victim >= 0 else { return }
            ready[victim].store(SampleState.notDecoded, ordering: .releasing)
            let slot = slots[victim]
            _ = madvise(UnsafeMutableRawPointer(region + slot.start), 2 * slot.capacity, MADV_DONTNEED)
            s.decodedSamples -= 1
            s.decodedBytes -= 2 * slot.capacity
            s.evictions += 1
        }
    }

    /// Decodes sample `i`'s stream into its slot (frames past the stream's end stay silent).
    private func decodeSlot(_ i: Int) throws(SoundFontError) {
        let slot = slots[i]
        guard let bytes = slot.bytes, let base = file.baseAddress else { return }
        var rate = 0
        let got = backbeat_vorbis_decode(base.assumingMemoryBound(to: UInt8.self) + bytes.lowerBound, bytes.count,
                                         region + slot.start, slot.frames, &rate)
        guard got >= 0 else {
            let reason = switch Int32(got) {
            case BACKBEAT_VORBIS_NOT_MONO: "not mono"
            case OV_ENOTVORBIS: "not Vorbis data"
            case OV_EBADHEADER: "bad Vorbis header"
            case OV_EVERSION: "unsupported Vorbis version"
            case OV_EREAD: "truncated"
            default: "libvorbisfile error \(got)"
            }
            // What was written before the error is cleared, so the slot stays silent.
            _ = madvise(UnsafeMutableRawPointer(region + slot.start), 2 * slot.capacity, MADV_DONTNEED)
            throw SoundFontError(path: path, chunk: "sdta/smpl", offset: bytes.lowerBound,
                                 reason: "sample \(i) '\(TerminalText.sanitized(names[i]))': its Ogg Vorbis stream does not decode (\(reason))")
        }
    }
}
