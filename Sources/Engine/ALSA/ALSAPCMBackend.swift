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

    private let handle: OpaquePointer
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
        var pcm: OpaquePointer?
        try ALSA.call("cannot open ALSA PCM device '\(device)' for playback", "snd_pcm_open") {
            snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        }
        guard let pcm else { throw ALSAError("cannot open ALSA PCM device '\(device)' for playback", call: "snd_pcm_open", code: -ENODEV) }
        /// `ALSA.call` for the device being configured, closed when a call fails.
        func check(_ what: String, _ call: StaticString, _ body: () -> Int32) throws(ALSAError) {
            do { try ALSA.call("ALSA PCM device '\(device)': \(what)", call, body) } catch {
                snd_pcm_close(pcm)
                throw error
            }
        }
        var hw: OpaquePointer?
        try check("cannot allocate hardware parameters", "snd_pcm_hw_params_malloc") { snd_pcm_hw_params_malloc(&hw) }
        defer { snd_pcm_hw_params_free(hw) }
        try check("cannot read its configuration space", "snd_pcm_hw_params_any") { snd_pcm_hw_params_any(pcm, hw) }
        try check("interleaved read/write access refused", "snd_pcm_hw_params_set_access") {
            snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)
        }
        if snd_pcm_hw_params_test_format(pcm, hw, SND_PCM_FORMAT_FLOAT_LE) == 0 {
            try check("float32 samples refused", "snd_pcm_hw_params_set_format") {
                snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_FLOAT_LE)
            }
            format = .float32
        } else {
            try check("accepts neither float32 nor S16 samples", "snd_pcm_hw_params_set_format") {
                snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE)
            }
            format = .s16
        }
        try check("2 channels refused", "snd_pcm_hw_params_set_channels") { snd_pcm_hw_params_set_channels(pcm, hw, 2) }
        var actualRate = UInt32(rate)
        try check("rate \(rate) Hz refused", "snd_pcm_hw_params_set_rate_near") {
            snd_pcm_hw_params_set_rate_near(pcm, hw, &actualRate, nil)
        }
        var actualPeriod = snd_pcm_uframes_t(period)
        try check("period of \(period) frames refused", "snd_pcm_hw_params_set_period_size_near") {
            snd_pcm_hw_params_set_period_size_near(pcm, hw, &actualPeriod, nil)
        }
        var actualPeriods = UInt32(periods)
        try check("\(periods) periods refused", "snd_pcm_hw_params_set_periods_near") {
            snd_pcm_hw_params_set_periods_near(pcm, hw, &actualPeriods, nil)
        }
        try check("configuration (\(rate) Hz, \(period) frames x \(periods)) refused", "snd_pcm_hw_params") {
            snd_pcm_hw_params(pcm, hw)
        }
        var buffer: snd_pcm_uframes_t = 0
        _ = snd_pcm_hw_params_get_buffer_size(hw, &buffer)
        _ = snd_pcm_hw_params_get_period_size(hw, &actualPeriod, nil)
        _ = snd_pcm_hw_params_get_rate(hw, &actualRate, nil)

        var sw: OpaquePointer?
        try check("cannot allocate software parameters", "snd_pcm_sw_params_malloc") { snd_pcm_sw_params_malloc(&sw) }
        defer { snd_pcm_sw_params_free(sw) }
        try check("cannot read software parameters", "snd_pcm_sw_params_current") { snd_pcm_sw_params_current(pcm, sw) }
        // Start once the buffer is full (the loop fills it first); wake when a period is free.
        try check("start threshold refused", "snd_pcm_sw_params_set_start_threshold") {
            snd_pcm_sw_params_set_start_threshold(pcm, sw, snd_pcm_uframes_t(buffer))
        }
        try check("wake-up threshold refused", "snd_pcm_sw_params_set_avail_min") {
            snd_pcm_sw_params_set_avail_min(pcm, sw, actualPeriod)
        }
        try check("software parameters refused", "snd_pcm_sw_params") { snd_pcm_sw_params(pcm, sw) }

        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            let error = ALSAError("cannot create the PCM thread's wake-up pipe", Errno.last)
            snd_pcm_close(pcm)
            throw error
        }
        self.device = device
        handle = pcm
        self.rate = Int(actualRate)
        periodFrames = Int(actualPeriod)
        bufferFrames = Int(buffer)
        self.periods = max(1, Int(buffer) / max(1, Int(actualPeriod)))
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    // AudioBackend
    var sampleRate: Int { rate }
    var frameTime: UInt32 { UInt32(truncatingIfNeeded: framesWritten.load(ordering: .relaxed)) }
    var deviceLoad: Float { 0 }

    deinit {
        stop()
        snd_pcm_close(handle)
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
        snd_pcm_drop(handle)
    }

    // MARK: - The PCM thread

    private func threadMain() {
        var parameters = sched_param()
        parameters.sched_priority = min(70, sched_get_priority_max(Int32(SCHED_FIFO)))
        let result = pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &parameters)
        scheduling = result == 0 ? "SCHED_FIFO priority \(parameters.sched_priority)"
                                 : "normal scheduling (SCHED_FIFO: \(Errno(rawValue: result)))"
        // Everything the loop needs is allocated here, before the loop, and freed with `memory` when it ends.
        var memory = ArrayStore()
        let left = memory.make(periodFrames, Float(0))
        let right = memory.make(periodFrames, Float(0))
        let bytesPerFrame = format == .float32 ? 8 : 4
        let interleaved = memory.makeBytes(periodFrames * bytesPerFrame)
        let descriptorCount = Int(snd_pcm_poll_descriptors_count(handle))
        let fds = memory.make(descriptorCount + 1, pollfd())
        _ = snd_pcm_poll_descriptors(handle, fds, UInt32(descriptorCount))
        fds[descriptorCount] = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        let context = Unmanaged.passUnretained(self.context!)
        started.signal()
        writeLoop(context: context, left: left, right: right, interleaved: interleaved, bytesPerFrame: bytesPerFrame,
                  fds: fds, descriptorCount: descriptorCount)
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
                let available = snd_pcm_avail_update(handle)
                if available < 0 {
                    if !recover(Int32(truncatingIfNeeded: available), context: context) { return }
                    continue
                }
                if available < period {
                    if snd_pcm_state(handle) == SND_PCM_STATE_PREPARED {
                        // Full but below the start threshold (a period size that does not divide it): start.
                        if snd_pcm_start(handle) < 0 && !recover(-EPIPE, context: context) { return }
                        continue
                    }
                    let ready = poll(fds, nfds_t(descriptorCount + 1), 1000)
                    if ready < 0 && errno != EINTR { failure.store(-errno, ordering: .relaxed); return }
                    if fds[descriptorCount].revents != 0 { break }
                    var events: UInt16 = 0
                    _ = snd_pcm_poll_descriptors_revents(handle, fds, UInt32(descriptorCount), &events)
                    if events & UInt16(POLLERR) != 0 {
                        let state = snd_pcm_state(handle)
                        let code: Int32 = state == SND_PCM_STATE_SUSPENDED ? -ESTRPIPE : -EPIPE
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
                let count = snd_pcm_writei(handle, interleaved + offset * bytesPerFrame, snd_pcm_uframes_t(period - offset))
                if count == -Int(EAGAIN) {
                    _ = snd_pcm_wait(handle, 100)
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

    /// `snd_pcm_recover` after an underrun (counted as an xrun) or a suspend; false when the device is gone.
    private func recover(_ code: Int32, context: Unmanaged<RealtimeContext>) -> Bool {
        if code == -EPIPE || code == -ESTRPIPE {
            context._withUnsafeGuaranteedRef { _ = $0.counters.xruns.wrappingAdd(1, ordering: .relaxed) }
        }
        let result = snd_pcm_recover(handle, code, 1)
        if result < 0 {
            failure.store(result, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Nanoseconds on the monotonic clock (Realtime's, shared with the JACK callback's timing).
    private func monotonicNanos() -> Int64 { Int64(truncatingIfNeeded: MonotonicInstant.now().nanoseconds) }
}
