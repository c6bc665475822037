import DSP
import MIDI
import Foundation
import Realtime

/// Live playing with a streamed SFZ instrument (one bigger than the sample cache): a thread that serves its
/// stores (`SampleStreamStore.service`: the rests the notes ask for, read from disk front to back, and the
/// evictions beyond the bound), polling every millisecond while idle, never waited for by the real-time thread.
/// It reports voices that ended late (their sample's frames not read in time) in one line per burst, and a
/// rest that cannot be read once.
public final class SampleStreamLoader: @unchecked Sendable {
    /// The streamed instruments' stores (a stack's layers each have their own).
    public let stores: [SampleStreamStore]
    private let log: @Sendable (String) -> Void
    private let stopGate = AtomicGate(open: false)
    private let exited = DispatchSemaphore(value: 0)
    private var running = false

    /// How long the thread sleeps when there is nothing to read: the lead time the heads must cover includes it.
    public static let pollInterval = 0.001
    /// A test hook: `BACKBEAT_STREAM_DELAY_MS` holds every read back this long, so a test can make a voice late.
    private let delay = Double(ProcessInfo.processInfo.environment["BACKBEAT_STREAM_DELAY_MS"] ?? "").map { $0 / 1000 } ?? 0

    /// A loader for `font`'s streamed instruments, or nil when it has none.
    public init?(font: SoundFont?, log: @escaping @Sendable (String) -> Void) {
        let stores = font?.stack.compactMap(\.sampleStream) ?? []
        guard !stores.isEmpty else { return nil }
        self.stores = stores
        self.log = log
    }

    /// Starts the thread (once).
    public func start() {
        guard !running else { return }
        running = true
        let thread = Thread { [self] in run() }
        thread.name = "backbeat-sfz-stream"
        thread.start()
    }

    /// Stops the thread and waits for it (it finishes the chunk it is reading). Idempotent.
    public func stop() {
        guard running else { return }
        running = false
        stopGate.open()
        exited.wait()
    }

    private func run() {
        defer { exited.signal() }
        var reportedLate = 0, reportedFailures = 0
        var lastReport = ContinuousClock.now
        while !stopGate.isOpen {
            var worked = false
            if delay > 0, stores.contains(where: { !$0.isIdle }) { Thread.sleep(forTimeInterval: delay) }
            for store in stores where store.service() { worked = true }
            if ContinuousClock.now - lastReport >= .milliseconds(100) {
                lastReport = ContinuousClock.now
                let statuses = stores.map(\.status)
                let late = statuses.reduce(0) { $0 + $1.lateVoices }
                if late > reportedLate {
                    log("SFZ: \(counted(late - reportedLate, "voice")) \(late - reportedLate == 1 ? "was" : "were") late: their samples' data was not read from disk in time")
                    reportedLate = late
                }
                let failures = statuses.flatMap(\.failures)
                for failure in failures.dropFirst(reportedFailures) { log("SFZ: a sample's rest cannot be read (its notes end after its first frames): \(failure)") }
                reportedFailures = failures.count
            }
            if !worked { Thread.sleep(forTimeInterval: Self.pollInterval) }
        }
        for store in stores { log("SFZ: streamed instrument: " + Self.summary(store.status)) }
    }

    /// One line for a log or a summary: resident memory, bound, streamed bytes and rate, late voices.
    public static func summary(_ status: SampleStreamStore.Status) -> String {
        let rate = status.streamingSeconds > 0 ? Double(status.streamedBytes) / 1_048_576 / status.streamingSeconds : 0
        return String(format: "%.1f MiB resident of the %d MiB sample cache; streamed %.1f MiB from disk (%.0f MiB/s while reading), ",
                      Double(status.residentBytes) / 1_048_576, status.limitBytes >> 20, Double(status.streamedBytes) / 1_048_576, rate)
            + "\(counted(status.evictions, "eviction")), \(counted(status.lateVoices, "late voice")) of \(status.streamedVoices)"
    }
}
