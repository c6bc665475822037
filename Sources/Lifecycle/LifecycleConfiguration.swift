// What the simulated app is: its lifecycle style, background modes, audio session, streams and handlers.

/// The app as configured: style, declared background modes, audio session, streams and handlers.
public struct LifecycleConfiguration: Sendable, Equatable {
    public var style: LifecycleStyle
    /// UIBackgroundModes.
    public var backgroundModes: [BackgroundMode]
    /// iOS major version: decides the background task budget (rules §2).
    public var iOSVersion: Int
    public var category: SessionCategory
    public var options: [SessionOption]
    /// Whether the session starts active; nil: active when a stream using the session starts playing
    /// (AVPlayer and AVAudioPlayer activate the session implicitly).
    public var sessionActive: Bool?
    public var streams: [StreamConfig]
    public var handlers: [Handler]
    /// SwiftUI only: the app declares a `UIApplicationDelegateAdaptor`, so UIKit also calls its delegate's
    /// willFinishLaunching, didFinishLaunching and applicationWillTerminate (never the transition callbacks).
    public var appDelegateAdaptor: Bool
    /// Seconds a BGProcessingTask may run (`processing_budget`): Apple documents none ("several minutes"),
    /// so this is assumed, and the timeline says so.
    public var processingBudget: Double = 180

    public init(style: LifecycleStyle = .appDelegate, backgroundModes: [BackgroundMode] = [], iOSVersion: Int = 17,
                category: SessionCategory = .soloAmbient, options: [SessionOption] = [], sessionActive: Bool? = nil,
                streams: [StreamConfig] = [], handlers: [Handler] = [], appDelegateAdaptor: Bool = false) {
        self.appDelegateAdaptor = appDelegateAdaptor
        self.style = style
        self.backgroundModes = backgroundModes
        self.iOSVersion = iOSVersion
        self.category = category
        self.options = options
        self.sessionActive = sessionActive
        self.streams = streams
        self.handlers = handlers
    }

    /// Whether the session mixes with other apps' audio (ambient always does; `duckOthers` and
    /// `interruptSpokenAudioAndMixWithOthers` imply `mixWithOthers`).
    public var mixesWithOthers: Bool {
        category == .ambient || options.contains(.mixWithOthers) || options.contains(.duckOthers)
            || options.contains(.interruptSpokenAudioAndMixWithOthers)
    }

    /// Background task budget in seconds (rules §2; Apple documents no number: these are observed).
    public var backgroundTaskBudget: Double {
        iOSVersion >= 13 ? 30 : (iOSVersion >= 7 ? 180 : 600)
    }

    /// The name `begin-background-task` uses: the first `background-task` stream, else "background-task".
    public var backgroundTaskStreamName: String {
        streams.first(where: { $0.kind == .backgroundTask })?.name ?? "background-task"
    }

    /// Adds the implicit background-task stream when a handler begins a task and none is declared.
    mutating func addImplicitStreams() {
        let usesTask = handlers.contains { $0.actions.contains(.beginBackgroundTask) }
        if usesTask && !streams.contains(where: { $0.kind == .backgroundTask }) {
            streams.append(StreamConfig(name: "background-task", kind: .backgroundTask))
        }
    }
}
