import DSP
import Glibc

/// The sample frames of an SFZ instrument made playable (`SFZInstrument.soundFont`): every file's channels
/// and the generators' waves end to end, as 16-bit frames with their low bytes (24-bit precision), each
/// followed by SoundFont 2's 46 silent frames so the voices' interpolation never reads another sample.
struct SFZSampleData {
    /// One channel of a decoded file or a generated wave: where its frames start and how many there are.
    struct Span { var start: Int, frames: Int }

    /// A decoded file: its channels' spans (one, or left and right), its rate and what its `smpl` chunk says.
    struct File {
        var channels: [Span]
        var sampleRate: Int
        var rootKey: Int?
        var loop: SampleLoop?
    }

    static let padding = 46
    /// A generated periodic wave is one cycle of this many frames, played at the rate that gives its pitch.
    static let cycleFrames = 1024
    /// `*noise`: this many frames of white noise at 48 kHz, looped.
    static let noiseFrames = 96_000

    /// The frames written so far, in the block the font will own (a streamed instrument's: its heads and
    /// waves, copied into the stream's mapping).
    let frames = SFZHeldFrames()
    /// Whether any frame has more than 16 bits (a 24-bit or float file): the low bytes are then kept.
    var deep = false
    /// An instrument bigger than the sample cache: the files' heads only, laid out for streaming
    /// (SFZSampleData+Streaming.swift); nil when every frame is decoded now.
    var stream: Stream?

    /// Appends `frames` (-1...1) as one sample and returns its span.
    mutating func append(_ frames: [Float]) -> Span { append(interleaved: frames, channel: 0, of: 1) }

    /// Appends channel `channel` of the `channels`-channel interleaved `frames` as one sample and returns its
    /// span. Each value is rounded to 24 bits (halves away from zero), kept as its high 16 bits and low byte.
    mutating func append(interleaved source: [Float], channel: Int, of channels: Int) -> Span {
        let count = source.count / max(channels, 1)
        let start = frames.extend(by: count + Self.padding)
        let h = frames.high + start, l = frames.low + start
        var lowBits: UInt8 = 0
        source.withUnsafeBufferPointer { source in
            var i = channel
            for f in 0 ..< count {
                let x = Double(source[i].isFinite ? source[i] : 0) * 8_388_608
                // x + 0.5 (or - 0.5) is exact for a Float's 24 bits times 2^23: truncating it rounds as
                // `rounded()` does, without a call to libm.
                let scaled = (x + (x < 0 ? -0.5 : 0.5)).rounded(.towardZero)
                let v = Int32(min(max(scaled, -8_388_608), 8_388_607))
                h[f] = Int16(truncatingIfNeeded: v >> 8)
                let byte = UInt8(truncatingIfNeeded: v & 0xFF)
                l[f] = byte
                lowBits |= byte
                i += channels
            }
        }
        (h + count).initialize(repeating: 0, count: Self.padding)
        (l + count).initialize(repeating: 0, count: Self.padding)
        if lowBits != 0 { deep = true }
        if stream != nil { return placePiece(from: start, frames: count) }
        return Span(start: start, frames: count)
    }

    /// Decodes the file at `path` through libsndfile: its first two channels (a mono file one).
    mutating func appendFile(_ path: String) throws(SampleFileError) -> File {
        if stream != nil { return try appendStreamedFile(path) }
        let file = try SampleFile(path: path)
        let info = file.info
        let all = try file.readAll()
        var spans: [Span] = []
        for c in 0..<min(info.channels, 2) {
            spans.append(append(interleaved: all, channel: c, of: info.channels))
        }
        let loop = info.loops.first { $0.mode != .none && $0.end > $0.start }
        return File(channels: spans, sampleRate: info.sampleRate, rootKey: info.rootKey, loop: loop)
    }

    /// One generator's wave: a cycle of `cycleFrames` for the periodic ones, white noise for the noises,
    /// silence for `*silence`. Full scale, as sfizz's oscillators are.
    mutating func appendWave(_ generator: SFZGenerator) -> Span {
        let n = Self.cycleFrames
        func phase(_ i: Int) -> Double { Double(i) / Double(n) }
        switch generator {
        case .sine: return append((0..<n).map { Float(sin(2 * Double.pi * phase($0))) })
        case .triangle: return append((0..<n).map { i -> Float in
            let p = phase(i)
            return Float(p < 0.25 ? 4 * p : p < 0.75 ? 2 - 4 * p : 4 * p - 4)
        })
        case .square: return append((0..<n).map { $0 < n / 2 ? 1 : -1 })
        case .saw: return append((0..<n).map { Float(2 * phase($0) - 1) })
        case .silence: return append([Float](repeating: 0, count: n))
        case .noise, .gaussianNoise:
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            return append((0..<Self.noiseFrames).map { _ -> Float in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Float(Double(state >> 11) / Double(1 << 53) * 2 - 1)
            })
        }
    }

    /// The frames in memory the font owns, with the release that frees them; the low bytes only when a frame
    /// needs them.
    func memory() -> (data: UnsafeBufferPointer<Int16>, low: UnsafeBufferPointer<UInt8>?, release: @Sendable () -> Void) {
        let held = frames
        if !deep { held.dropLowBytes() }
        return (UnsafeBufferPointer(start: held.high, count: held.count), deep ? UnsafeBufferPointer(start: held.low, count: held.count) : nil,
                { withExtendedLifetime(held) {} })
    }
}

/// Sample frames in two malloc'd blocks (the 16-bit frames and their low bytes), grown by `realloc`, which
/// moves a large block's pages rather than copying its bytes; owned by the font built from them and freed with it.
final class SFZHeldFrames: @unchecked Sendable {
    private(set) var high: UnsafeMutablePointer<Int16>
    private(set) var low: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity = 1

    init() {
        high = Self.resized(nil, to: 1)
        low = Self.resized(nil, to: 1)
    }

    /// Makes room for `n` more frames (not yet written) and returns where they start.
    func extend(by n: Int) -> Int {
        let start = count
        if start + n > capacity {
            capacity = max(start + n, 2 * capacity)
            high = Self.resized(high, to: capacity)
            low = Self.resized(low, to: capacity)
        }
        count += n
        return start
    }

    /// Gives back the low bytes' memory (every frame is 16-bit).
    func dropLowBytes() {
        low = Self.resized(low, to: 1)
    }

    private static func resized<T>(_ block: UnsafeMutablePointer<T>?, to n: Int) -> UnsafeMutablePointer<T> {
        guard let grown = realloc(block, n * MemoryLayout<T>.stride) else {
            fatalError("out of memory for \(n) sample frames")
        }
        return grown.bindMemory(to: T.self, capacity: n)
    }

    deinit {
        free(high)
        free(low)
    }
}
