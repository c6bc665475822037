import CALSA
import Foundation
import Realtime
import Synchronization
import SystemPackage

/// The ALSA PCM backend, Backbeat without JACK: renders with the same real-time path as the JACK callback
/// (`RealtimeContext.process(frames:left:right:periodStart:)`) on a thread of its own and writes interleaved samples to an ALSA
/// PCM device.
///
/// Real-time safety: the render path (`RealtimeContext.process`, and the sample conversion in ALSASampleConversion.swift)
/// is checked by the compiler as real-time safe:
/// no locks, no allocation, no ARC. The loop around it is deliberately not: it does the device I/O —
/// `poll` on the PCM's descriptors, `snd_pcm_writei`, `snd_pcm_recover` — which are system calls that block
/// by design, because waiting for the device *is* how a PCM thread keeps time. Nothing else runs in it:
/// no logging, no allocation (buffers are made before the thread starts), no Swift locks.
final class ALSAPCMBackend: AudioBackend, @unchecked Sendable {
    enum SampleFormat: String, Sendable {
        case float32 = "float32"
        case s16 = "S16"
    }

    let device: String
    let rate: Int
    let periodFrames: Int
    let periods: Int
    let bufferFrames: Int
    let format: SampleFormat
    /// "SCHED_FIFO priority 70" or "normal scheduling (SCHED_FIFO: Operation not permitted)"; set by `start`.
    private(set) var scheduling = "not started"

