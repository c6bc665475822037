import DSP
import MIDI
import Foundation
import Realtime
import Synchronization

/// Live playing with a streamed SFZ instrument (one bigger than the sample cache): a thread that serves its
/// stores (`SampleStreamStore.service`: the rests the notes ask for, read from disk front to back, and the
/// evictions beyond the bound), polling every millisecond while idle, never waited for by the real-time thread.
/// It reports voices that ended late (their sample's frames not read in time) in one line per burst, and a
/// rest that cannot be read once.
public final class SampleStreamLoader: @unchecked Sendable {
    /// The streamed instruments' stores (a stack's layers each have their own); a live change of instrument
    /// brings its own and lets go of those of the instrument it replaces (`serve`).
    public var stores: [SampleStreamStore] { served.withLock { $0 } }
    private let served: Mutex<[SampleStreamStore]>
    private let log: @Sendable (String) -> Void
    private let thread = LoaderThread(name: "backbeat-sfz-stream")

    /// How long the thread sleeps when there is nothing to read: the lead time the heads must cover includes it.
    public static let pollInterval = 0.001
    /// A test hook: `BACKBEAT_STREAM_DELAY_MS` holds every read back this long, so a test can make a voice late.
    private let delay = Double(ProcessInfo.processInfo.environment["BACKBEAT_STREAM_DELAY_MS"] ?? "").map { $0 / 1000 } ?? 0

    /// A loader for `font`'s streamed instruments, or nil when it has none.
    public init?(font: SoundFont?, log: @escaping @Sendable (String) -> Void) {
        let stores = font?.stack.compactMap(\.sampleStream) ?? []
        guard !stores.isEmpty else { return nil }
        served = Mutex(stores)
        self.log = log
    }

    /// A loader with nothing to serve yet, for an engine whose instruments may change live.
    public init(log: @escaping @Sendable (String) -> Void) {
        served = Mutex([])
        self.log = log
    }

    /// Serves the streamed stores of `font` (a live change's new stack) from now on; with `keeping`, also those
    /// served already (until the synth has let go of the old font).
    public func serve(_ font: SoundFont, keeping: Bool) {
        let stores = font.stack.compactMap(\.sampleStream)
        served.withLock { list in
            let old = keeping ? list : []
            list = old + stores.filter { store in !old.contains { $0 === store } }
        }
    }

    /// Starts the thread (once).
    public func start() { thread.start { [self] in run() } }

    /// Stops the thread and waits for it (it finishes the chunk it is reading). Idempotent.
    public func stop() { thread.stop() }

    private func run() {
        var reportedLate = 0, reportedFailures = 0
        var lastReport = ContinuousClock.now
        while !thread.stopping {
            let stores = self.stores
            if stores.isEmpty { // an engine that may get a streamed instrument live: nothing to read yet
                Thread.sleep(forTimeInterval: 0.02)
                continue
            }
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
