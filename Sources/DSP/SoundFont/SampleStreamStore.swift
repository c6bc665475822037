import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// The samples of an instrument too big for the sample cache (`--sample-cache`), streamed from disk. Every
// sample channel ("unit") has its place in one anonymous MAP_NORESERVE mapping the size of all of them
// decoded (untouched pages cost no memory), so the font's sample headers index it as they index any data.
// Its first `headFrames` frames are read at load and stay; the rest is read by the loader (`service`, off the
// real-time thread) when a note asks for it, front to back in chunks, each published by storing the unit's
// loaded-frame count with release ordering. The real-time thread never waits: at note-on it sets the unit's
// `wanted` flag, and per control block a voice checks (acquire) that the frames it will read are loaded; a
// voice that would read past them ends there and is counted late (Synth+SampleStream.swift).
// Eviction (least recently asked for first, beyond the bound) drops only a unit's rest, and never one a voice
// played in the last two blocks: its count is first lowered to the head, and its pages are given back
// (madvise DONTNEED) only once two more blocks have rendered, when every voice has seen the lowered count.

/// Where a streamed unit's frames come from: one file's interleaved frames, opened for one load.
public protocol SampleStreamSource: AnyObject {
    /// The file's channels (interleaved in what `read` returns).
    var channelCount: Int { get }
    /// Frames `range` of the file, interleaved, as floats in -1...1.
    func read(frames range: Range<Int>) throws -> [Float]
}

/// The streamed samples of one instrument: their memory, their heads, what is loaded, the bound.
public final class SampleStreamStore: @unchecked Sendable {
    /// One channel of one sample file: `frames` frames at `start` in the mapping (then `padding` silent ones).
    public struct Unit: Sendable, Equatable {
        public var file: Int
        public var channel: Int
        public var start: Int
        public var frames: Int
        public init(file: Int, channel: Int, start: Int, frames: Int) {
            (self.file, self.channel, self.start, self.frames) = (file, channel, start, frames)
        }
    }

    /// What the store holds and did, for `render`'s summary and the loader's log.
    public struct Status: Sendable, Equatable {
        /// Bytes in memory now: the heads (and anything not streamed) plus the rests loaded.
        public var residentBytes: Int
        /// The bound (`--sample-cache`).
        public var limitBytes: Int
        /// Bytes of sample data read from disk by the loader since load (the heads not counted), and the
        /// seconds it spent reading them.
        public var streamedBytes: Int
        public var streamingSeconds: Double
        /// Units whose rest was read whole, and rests evicted, since load.
        public var loads: Int
        public var evictions: Int
        /// Voices that ended because the frames they were to read were not loaded.
        public var lateVoices: Int
        /// Voices started on a streamed unit.
        public var streamedVoices: Int
        /// Errors reading the rests (the files named), the first few.
        public var failures: [String]
    }

    /// The frames of every unit read at load and always in memory. The loader polls every millisecond and
    /// reads a chunk (`chunkFrames`) in about a millisecond from the page cache, 5-20 ms from a cold disk:
    /// 16384 frames are 341 ms at 48 kHz (170 ms an octave up), enough for a burst of notes queued behind
    /// each other's first chunks, where sfizz preloads 8192.
    public static let headFrames = 16_384
    /// The loader reads a rest this many frames at a time, publishing each: a voice plays on while the rest
    /// of its sample is read behind it.
    public static let chunkFrames = 65_536

    public let units: [Unit]
    /// The number of frames in the mapping (the font's `sampleData.count`).
    public let regionFrames: Int
    let region: UnsafeMutablePointer<Int16>
    let lowRegion: UnsafeMutablePointer<UInt8>?
    let padding: Int
    let headFrames: Int
    /// Per sample header of the font: its unit, or -1 (a generated wave: always in memory).
    let sampleUnits: FixedArray<Int32>
    let unitStarts: FixedArray<Int>
    /// Frames of each unit loaded from its start (`Int.max` once whole); acquire before reading past the head.
    var loaded: UnsafeMutablePointer<Atomic<Int>> { loadedBytes.rawAddress.assumingMemoryBound(to: Atomic<Int>.self) }
    /// Set by the real-time thread at note-on (the rest is wanted), cleared by the loader.
    var wanted: UnsafeMutablePointer<Atomic<UInt8>> { wantedBytes.rawAddress.assumingMemoryBound(to: Atomic<UInt8>.self) }
    /// The block clock when a voice last started or played each unit.
    var lastPlayed: UnsafeMutablePointer<Atomic<UInt64>> { playedBytes.rawAddress.assumingMemoryBound(to: Atomic<UInt64>.self) }
    /// [0] the block clock (the real-time thread adds one per render), [1] late voices, [2] streamed voices.
    var counters: UnsafeMutablePointer<Atomic<UInt64>> { counterBytes.rawAddress.assumingMemoryBound(to: Atomic<UInt64>.self) }
    private let loadedBytes: FixedArray<UInt8>, wantedBytes: FixedArray<UInt8>, playedBytes: FixedArray<UInt8>
    private let counterBytes: FixedArray<UInt8>
    private let open: @Sendable (Int) throws -> any SampleStreamSource
    private let fileNames: [String]

