import Foundation
import Realtime

/// A loader's own thread (the SoundFont 3 decoder's, the SFZ streamer's): started once, asked to stop by a gate
/// its loop checks between pieces of work, and waited for. Idempotent both ways.
final class LoaderThread: @unchecked Sendable {
    private let name: String
    private let stopGate = AtomicGate(open: false)
    private let exited = DispatchSemaphore(value: 0)
    private var running = false

    init(name: String) { self.name = name }

    /// Whether `stop()` was asked for: the loop's condition to end.
    var stopping: Bool { stopGate.isOpen }

    /// Starts the thread running `body` (once).
    func start(_ body: @escaping @Sendable () -> Void) {
        guard !running else { return }
        running = true
        let thread = Thread { [exited] in
            body()
            exited.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Asks the loop to end and waits until it has.
    func stop() {
        guard running else { return }
        running = false
        stopGate.open()
        exited.wait()
    }
}
