import Foundation
import Realtime
import Synchronization

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

    /// Opens the file (so a path that cannot be written fails here, before anything runs).
    init(path: String, engine: Engine, expectedSampleRate: Int) throws(SystemError) {
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
        let memory = FixedArray(capacity, StereoFrame(left: 0, right: 0))
        let buffer = memory.buffer
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

    private func fail(_ error: SystemError) {
        failureLock.withLock { $0 = "\(error.description); the file keeps the first \(String(format: "%.1f", seconds)) s" }
    }

    private func discardCaptured() {
        let memory = FixedArray(4096, StereoFrame(left: 0, right: 0))
        while engine.drainCapture(into: memory.buffer) > 0 {}
    }
}
