// A stereo 32-bit float WAV file written as the audio arrives, in bounded memory whatever its length: the
// live `--record-audio` capture and `backbeat render` both write through it.
import Realtime

/// A stereo 32-bit float WAV file written as the audio arrives. The header is written first and patched
/// with the real sizes when asked (the recorder: every second) and on close, so the file is valid at any
/// moment up to what was written, also after a write error (disk full) stops it. Past 4 GiB of data the
/// patched header is RF64's (see `WAVFile.header`). An output that cannot seek (a FIFO, a pipe) gets a
/// header of unknown length, which readers read to the end of the stream.
public final class WAVStreamWriter {
    public let output: OutputFile
    public var path: String { output.path }
    public private(set) var sampleRate: Int
    public private(set) var frames = 0
    /// RIFF sizes above this are written as RF64 (smaller in tests).
    let rf64Above: Int
    /// Interleaved samples of planar appends not yet written.
    private var pending: UnsafeMutableBufferPointer<UInt32> { memory.buffer }
    /// The memory of `pending`.
    private let memory: FixedArray<UInt32>
    private var pendingFrames = 0
    private var closed = false

    /// Frames interleaved in memory before a write (64 KiB).
    static let bufferFrames = 8_192

    /// Writes the header for no frames into `output`; the writer owns it from now on.
    public convenience init(output: OutputFile, sampleRate: Int) throws(SystemError) {
        try self.init(output: output, sampleRate: sampleRate, rf64Above: WAVFile.plainWAVLimit)
    }

    /// `rf64Above`: the RIFF size above which the header is RF64's (small in tests, to check RF64 without
    /// writing 4 GiB).
    init(output: OutputFile, sampleRate: Int, rf64Above: Int) throws(SystemError) {
        self.output = output
        self.sampleRate = sampleRate
        self.rf64Above = rf64Above
        memory = FixedArray(Self.bufferFrames * 2, 0)
        do {
            try output.write(WAVFile.header(frames: output.isSeekable ? 0 : nil, sampleRate: sampleRate, rf64Above: rf64Above))
        } catch {
            output.discard()
            closed = true
            throw error
        }
    }

    /// A recording: written beside `path` as it grows and put in place with its first frames (whatever was
    /// at `path` stays until then, and stays if none come); `path` must be a regular file or not exist.
    convenience init(path: String, sampleRate: Int, rf64Above: Int = WAVFile.plainWAVLimit) throws(SystemError) {
        let output = try OutputFile(path: path, mode: .growing, what: "an audio take")
        try self.init(output: output, sampleRate: sampleRate, rf64Above: rf64Above)
    }

    deinit {
        if !closed { output.discard() }
    }

    /// The sample rate becomes known when the engine runs; set it before `append`.
    func setSampleRate(_ rate: Int) { sampleRate = rate }

    /// Appends interleaved frames. On an error the file keeps the complete frames written before it.
    func append(_ buffer: UnsafeBufferPointer<StereoFrame>) throws(SystemError) {
        try flush()
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        try writeFrames(UnsafeRawBufferPointer(start: UnsafeRawPointer(base), count: buffer.count * 8))
    }

    /// Appends planar frames (`count` from each channel), interleaved through a 64 KiB buffer.
    public func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) throws(SystemError) {
        var done = 0
        while done < count {
            let n = min(count - done, Self.bufferFrames - pendingFrames)
            for i in 0..<n {
                pending[2 * (pendingFrames + i)] = left[done + i].bitPattern.littleEndian
                pending[2 * (pendingFrames + i) + 1] = right[done + i].bitPattern.littleEndian
            }
            pendingFrames += n
            done += n
            if pendingFrames == Self.bufferFrames { try flush() }
        }
    }

    /// Writes the frames buffered by planar appends.
    public func flush() throws(SystemError) {
        guard pendingFrames > 0 else { return }
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(pending.baseAddress!), count: pendingFrames * 8)
        pendingFrames = 0
        try writeFrames(bytes)
    }

    private func writeFrames(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        do {
            try output.write(bytes)
            frames += bytes.count / 8
        } catch {
            // Keep the whole frames that reached the file; drop a torn one.
            frames = max(0, output.position - WAVFile.headerSize) / 8
            output.truncate(to: WAVFile.headerSize + frames * 8)
            throw error
        }
        // A recording holds something now: in place it goes (once).
        try output.publish()
    }

    /// Writes the header for the frames written so far (nothing to do on an output that cannot seek).
    public func patchHeader() throws(SystemError) {
        try flush()
        guard output.isSeekable else { return }
        try output.write(WAVFile.header(frames: frames, sampleRate: sampleRate, rf64Above: rf64Above), at: 0)
    }

    /// Writes what is buffered, patches the header and closes the file (renaming it into place when the
    /// output is written atomically).
    public func close() throws(SystemError) {
        guard !closed else { return }
        closed = true
        if output.mode == .growing && !output.isPublished {
            // A recording with no frames: nothing replaces what was at the path.
            output.discard()
            return
        }
        do {
            try patchHeader()
        } catch {
            // Keeps what was written in place (a recording); an atomic output leaves nothing.
            output.discard()
            throw error
        }
        try output.commit()
    }

    /// Closes without committing: an atomic output leaves nothing behind.
    public func discard() {
        guard !closed else { return }
        closed = true
        output.discard()
    }
}
