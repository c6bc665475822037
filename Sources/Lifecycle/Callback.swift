// The lifecycle styles and the callbacks a handler can be bound to. Raw values are the spellings of
// scenario files and of the timeline (docs/lifecycle-rules.md, sections 5 and 6).

/// Which callbacks the app receives (`lifecycle` in a scenario).
public enum LifecycleStyle: String, Sendable, CaseIterable, Equatable {
    /// UIKit without scenes: UIApplicationDelegate.
    case appDelegate = "app-delegate"
    /// UIKit with UISceneDelegate.
    case scenes
    /// SwiftUI `scenePhase`.
    case swiftui
}

/// Every callback a handler can be bound to (`on` in a scenario), spelled as in the timeline.
public enum Callback: String, Sendable, CaseIterable, Equatable {
    case willFinishLaunching, didFinishLaunching
    case applicationDidBecomeActive, applicationWillResignActive
    case applicationDidEnterBackground, applicationWillEnterForeground, applicationWillTerminate
    case sceneWillConnect, sceneWillEnterForeground, sceneDidBecomeActive, sceneWillResignActive, sceneDidEnterBackground
    case scenePhaseActive = "scenePhase.active"
    case scenePhaseInactive = "scenePhase.inactive"
    case scenePhaseBackground = "scenePhase.background"
    /// AVAudioSession interruption, type `began` (raw value 1): the session is already inactive.
    case interruptionBegan = "interruption.began"
    /// AVAudioSession interruption, type `ended` (raw value 0), here always with `shouldResume`.
    case interruptionEnded = "interruption.ended"
    /// The expiration handler of `beginBackgroundTask(expirationHandler:)` (rules §2). An addition to
    /// rules §5's list so that a scenario can end its task in time.
    case backgroundTaskExpiration = "backgroundTask.expiration"
    /// PKPushRegistryDelegate's didReceiveIncomingPushWith, for a VoIP push (`voip-push`).
    case pushkitIncoming = "pushkit.incoming"
    /// The background fetch handler (`background-fetch`); its `complete` ends the window.
    case performFetch
    /// application(_:didReceiveRemoteNotification:fetchCompletionHandler:) for a silent push.
    case didReceiveRemoteNotification
    /// The BGProcessingTask launch handler (`processing-start`) and the task's expiration handler.
    case processingTask
    case processingTaskExpiration = "processingTask.expiration"

    /// The app-delegate transition callbacks UIKit never calls when the app uses scenes or SwiftUI.
    public var isAppDelegateTransition: Bool {
        switch self {
        case .applicationWillResignActive, .applicationDidEnterBackground,
             .applicationWillEnterForeground, .applicationDidBecomeActive: return true
        default: return false
        }
    }
    /// UISceneDelegate callbacks: fired only when the app uses UIKit scenes.
    public var isSceneCallback: Bool {
        switch self {
        case .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive,
             .sceneDidEnterBackground: return true
        default: return false
        }
    }
    /// SwiftUI `scenePhase` values: seen only by a SwiftUI app.
    public var isScenePhase: Bool {
        self == .scenePhaseActive || self == .scenePhaseInactive || self == .scenePhaseBackground
    }
    /// UIApplicationDelegate callbacks a SwiftUI app receives only through a `UIApplicationDelegateAdaptor`.
    public var needsDelegateAdaptorInSwiftUI: Bool {
        self == .willFinishLaunching || self == .didFinishLaunching || self == .applicationWillTerminate
            || self == .didReceiveRemoteNotification
    }
    var isWillResignActive: Bool {
        self == .applicationWillResignActive || self == .sceneWillResignActive || self == .scenePhaseInactive
    }
    var isDidEnterBackground: Bool {
        self == .applicationDidEnterBackground || self == .sceneDidEnterBackground || self == .scenePhaseBackground
    }
}
