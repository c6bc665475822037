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

    var high: [Int16] = []
    var low: [UInt8] = []
    /// Whether any frame has more than 16 bits (a 24-bit or float file): the low bytes are then kept.
    var deep = false
    /// An instrument bigger than the sample cache: the files' heads only, laid out for streaming
    /// (SFZSampleData+Streaming.swift); nil when every frame is decoded now.
    var stream: Stream?

    /// Appends `frames` (-1...1) as one sample and returns its span (in the streamed layout when streaming).
    mutating func append(_ frames: some Collection<Float>) -> Span {
        let start = high.count
        // Grown geometrically: reserving the exact size at each sample copied the whole instrument again for
        // every file (a 1 GiB instrument of 64 files loaded in 81 s, 42 of them in the kernel).
        let needed = start + frames.count + Self.padding
        if high.capacity < needed { high.reserveCapacity(max(needed, 2 * high.capacity)) }
        if deep && low.capacity < needed { low.reserveCapacity(max(needed, 2 * low.capacity)) }
        for f in frames {
            let scaled = (Double(f.isFinite ? f : 0) * 8_388_608).rounded()
            let v = Int32(min(max(scaled, -8_388_608), 8_388_607))
            high.append(Int16(truncatingIfNeeded: v >> 8))
            let byte = UInt8(truncatingIfNeeded: v & 0xFF)
            if deep {
                low.append(byte)
            } else if byte != 0 {
                keepLowBytes()
                low[low.count - 1] = byte
            }
        }
        high.append(contentsOf: repeatElement(0, count: Self.padding))
        if deep { low.append(contentsOf: repeatElement(0, count: Self.padding)) }
        if stream != nil { return placePiece(from: start, frames: frames.count) }
        return Span(start: start, frames: frames.count)
    }

    /// From now on the low bytes are kept: those of the frames so far (all zero until now) are filled in. Until
    /// a frame needs them there are none (a 16-bit instrument does not hold a byte a frame it never uses).
    mutating func keepLowBytes() {
        if low.count < high.count { low.append(contentsOf: repeatElement(0, count: high.count - low.count)) }
        deep = true
    }

    /// Decodes the file at `path` through libsndfile: its first two channels (a mono file one).
    mutating func appendFile(_ path: String) throws(SampleFileError) -> File {
        if stream != nil { return try appendStreamedFile(path) }
        let file = try SampleFile(path: path)
        let info = file.info
        let all = try file.readAll()
        let channels = min(info.channels, 2)
        var spans: [Span] = []
        for c in 0..<channels {
            spans.append(append(stride(from: c, to: all.count, by: info.channels).lazy.map { all[$0] }))
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
        case .silence: return append(repeatElement(0, count: n))
        case .noise, .gaussianNoise:
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            return append((0..<Self.noiseFrames).map { _ -> Float in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Float(Double(state >> 11) / Double(1 << 53) * 2 - 1)
            })
        }
    }

    /// The frames in memory the font owns, with the release that frees them.
    func memory() -> (data: UnsafeBufferPointer<Int16>, low: UnsafeBufferPointer<UInt8>?, release: @Sendable () -> Void) {
        let held = SFZHeldFrames(high: high, low: deep ? low : nil)
        return (held.data, held.lowBytes, { withExtendedLifetime(held) {} })
    }
}

/// Sample frames owned by a font built from an SFZ instrument, freed when the font lets go of them.
final class SFZHeldFrames: @unchecked Sendable {
    let data: UnsafeBufferPointer<Int16>
    let lowBytes: UnsafeBufferPointer<UInt8>?

    init(high: [Int16], low: [UInt8]?) {
        let d = UnsafeMutableBufferPointer<Int16>.allocate(capacity: max(high.count, 1))
        _ = d.initialize(from: high)
        data = UnsafeBufferPointer(start: d.baseAddress, count: high.count)
        if let low {
            let l = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(low.count, 1))
            _ = l.initialize(from: low)
            lowBytes = UnsafeBufferPointer(start: l.baseAddress, count: low.count)
        } else {
            lowBytes = nil
        }
    }

    deinit {
        UnsafeMutablePointer(mutating: data.baseAddress)?.deallocate()
        if let base = lowBytes?.baseAddress { UnsafeMutablePointer(mutating: base).deallocate() }
    }
}