    /// The device, closed when the backend goes (after `stop`).
    private let pcm: PCMDevice
    private var context: RealtimeContext?
    private var thread: pthread_t?
    private let stopRequested = Atomic<Bool>(false)
    private let started = DispatchSemaphore(value: 0)
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Frames written since the start (the backend's "frame time" for monitor times).
    let framesWritten = Atomic<Int>(0)
    /// Set when the device gave no back-pressure (null, file on null): the loop paces itself by the clock.
    let pacedByClock = Atomic<Bool>(false)
    /// The negative ALSA error that stopped the loop (0 while running or after a clean stop).
    let failure = Atomic<Int32>(0)

    /// Opens and configures `device` for playback: stereo interleaved float32 (else S16), the rate, period
    /// and period count nearest to those asked for. Throws an `ALSAError` naming the device and ALSA's reason.
    init(device: String, rate: Int, period: Int, periods: Int) throws {
        let pcm = try PCMDevice(playback: device)
        let configuration = try pcm.configure(rate: rate, period: period, periods: periods)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw ALSAError("cannot create the PCM thread's wake-up pipe", Errno.last) }
        self.device = device
        self.pcm = pcm
        format = configuration.float32 ? .float32 : .s16
        self.rate = configuration.rate
        periodFrames = configuration.period
        bufferFrames = configuration.buffer
        self.periods = max(1, configuration.buffer / max(1, configuration.period))
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    // AudioBackend
    var sampleRate: Int { rate }
    var frameTime: UInt32 { UInt32(truncatingIfNeeded: framesWritten.load(ordering: .relaxed)) }
    var deviceLoad: Float { 0 }

    deinit {
        stop()
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts the PCM thread, asking for SCHED_FIFO (`scheduling` says whether it got it). The context must be
    /// prepared for `rate` first.
    func start(context: RealtimeContext) throws {
        guard thread == nil else { return }
        self.context = context
        var newThread = pthread_t()
        let argument = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(&newThread, nil, { argument in
            guard let argument else { return nil }
            let backend = Unmanaged<ALSAPCMBackend>.fromOpaque(argument).takeRetainedValue()
            backend.threadMain()
            return nil
        }, argument)
        guard result == 0 else {
            Unmanaged<ALSAPCMBackend>.fromOpaque(argument).release()
            throw ALSAError("cannot start the ALSA PCM thread", Errno(rawValue: result))
        }
        thread = newThread
        started.wait()
    }

    /// Stops the thread (wakes it through its pipe), waits for it, drops what is queued in the device. Idempotent.
    func stop() {
        guard let thread else { return }
        stopRequested.store(true, ordering: .releasing)
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        pthread_join(thread, nil)
        self.thread = nil
        pcm.drop()
    }

    // MARK: - The PCM thread

    private func threadMain() {
        var parameters = sched_param()
        parameters.sched_priority = min(70, sched_get_priority_max(Int32(SCHED_FIFO)))
        let result = pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &parameters)
        scheduling = result == 0 ? "SCHED_FIFO priority \(parameters.sched_priority)"
                                 : "normal scheduling (SCHED_FIFO: \(Errno(rawValue: result)))"
        // Everything the loop needs is allocated here, before the loop, and freed when it ends.
        let left = FixedArray<Float>(periodFrames, 0)
        let right = FixedArray<Float>(periodFrames, 0)
        let bytesPerFrame = format == .float32 ? 8 : 4
        let interleaved = FixedArray<UInt8>(zeroed: periodFrames * bytesPerFrame)
        let descriptorCount = pcm.pollDescriptorCount
        let fds = FixedArray(descriptorCount + 1, pollfd())
        pcm.pollDescriptors(fds.baseAddress, count: descriptorCount)
        fds[descriptorCount] = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        let context = Unmanaged.passUnretained(self.context!)
        started.signal()
        writeLoop(context: context, left: left.baseAddress, right: right.baseAddress, interleaved: interleaved.rawAddress,
                  bytesPerFrame: bytesPerFrame, fds: fds.baseAddress, descriptorCount: descriptorCount)
    }

    /// The thin I/O loop (not compiler-checked as real-time: it waits for the device). Per period: wait until a period of the
    /// device's buffer is free, render it with the shared real-time path, convert, write; recover underruns.
    private func writeLoop(context: Unmanaged<RealtimeContext>, left: UnsafeMutablePointer<Float>,
                           right: UnsafeMutablePointer<Float>, interleaved: UnsafeMutableRawPointer, bytesPerFrame: Int,
                           fds: UnsafeMutablePointer<pollfd>, descriptorCount: Int) {
        let period = periodFrames
        let periodNanos = Int64(period) * 1_000_000_000 / Int64(rate)
        let started = monotonicNanos()
        var written = 0
        var deadline: Int64 = 0
        var clockPaced = false
        while !stopRequested.load(ordering: .acquiring) {
            if clockPaced {
                // A device without back-pressure: one period per period of wall-clock time.
                deadline += periodNanos
                let now = monotonicNanos()
                if deadline < now - Int64(bufferFrames) * 1_000_000_000 / Int64(rate) { deadline = now }
                var until = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
                _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nil)
                if stopRequested.load(ordering: .acquiring) { break }
            } else {
                let available = pcm.available()
                if available < 0 {
                    if !recover(Int32(truncatingIfNeeded: available), context: context) { return }
                    continue
                }
                if available < period {
                    if pcm.isPrepared {
                        // Full but below the start threshold (a period size that does not divide it): start.
                        if pcm.start() < 0 && !recover(-EPIPE, context: context) { return }
                        continue
                    }
                    let ready = poll(fds, nfds_t(descriptorCount + 1), 1000)
                    if ready < 0 && errno != EINTR { failure.store(-errno, ordering: .relaxed); return }
                    if fds[descriptorCount].revents != 0 { break }
                    if pcm.pollEvents(fds, count: descriptorCount) & UInt16(POLLERR) != 0 {
                        let code: Int32 = pcm.isSuspended ? -ESTRPIPE : -EPIPE
                        if !recover(code, context: context) { return }
                    }
                    continue
                }
            }

            context._withUnsafeGuaranteedRef {
                $0.process(frames: period, left: left, right: right, periodStart: UInt32(truncatingIfNeeded: written))
            }
            if format == .float32 {
                interleaveFloat32(left: left, right: right, frames: period, into: interleaved.assumingMemoryBound(to: Float.self))
            } else {
                interleaveS16(left: left, right: right, frames: period, into: interleaved.assumingMemoryBound(to: Int16.self))
            }
            var offset = 0
            while offset < period && !stopRequested.load(ordering: .acquiring) {
                let count = pcm.write(interleaved + offset * bytesPerFrame, frames: period - offset)
                if count == -Int(EAGAIN) {
                    pcm.wait(milliseconds: 100)
                } else if count < 0 {
                    if !recover(Int32(truncatingIfNeeded: count), context: context) { return }
                } else {
                    offset += count
                }
            }
            written += period
            framesWritten.store(written, ordering: .relaxed)

            // A device that keeps accepting more than its buffer ahead of real time has no clock of its own.
            if !clockPaced {
                let elapsed = monotonicNanos() - started
                if elapsed < 2_000_000_000 && Int64(written - bufferFrames - 4 * period) * 1_000_000_000 > elapsed * Int64(rate) {
                    clockPaced = true
                    pacedByClock.store(true, ordering: .relaxed)
                    deadline = monotonicNanos()
                }
            }
        }
    }

    /// Recovers the device (`snd_pcm_recover`) after an underrun (counted as an xrun) or a suspend; false when the device is gone.
    private func recover(_ code: Int32, context: Unmanaged<RealtimeContext>) -> Bool {
        if code == -EPIPE || code == -ESTRPIPE {
            context._withUnsafeGuaranteedRef { _ = $0.counters.xruns.wrappingAdd(1, ordering: .relaxed) }
        }
        let result = pcm.recover(code)
        if result < 0 {
            failure.store(result, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Nanoseconds on the monotonic clock (Realtime's, shared with the JACK callback's timing).
    private func monotonicNanos() -> Int64 { Int64(truncatingIfNeeded: MonotonicInstant.now().nanoseconds) }
}
