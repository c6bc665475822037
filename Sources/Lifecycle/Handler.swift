// Handlers: what the app's code does when a callback fires.

/// What a handler does (`do` in a scenario).
public enum HandlerAction: Sendable, Equatable, CustomStringConvertible {
    case play(String), stop(String)
    case activateSession, deactivateSession
    case beginBackgroundTask, endBackgroundTask
    case detachVideo(String), attachVideo(String)
    /// Reports the incoming call to CallKit (CXProvider.reportNewIncomingCall), in a `pushkit.incoming` handler.
    case reportCall
    /// Calls the fetch or push completion handler: the wake ends.
    case complete
    /// BGTask.setTaskCompleted: the processing task ends.
    case endProcessingTask

    /// Every action by its name in a scenario, made from its stream (`play:S`) or from none: the one list that
    /// parsing, `accepted` and `description` read.
    private static let byName: [(name: String, make: @Sendable (String?) -> HandlerAction?)] = [
        ("play", { $0.map(HandlerAction.play) }),
        ("stop", { $0.map(HandlerAction.stop) }),
        ("activate-session", { $0 == nil ? .activateSession : nil }),
        ("deactivate-session", { $0 == nil ? .deactivateSession : nil }),
        ("begin-background-task", { $0 == nil ? .beginBackgroundTask : nil }),
        ("end-background-task", { $0 == nil ? .endBackgroundTask : nil }),
        ("detach-video", { $0.map(HandlerAction.detachVideo) }),
        ("attach-video", { $0.map(HandlerAction.attachVideo) }),
        ("report-call", { $0 == nil ? .reportCall : nil }),
        ("complete", { $0 == nil ? .complete : nil }),
        ("end-processing-task", { $0 == nil ? .endProcessingTask : nil }),
    ]

    public static let accepted = byName.map { $0.make("S") == nil ? $0.name : $0.name + ":S" }

    public var description: String {
        let name = Self.byName.first { $0.make(stream) == self }?.name ?? "?"
        return stream.map { "\(name):\($0)" } ?? name
    }

    /// Parses `play:S` and friends; nil when the action is not one of `accepted`.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let entry = Self.byName.first(where: { $0.name == parts.first }),
              let action = entry.make(parts.count == 2 ? parts[1] : nil) else { return nil }
        self = action
    }

    var stream: String? {
        switch self {
        case .play(let s), .stop(let s), .detachVideo(let s), .attachVideo(let s): s
        default: nil
        }
    }
}

/// A handler: actions run, in order, when the callback fires.
public struct Handler: Sendable, Equatable {
    public var on: Callback
    public var actions: [HandlerAction]
    public init(on: Callback, actions: [HandlerAction]) { self.on = on; self.actions = actions }
}
