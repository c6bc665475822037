// `backbeat lifecycle check`: what an app's Info.plist says about keeping it alive in background.
import Foundation
import MIDI

/// What an Info.plist declares, and what follows from it (docs/lifecycle-rules.md: callbacks, what keeps an app running).
public struct InfoPlistReport: Sendable, Equatable {
    /// The UIBackgroundModes values, as written.
    public var declaredModes: [String]
    public var knownModes: [BackgroundMode]
    public var unknownModes: [String]
    /// Whether UIApplicationSceneManifest is present.
    public var hasSceneManifest: Bool
    /// A UISceneDelegateClassName found in the manifest (UIKit scenes), if any.
    public var sceneDelegateClass: String?
    /// A guess at the style from the manifest alone (scene delegate class: scenes; manifest without one:
    /// swiftui; none: app-delegate). The Info.plist cannot really tell the style (`styleEvidence`), so
    /// `lifecycle check --emit-scenario` does not use this guess: it asks for `--lifecycle`.
    public var style: LifecycleStyle
    /// One line per stream kind: whether and when it could keep the app alive.
    public var streams: [(kind: StreamKind, keepsAlive: Bool, condition: String)]
    /// Warnings that already apply: codes of rules §4 where one fits, else plain remarks.
    public var warnings: [String]

    public static func == (a: Self, b: Self) -> Bool {
        a.declaredModes == b.declaredModes && a.hasSceneManifest == b.hasSceneManifest && a.warnings == b.warnings
            && a.streams.map(\.kind) == b.streams.map(\.kind)
    }

