import Foundation
import Glibc
import Synchronization

/// SIGINT, SIGTERM and SIGHUP become an orderly quit: they are blocked in every thread (install this before
/// any other thread starts, so JACK's threads inherit the mask) and one thread waits for them with sigwait.
/// SIGPIPE is ignored so a closed pipe is an error, not a death.
public final class QuitSignals: Sendable {
    private let received = Atomic<Int32>(0)
    private let wake = DispatchSemaphore(value: 0)

    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// True once any installed `QuitSignals` received a quit signal: for waits that have no handle on it
    /// (`OutputFile` waiting for a FIFO's reader) and must give up at once.
    public static var quitRequested: Bool { requested.load(ordering: .acquiring) }
    private static let requested = Atomic<Bool>(false)

    public static func install() -> QuitSignals {
        let signals = QuitSignals()
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        Glibc.signal(SIGPIPE, SIG_IGN)
        let blocked = set
        let thread = Thread { [signals] in
            var number: Int32 = 0
            var waitSet = blocked
            while sigwait(&waitSet, &number) == 0 {
                if signals.received.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing).exchanged {
                    requested.store(true, ordering: .releasing)
                    signals.wake.signal()
                } else {
                    // A second signal while quitting: the user insists. Half-written outputs go too.
                    OutputFile.removeTemporaries()
                    _exit(128 + number)
                }
            }
        }
        thread.name = "backbeat-signals"
        thread.start()
        return signals
    }

    /// The signal received so far, if any.
    public var signal: Int32? {
        let value = received.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// Waits up to `timeout` for a quit signal; returns it, or nil on timeout.
    public func wait(timeout: Duration) -> Int32? {
        if let signal { return signal }
        let nanos = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        _ = wake.wait(timeout: .now() + .nanoseconds(Int(nanos)))
        if signal != nil { wake.signal() }  // pass the wake-up on to any other waiter
        return signal
    }
}
