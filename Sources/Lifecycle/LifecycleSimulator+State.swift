// The simulator's private vocabulary: the phase of the process, the call and interruption in progress, each
// stream's runtime state, and the draft of the timeline entry being built. Internal to the module: only the
// simulator's own files (LifecycleSimulator*.swift) use them.

extension LifecycleSimulator {
    enum Phase: Equatable {
        case notRunning, inactive, active
        /// `suspendAt`: when the process will be suspended unless something keeps it alive; `why` says why.
        case background(since: Double, suspendAt: Double?, why: String)
        case suspended, terminated

        var state: AppState {
            switch self {
            case .notRunning: .notRunning
            case .inactive: .inactive
            case .active: .active
            case .background: .background
            case .suspended: .suspended
            case .terminated: .terminated
            }
        }
    }

    enum Call { case none, ringing, answered }
    enum Timer { case suspend(String), expire(String), terminate, transmissionEnd, processingExpire }
    /// What interrupts the audio session: a phone call, or another app's non-mixable audio.
    enum Interruption: Hashable { case call, otherAudio }

    struct Runtime: Sendable {
        var on: Bool
        var attached = true
        var audible: Bool
        var taskBeganAt: Double?
        var pausedBy: String?
    }

    struct Draft {
        var event: String?
        var callbacks: [String] = []
        var warnings: [LifecycleWarning] = []
        var notes: [String] = []
        var reason: String?
        var unknownRule: String?
        var delivered: Bool?
        var stateBefore: AppState
        var aliveBefore: [String]
    }
}
