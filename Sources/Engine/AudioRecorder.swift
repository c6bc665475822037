import Foundation
import Synchronization

/// A stereo 32-bit float WAV file written as the audio arrives. The header is written first and patched
/// with the real sizes every second and on close, so the file is valid at any moment up to what was
/// written, also after a write error (disk full) stops the recording.
final class WAVStreamWriter {
    let path: String
    private(set) var sampleRate: Int
    private(set) var frames = 0
    private let fd: Int32
    private var closed = false

    /// Creates (or truncates) the file and writes a header for no frames.
    init(path: String, sampleRate: Int) throws(CaptureError) {
        self.path = path
        self.sampleRate = sampleRate
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CaptureError("cannot write \(path): \(String(cString: strerror(errno)))") }
        do {
            try writeAll(WAVFile.header(frames: 0, sampleRate: sampleRate), at: 0)
        } catch {
            Glibc.close(fd)
            closed = true
            throw error
        }
    }

    deinit { if !closed { Glibc.close(fd) } }

    /// The sample rate becomes known when the engine runs; set it before `append`.
    func setSampleRate(_ rate: Int) { sampleRate = rate }

    /// Appends interleaved frames. On an error the file keeps the complete frames written before it.
    func append(_ buffer: UnsafeBufferPointer<StereoFrame>) throws(CaptureError) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(base), count: buffer.count * 8)
        var done = 0
        while done < bytes.count {
            let offset = off_t(WAVFile.headerSize + frames * 8 + done)
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, offset)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                frames += done / 8
                _ = ftruncate(fd, off_t(WAVFile.headerSize + frames * 8))  // drop a torn frame
                throw CaptureError("cannot write \(path): \(reason)")
            }
            done += n
        }
        frames += buffer.count
    }

    /// Writes the header for the frames written so far.
    func patchHeader() throws(CaptureError) {
        try writeAll(WAVFile.header(frames: frames, sampleRate: sampleRate), at: 0)
    }

    /// Patches the header and closes the file.
    func close() throws(CaptureError) {
        guard !closed else { return }
        closed = true
        defer { Glibc.close(fd) }
        try patchHeader()
        if fsync(fd) != 0 && errno != EINVAL { throw CaptureError("cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    private func writeAll(_ bytes: [UInt8], at offset: Int) throws(CaptureError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset + done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CaptureError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }
}

/// Records Backbeat's output: the real-time callback copies each period into the engine's capture ring, this
/// recorder's disk thread moves it to a `WAVStreamWriter`. Nothing is written from the real-time thread.
final class AudioRecorder: @unchecked Sendable {
    let path: String
    private let writer: WAVStreamWriter
    private let engine: Engine
    private let stopping = Atomic<Bool>(false)
    private let framesWritten = Atomic<Int>(0)
    private let droppedAtStart: Int
    private let failureLock = Mutex<String?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?
    let startedAt = ContinuousClock.now

    /// Opens the file (so a path that cannot be written fails here, before anything runs).
    init(path: String, engine: Engine, expectedSampleRate: Int) throws(CaptureError) {
        self.path = path
        self.engine = engine
        writer = try WAVStreamWriter(path: path, sampleRate: expectedSampleRate)
        droppedAtStart = engine.captureFramesDropped
    }

    /// Starts capturing (the engine should run, so its sample rate is known).
    func start() {
        let rate = engine.sampleRate
        if rate > 0 { writer.setSampleRate(rate) }
        // Frames left over from an earlier recording do not belong to this one.
        discardCaptured()
        engine.setAudioCapture(true)
        let thread = Thread { [self] in run() }
        thread.name = "backbeat-audio-recorder"
        self.thread = thread
        thread.start()
    }

    var frames: Int { framesWritten.load(ordering: .relaxed) }
    var seconds: Double { Double(frames) / Double(max(writer.sampleRate, 1)) }
    var framesDropped: Int { engine.captureFramesDropped - droppedAtStart }
    var failure: String? { failureLock.withLock { $0 } }

    /// Stops capturing, writes what is left, patches the header and closes. Returns the error that ended
    /// the recording early, if any.
    func stop() -> String? {
        engine.setAudioCapture(false)
        // The callback may be in the middle of a period that still pushes frames: give it two periods.
        Thread.sleep(forTimeInterval: 0.03)
        stopping.store(true, ordering: .releasing)
        if thread != nil {
            finished.wait()
        } else {
            // Never started (the engine failed to start): close the empty file properly.
            do { try writer.close() } catch { fail(error) }
        }
        thread = nil
        return failure
    }

    private func run() {
        let capacity = 16_384
        let buffer = UnsafeMutableBufferPointer<StereoFrame>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var lastPatch = ContinuousClock.now
        var failed = false
        while true {
            let count = engine.drainCapture(into: buffer)
            if count > 0 && !failed {
                do {
                    try writer.append(UnsafeBufferPointer(rebasing: buffer[0..<count]))
                    framesWritten.store(writer.frames, ordering: .relaxed)
                    if ContinuousClock.now - lastPatch > .seconds(1) {
                        try writer.patchHeader()
                        lastPatch = .now
                    }
                } catch {
                    framesWritten.store(writer.frames, ordering: .relaxed)
                    fail(error)
                    failed = true
                    engine.setAudioCapture(false)
                }
            }
            if count == 0 {
                if stopping.load(ordering: .acquiring) { break }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        do { try writer.close() } catch { if !failed { fail(error) } }
        framesWritten.store(writer.frames, ordering: .relaxed)
        finished.signal()
    }

    private func fail(_ error: CaptureError) {
        failureLock.withLock { $0 = "\(error.description); the file keeps the first \(String(format: "%.1f", seconds)) s" }
    }

    private func discardCaptured() {
        let buffer = UnsafeMutableBufferPointer<StereoFrame>.allocate(capacity: 4096)
        defer { buffer.deallocate() }
        while engine.drainCapture(into: buffer) > 0 {}
    }
}
