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

    public static let accepted = ["play:S", "stop:S", "activate-session", "deactivate-session",
                                  "begin-background-task", "end-background-task", "detach-video:S", "attach-video:S",
                                  "report-call", "complete", "end-processing-task"]

    public var description: String {
        switch self {
        case .play(let s): "play:\(s)"
        case .stop(let s): "stop:\(s)"
        case .activateSession: "activate-session"
        case .deactivateSession: "deactivate-session"
        case .beginBackgroundTask: "begin-background-task"
        case .endBackgroundTask: "end-background-task"
        case .detachVideo(let s): "detach-video:\(s)"
        case .attachVideo(let s): "attach-video:\(s)"
        case .reportCall: "report-call"
        case .complete: "complete"
        case .endProcessingTask: "end-processing-task"
        }
    }

    /// Parses `play:S` and friends; nil when the action is not one of `accepted`.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let name = parts.count == 2 ? parts[1] : nil
        switch (parts.first ?? "", name) {
        case ("play", let s?): self = .play(s)
        case ("stop", let s?): self = .stop(s)
        case ("detach-video", let s?): self = .detachVideo(s)
        case ("attach-video", let s?): self = .attachVideo(s)
        case ("activate-session", nil): self = .activateSession
        case ("deactivate-session", nil): self = .deactivateSession
        case ("begin-background-task", nil): self = .beginBackgroundTask
        case ("end-background-task", nil): self = .endBackgroundTask
        case ("report-call", nil): self = .reportCall
        case ("complete", nil): self = .complete
        case ("end-processing-task", nil): self = .endProcessingTask
        default: return nil
        }
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