    private enum Residence: Equatable { case head, loading, whole, evicting(UInt64) }
    private struct State {
        var limit: Int
        var fixedBytes: Int
        var restBytes = 0
        var residence: [Residence]
        var lastUse: [UInt64]
        var useClock: UInt64 = 0
        /// Files being read, in the order asked for, with the frame each has reached.
        var reading: [(file: Int, next: Int)] = []
        var streamedBytes = 0
        var streamingNanoseconds: UInt64 = 0
        var loads = 0
        var evictions = 0
        var failures: [String] = []
        var failed = Set<Int>()
    }
    private let state: Mutex<State>
    private let unitsOfFile: [[Int]]

    /// A store over `regionFrames` frames (`deep`: with a low byte each) for `units`, whose heads the caller
    /// writes next (`write`); `sampleUnits` maps the font's sample headers to units; `open(file)` opens one of
    /// `fileNames` for the loader. `fixedBytes` is what stays in memory whatever is streamed (heads, waves).
    public init(regionFrames: Int, deep: Bool, units: [Unit], sampleUnits: [Int32], fileNames: [String], padding: Int,
                headFrames: Int = SampleStreamStore.headFrames, limitBytes: Int,
                open: @escaping @Sendable (Int) throws -> any SampleStreamSource) throws(SampleStreamError) {
        let frames = max(regionFrames, 1)
        guard let base = mmap(nil, frames * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              base != MAP_FAILED else { throw SampleStreamError("cannot reserve \(frames * 2) bytes of address space for the samples") }
        var low: UnsafeMutablePointer<UInt8>?
        if deep {
            guard let lowBase = mmap(nil, frames, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
                  lowBase != MAP_FAILED else {
                munmap(base, frames * 2)
                throw SampleStreamError("cannot reserve \(frames) bytes of address space for the samples' low bytes")
            }
            low = lowBase.bindMemory(to: UInt8.self, capacity: frames)
        }
        region = base.bindMemory(to: Int16.self, capacity: frames)
        lowRegion = low
        self.regionFrames = regionFrames
        self.units = units
        self.padding = padding
        self.headFrames = headFrames
        self.open = open
        self.fileNames = fileNames
        self.sampleUnits = FixedArray(copying: sampleUnits.isEmpty ? [-1] : sampleUnits)
        unitStarts = FixedArray(copying: units.isEmpty ? [0] : units.map(\.start))
        let n = max(units.count, 1)
        loadedBytes = FixedArray(zeroed: n * MemoryLayout<Atomic<Int>>.stride)
        loadedBytes.rawAddress.bindMemory(to: Atomic<Int>.self, capacity: n)
        wantedBytes = FixedArray(zeroed: n * MemoryLayout<Atomic<UInt8>>.stride)
        wantedBytes.rawAddress.bindMemory(to: Atomic<UInt8>.self, capacity: n)
        playedBytes = FixedArray(zeroed: n * MemoryLayout<Atomic<UInt64>>.stride)
        playedBytes.rawAddress.bindMemory(to: Atomic<UInt64>.self, capacity: n)
        counterBytes = FixedArray(zeroed: 3 * MemoryLayout<Atomic<UInt64>>.stride)
        counterBytes.rawAddress.bindMemory(to: Atomic<UInt64>.self, capacity: 3)
        var byFile = [[Int]](repeating: [], count: fileNames.count)
        for (u, unit) in units.enumerated() where byFile.indices.contains(unit.file) { byFile[unit.file].append(u) }
        unitsOfFile = byFile
        let bytesPerFrame = deep ? 3 : 2
        let heads = units.reduce(0) { $0 + min($1.frames, headFrames) + padding }
        state = Mutex(State(limit: limitBytes, fixedBytes: max(regionFrames - units.reduce(0) { $0 + $1.frames + padding } + heads, 0) * bytesPerFrame,
                            residence: units.map { $0.frames <= headFrames ? .whole : .head }, lastUse: Array(repeating: 0, count: units.count)))
        // A unit no longer than its head is whole from the start.
        for (u, unit) in units.enumerated() { loaded[u].store(unit.frames <= headFrames ? .max : headFrames, ordering: .releasing) }
    }

    deinit {
        munmap(UnsafeMutableRawPointer(region), max(regionFrames, 1) * 2)
        if let lowRegion { munmap(UnsafeMutableRawPointer(lowRegion), max(regionFrames, 1)) }
    }

    /// The mapping as the font's sample data and low bytes (valid as long as the store lives).
    public var sampleData: UnsafeBufferPointer<Int16> { UnsafeBufferPointer(start: region, count: regionFrames) }
    public var sampleLowBytes: UnsafeBufferPointer<UInt8>? { lowRegion.map { UnsafeBufferPointer(start: $0, count: regionFrames) } }

    /// Writes `frames` (-1...1; every `stride`-th from `offset`) at frame `at` of the mapping: 16 bits and, when
    /// the store keeps them, the low byte of 24. Off the real-time thread (the loader, or the load for heads).
    public func write(_ frames: UnsafeBufferPointer<Float>, offset: Int, stride: Int, count: Int, at: Int) {
        for i in 0..<count {
            let f = frames[offset + i * stride]
            let scaled = (Double(f.isFinite ? f : 0) * 8_388_608).rounded()
            let v = Int32(min(max(scaled, -8_388_608), 8_388_607))
            region[at + i] = Int16(truncatingIfNeeded: v >> 8)
            lowRegion?[at + i] = UInt8(truncatingIfNeeded: v & 0xFF)
        }
    }

    /// Writes 16-bit frames and their low bytes (a generated wave, or anything else kept whole) at `at`.
    public func write(high: [Int16], low: [UInt8]?, at: Int) {
        for (i, v) in high.enumerated() { region[at + i] = v }
        if let low, let lowRegion { for (i, v) in low.enumerated() { lowRegion[at + i] = v } }
    }

    /// Changes the bound; rests are evicted (least recently asked for first) on the loader's next pass.
    public func setLimit(bytes: Int) { state.withLock { $0.limit = max(bytes, 0) } }

    public var status: Status {
        let late = Int(counters[1].load(ordering: .relaxed)), started = Int(counters[2].load(ordering: .relaxed))
        return state.withLock { s in
            Status(residentBytes: s.fixedBytes + s.restBytes, limitBytes: s.limit, streamedBytes: s.streamedBytes,
                   streamingSeconds: Double(s.streamingNanoseconds) * 1e-9, loads: s.loads, evictions: s.evictions,
                   lateVoices: late, streamedVoices: started, failures: s.failures)
        }
    }

    /// Whether unit `u` is whole in memory now.
    public func isWhole(_ u: Int) -> Bool { loaded[u].load(ordering: .acquiring) == .max }
    /// The frames of unit `u` loaded now (its head, more while it is read, `Int.max` once whole).
    public func loadedFrames(_ u: Int) -> Int { loaded[u].load(ordering: .acquiring) }
    /// Whether a request waits or a rest is being read: `catchUp` returns once this is false.
    public var isIdle: Bool {
        state.withLock { s in s.reading.isEmpty && !units.indices.contains { wanted[$0].load(ordering: .acquiring) != 0 } }
    }
    /// The block clock: renders so far (one per `Synth.render`).
    public var blocks: UInt64 { counters[0].load(ordering: .sequentiallyConsistent) }

    /// Serves requests until none is left (an offline render between periods: it waits for the disk, so its
    /// voices are never late). Any thread but the real-time one.
    public func catchUp() {
        while !isIdle { service() }
    }

    // MARK: The loader's pass

    /// One pass of the loader (any thread but the real-time one; callers are serialised): takes the units
    /// asked for, reads one chunk of each file being read, evicts beyond the bound, gives back the pages of
    /// evictions every voice has seen. Returns whether it did anything (else the loader may sleep).
    @discardableResult
    public func service() -> Bool {
        state.withLock { s in
            var worked = false
            for u in units.indices where wanted[u].load(ordering: .relaxed) != 0 {
                wanted[u].store(0, ordering: .relaxed)
                worked = true
                s.useClock += 1
                s.lastUse[u] = s.useClock
                switch s.residence[u] {
                case .whole, .loading: break
                case .evicting:
                    // Its pages are still there: whole again.
                    loaded[u].store(.max, ordering: .releasing)
                    s.residence[u] = .whole
                    s.restBytes += restCost(u)
                case .head:
                    guard !s.failed.contains(units[u].file) else { break }
                    let file = units[u].file
                    for other in unitsOfFile[file] where s.residence[other] == .head { s.residence[other] = .loading; s.restBytes += restCost(other) }
                    if !s.reading.contains(where: { $0.file == file }) { s.reading.append((file, headFrames)) }
                }
            }
            evict(&s)
            var i = 0
            while i < s.reading.count {
                worked = true
                if readChunk(&s, i) { i += 1 } else { s.reading.remove(at: i) }
            }
            giveBack(&s)
            return worked
        }
    }

    private var bytesPerFrame: Int { lowRegion == nil ? 2 : 3 }
    private func restCost(_ u: Int) -> Int { max(units[u].frames + padding - headFrames, 0) * bytesPerFrame }

    /// Reads the next chunk of `s.reading[i]`'s file into its units; false once the file is done (or failed).
    private func readChunk(_ s: inout State, _ i: Int) -> Bool {
        let (file, next) = s.reading[i]
        let mine = unitsOfFile[file]
        let frames = mine.map { units[$0].frames }.max() ?? 0
        let end = min(next + Self.chunkFrames, frames)
        let started = DispatchTimeNanoseconds.now()
        do {
            let source = try open(file)
            let samples = try source.read(frames: next..<end)
            let stride = max(source.channelCount, 1)
            samples.withUnsafeBufferPointer { buffer in
                for u in mine where s.residence[u] == .loading {
                    let unit = units[u]
                    let count = min(end, unit.frames) - next
                    guard count > 0, unit.channel < stride, buffer.count >= count * stride else { continue }
                    write(buffer, offset: unit.channel, stride: stride, count: count, at: unit.start + next)
                    loaded[u].store(end >= unit.frames ? .max : end, ordering: .releasing)
                    if end >= unit.frames { s.residence[u] = .whole; s.loads += 1 }
                }
            }
            s.streamedBytes += (end - next) * mine.count * bytesPerFrame
        } catch {
            // The rest stays unread: its voices end late at the head. Named once.
            if s.failures.count < 8 { s.failures.append("\(error)") }
            s.failed.insert(file)
            for u in mine where s.residence[u] == .loading { s.residence[u] = .head; s.restBytes -= restCost(u) }
            s.streamingNanoseconds += DispatchTimeNanoseconds.now() - started
            return false
        }
        s.streamingNanoseconds += DispatchTimeNanoseconds.now() - started
        s.reading[i].next = end
        return end < frames
    }

    /// Lowers least recently asked-for whole rests to their heads until the rests fit the bound: never a unit
    /// a voice played in the last two blocks, nor one being read. Their pages go later (`giveBack`).
    private func evict(_ s: inout State) {
        let now = counters[0].load(ordering: .sequentiallyConsistent)
        while s.fixedBytes + s.restBytes > s.limit {
            var victim = -1
            for u in units.indices where s.residence[u] == .whole && units[u].frames > headFrames
                && lastPlayed[u].load(ordering: .relaxed) &+ 2 < now && (victim < 0 || s.lastUse[u] < s.lastUse[victim]) {
                victim = u
            }
            guard victim >= 0 else { return }
            loaded[victim].store(headFrames, ordering: .sequentiallyConsistent)
            s.residence[victim] = .evicting(counters[0].load(ordering: .sequentiallyConsistent))
            s.restBytes -= restCost(victim)
        }
    }

    /// Gives back the pages of rests lowered two blocks ago or more (every voice has checked the lowered
    /// count since): only whole pages past the head, so the head and the neighbours' frames stay.
    private func giveBack(_ s: inout State) {
        let now = counters[0].load(ordering: .sequentiallyConsistent)
        for u in units.indices {
            guard case .evicting(let since) = s.residence[u], now >= since &+ 2 else { continue }
            let unit = units[u]
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            func drop(_ base: UnsafeMutableRawPointer, _ from: Int, _ to: Int) {
                let first = (from + page - 1) / page * page, last = to / page * page
                if last > first { _ = madvise(base + first, last - first, MADV_DONTNEED) }
            }
            drop(UnsafeMutableRawPointer(region), 2 * (unit.start + headFrames), 2 * (unit.start + unit.frames + padding))
            if let lowRegion { drop(UnsafeMutableRawPointer(lowRegion), unit.start + headFrames, unit.start + unit.frames + padding) }
            s.residence[u] = .head
            s.evictions += 1
        }
    }
}

/// A streamed instrument that cannot be set up: why.
public struct SampleStreamError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Monotonic nanoseconds (CLOCK_MONOTONIC), for the loader's reading time.
enum DispatchTimeNanoseconds {
    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }
}