    /// Errors reading a plist.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Reads an XML or binary Info.plist.
    public static func load(path: String) throws(Failure) -> InfoPlistReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(path): cannot read the file")
        }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw Failure(description: "\(path): not a property list (XML or binary plist expected)")
        }
        guard let dict = plist as? [String: Any] else {
            throw Failure(description: "\(path): the property list is not a dictionary, so not an Info.plist")
        }
        return InfoPlistReport(dict)
    }

    /// Builds the report from a decoded Info.plist dictionary.
    public init(_ dict: [String: Any]) {
        declaredModes = (dict["UIBackgroundModes"] as? [Any] ?? []).map { "\($0)" }
        knownModes = declaredModes.compactMap(BackgroundMode.init(rawValue:))
        unknownModes = declaredModes.filter { BackgroundMode(rawValue: $0) == nil }
        let manifest = dict["UIApplicationSceneManifest"] as? [String: Any]
        hasSceneManifest = manifest != nil
        let configurations = manifest?["UISceneConfigurations"] as? [String: Any] ?? [:]
        sceneDelegateClass = configurations.values.compactMap { $0 as? [Any] }.joined()
            .compactMap { ($0 as? [String: Any])?["UISceneDelegateClassName"] as? String }.first
        style = hasSceneManifest ? (sceneDelegateClass != nil ? .scenes : .swiftui) : .appDelegate

        let audio = knownModes.contains(.audio)
        let location = knownModes.contains(.location)
        let bluetooth = knownModes.contains(.bluetoothCentral) || knownModes.contains(.bluetoothPeripheral)
        let needsAudio = "needs the audio background mode, not declared"
        streams = [
            (.audioOutput, audio, audio ? "while playing with category playback, playAndRecord or multiRoute and an active session; must be audible (App Review 2.5.4); start it in background only with mixWithOthers" : needsAudio),
            (.audioInput, audio, audio ? "while recording with category record or playAndRecord and an active session" : needsAudio),
            (.keepalivePlayer, audio, audio ? "only while it really plays: empty content never plays; near-silent plays but is a review risk" : needsAudio),
            (.videoPlayer, audio, audio ? "only detached from its layer (else auto-paused) or in PiP; detaching on didEnterBackground breaks PiP" : needsAudio),
            (.location, location, location ? "while standard location updates run (significant-change only wakes)" : "needs the location background mode, not declared"),
            (.backgroundTask, true, "until ended or its budget: 30 s from iOS 13 on (observed)"),
            (.midiIn, false, "never by itself: there is no MIDI background mode; MIDI stops when the app is suspended"),
            (.midiOut, false, "never by itself: messages sent while suspended are lost"),
            (.bluetooth, false, bluetooth ? "bluetooth-central/-peripheral wake the app for about 10 s per event" : "without bluetooth-central/-peripheral it is not even woken"),
            (.voip, false, "VoIP sockets no longer keep apps alive; PushKit wakes the app for a call"),
        ]
        var warnings: [String] = []
        for m in unknownModes {
            warnings.append("unknown background mode \"\(m)\"; known: \(BackgroundMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if knownModes.contains(.voip) {
            warnings.append("voip: VoIP sockets no longer keep apps alive; use PushKit and CallKit for calls")
        }
        if location {
            warnings.append("location: keeps alive only while standard updates run; App Review wants a user-visible reason")
        }
        if !audio {
            warnings.append("missing-background-mode: without the audio mode no audio stream keeps the app alive; it is suspended 5 s after didEnterBackground")
        }
        if hasSceneManifest {
            warnings.append("not-called-with-scenes: the app uses scenes, so applicationWillResignActive, applicationDidEnterBackground, applicationWillEnterForeground and applicationDidBecomeActive are never called")
        }
        self.warnings = warnings
    }

    /// What the Info.plist shows about the lifecycle style, and that it cannot tell the style: a scene
    /// manifest is there for UIKit scenes and SwiftUI alike, and a SwiftUI app's manifest may be generated
    /// at build time, so its absence does not mean an app delegate either.
    public var styleEvidence: String {
        if hasSceneManifest {
            let delegate = sceneDelegateClass.map { " with UISceneDelegateClassName \($0)" } ?? " without a scene delegate class"
            return "the Info.plist has a UIApplicationSceneManifest\(delegate): the app uses scenes, but whether through UIKit (scenes) or SwiftUI (swiftui) is not determinable from it"
        }
        return "the Info.plist has no UIApplicationSceneManifest: a UIKit app delegate (app-delegate) or a SwiftUI app whose manifest is generated at build time (swiftui); which one is not determinable from it"
    }

    /// The readable report.
    public func render(file: String) -> String {
        var out = "\(file)\n"
        out += "UIBackgroundModes: \(declaredModes.isEmpty ? "none" : declaredModes.joined(separator: ", "))\n"
        out += "UIApplicationSceneManifest: \(hasSceneManifest ? "present" : "absent")"
            + (sceneDelegateClass.map { " (UISceneDelegateClassName \($0))" } ?? "") + "\n"
        out += "Lifecycle style: not determinable: \(styleEvidence); --emit-scenario needs --lifecycle app-delegate|scenes|swiftui\n"
        out += "What could keep this app alive in background:\n"
        let width = streams.map(\.kind.rawValue.count).max() ?? 0
        for s in streams {
            out += "  \(s.kind.rawValue.padding(toLength: width, withPad: " ", startingAt: 0))  \(s.keepsAlive ? "yes" : "no ")  \(s.condition)\n"
        }
        out += warnings.isEmpty ? "Warnings: none\n" : "Warnings:\n" + warnings.map { "  \($0)\n" }.joined()
        return out
    }

    /// A starter scenario for this app: its style and modes, a stream for each way it could stay alive,
    /// launch, home, and expectations computed by running it (so it parses and passes as emitted).
    /// Uses the guessed `style`; prefer `starterScenario(title:style:)` with a style the user chose.
    public func starterScenario(title: String) -> String {
        starterScenario(title: title, style: style)
    }

    /// A starter scenario with the lifecycle style the user chose (`--lifecycle`).
    public func starterScenario(title: String, style: LifecycleStyle) -> String {
        let audio = knownModes.contains(.audio)
        var streams: [StreamConfig] = [StreamConfig(name: "keys", kind: .midiIn, playing: true)]
        if audio { streams.append(StreamConfig(name: "synth", kind: .audioOutput, playing: true, audible: true)) }
        if knownModes.contains(.location) { streams.append(StreamConfig(name: "gps", kind: .location, playing: true)) }
        let modes = knownModes
        let config = LifecycleConfiguration(style: style, backgroundModes: modes, category: audio ? .playback : .soloAmbient,
                                            options: audio ? [.mixWithOthers] : [], sessionActive: audio, streams: streams)
        var body = "# Starter scenario generated by `backbeat lifecycle check` from \(title).\n"
        body += "title = \(TimelineFormat.quote("Starter: \(title)"))\n"
        body += "# The lifecycle style was chosen, not read: \(styleEvidence).\n"
        body += "lifecycle = \"\(style.rawValue)\"\n"
        body += "background_modes = [\(modes.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))]\n"
        if !unknownModes.isEmpty { body += "# unknown modes left out: \(unknownModes.map(TerminalText.sanitized).joined(separator: ", "))\n" }
        body += "\n[session]\ncategory = \"\(config.category.rawValue)\"\noptions = [\(config.options.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))]\nactive = \(audio)\n"
        for s in streams {
            body += "\n[[streams]]\nname = \"\(s.name)\"\nkind = \"\(s.kind.rawValue)\"\nplaying = true\n"
            if s.kind == .audioOutput { body += "audible = true\n" }
        }
        let steps: [(Double, LifecycleEvent, String)] = [
            (0, .launch, "The user opens the app"),
            (2, .midi("keys"), "A note arrives while the app is in the foreground"),
            (5, .home, "The user goes home"),
            (20, .midi("keys"), "A note arrives in background"),
        ]
        var sim = LifecycleSimulator(configuration: config)
        for (t, e, say) in steps {
            _ = sim.apply(e, at: t)
            body += "\n[[steps]]\nat = \(TimelineFormat.number(t))\nevent = \"\(e)\"\nsay = \(TimelineFormat.quote(say))\n"
        }
        _ = sim.advance(to: 30)
        body += "\n[[expect]]\nat = 30.0\nstate = \"\(sim.state.rawValue)\"\n"
        body += "alive_by = [\(sim.aliveBy.map { "\"\($0)\"" }.joined(separator: ", "))]\n"
        let codes = Array(Set(sim.raisedWarnings.map(\.code))).sorted()
        body += "warnings = [\(codes.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))]\n"
        return body
    }
}
