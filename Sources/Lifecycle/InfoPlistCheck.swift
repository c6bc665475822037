// `backbeat lifecycle check`: what an app's Info.plist says about keeping it alive in background
// (docs/lifecycle-rules.md, "The Info.plist check"). Same input, same output: nothing here depends on
// dictionary order.
import Foundation
import OSCall
import SystemPackage
import TextOutput

/// What an Info.plist declares, and what follows from it, without running anything.
public struct InfoPlistReport: Sendable, Equatable {
    /// One UIBackgroundModes value, in the file's order, with its rule.
    public struct ModeRow: Sendable, Equatable {
        public var mode: String
        /// nil: not a value Apple defines.
        public var known: BackgroundMode?
        public var modelled: Bool { known?.isModelled ?? false }
        public var rule: String {
            known?.checkRule ?? "unknown: not a UIBackgroundModes value Apple defines; no rule, the system ignores it"
        }
    }

    /// One scene configuration of UIApplicationSceneManifest.
    public struct SceneConfiguration: Sendable, Equatable, Comparable {
        public var role: String
        public var name: String?
        public var delegate: String?
        public static func < (a: Self, b: Self) -> Bool {
            (a.role, a.name ?? "", a.delegate ?? "") < (b.role, b.name ?? "", b.delegate ?? "")
        }
    }

    /// What a stream kind could do for this app.
    public struct KeepAliveRow: Sendable, Equatable {
        public var kind: StreamKind
        public var keepsAlive: Bool
        public var condition: String
    }

    /// A warning of the check: a contract code and why.
    public struct Warning: Sendable, Equatable {
        public var code: WarningCode
        public var reason: String
    }

    public var modes: [ModeRow]
    /// Whether UIApplicationSceneManifest is present.
    public var hasSceneManifest: Bool
    /// Every scene configuration, sorted by role, then name.
    public var scenes: [SceneConfiguration]
    /// Whether BGTaskSchedulerPermittedIdentifiers is present (and not empty).
    public var hasTaskIdentifiers: Bool
    public var keepsAlive: [KeepAliveRow]
    /// Sorted by code.
    public var warnings: [Warning]

    /// The UIBackgroundModes values, as written.
    public var declaredModes: [String] { modes.map(\.mode) }
    /// The values Apple defines, in the file's order.
    public var knownModes: [BackgroundMode] { modes.compactMap(\.known) }
    public var unknownModes: [String] { modes.filter { $0.known == nil }.map(\.mode) }
    /// The styles the Info.plist leaves possible: it never tells one alone (`styleEvidence`).
    public var styleCandidates: [LifecycleStyle] { hasSceneManifest ? [.scenes, .swiftui] : [.appDelegate, .swiftui] }

    /// Errors reading a plist: not a plist, or a key of the wrong type. `lifecycle check` exits 2.
    public struct Failure: Error, CustomStringConvertible, Sendable, Equatable {
        public var description: String
    }

    /// Reads an XML or binary Info.plist.
    public static func load(path: String) throws(Failure) -> InfoPlistReport {
        let data: Data
        do throws(ReadFailure) { data = Data(try SystemCall.readFile(path, limit: ReadLimit.plist, what: "an Info.plist")) } catch {
            throw Failure(description: "\(path): cannot read the file: \(error)")
        }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw Failure(description: "\(path): not a property list (XML or binary plist expected)")
        }
        guard let dict = plist as? [String: Any] else {
            throw Failure(description: "\(path): the property list is \(aPlistType(plist)), not a dictionary, so not an Info.plist")
        }
        do {
            return try InfoPlistReport(dict)
        } catch {
            throw Failure(description: "\(path): \(error.description)")
        }
    }

    /// The plist type of a decoded value, in Apple's words (string, integer, real, boolean, date, data,
    /// array, dictionary).
    static func plistType(_ value: Any) -> String {
        switch value {
        case is String: return "string"
        case is [String: Any]: return "dictionary"
        case is [Any]: return "array"
        case is Date: return "date"
        case is Data: return "data"
        default: break
        }
        if type(of: value) == Bool.self { return "boolean" }
        if let n = value as? NSNumber {
            if type(of: value) == Double.self || type(of: value) == Float.self { return "real" }
            if type(of: value) == Int.self { return "integer" }
            let objc = String(cString: n.objCType)
            if objc == "c" || objc == "B" { return "boolean" }
            return objc == "d" || objc == "f" ? "real" : "integer"
        }
        return "\(type(of: value))"
    }

    /// The plist type with its article: "a string", "an array".
    static func aPlistType(_ value: Any) -> String {
        let t = plistType(value)
        return (t.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + t
    }

    /// `value` as an array of strings, or a typed error naming `key`.
    static func strings(_ value: Any, key: String) throws(Failure) -> [String] {
        guard let array = value as? [Any], !(value is String) else {
            throw Failure(description: "\(key) is \(aPlistType(value)); expected an array of strings")
        }
        var out: [String] = []
        for (i, element) in array.enumerated() {
            guard let s = element as? String else {
                throw Failure(description: "\(key) item \(i) is \(aPlistType(element)); expected an array of strings")
            }
            out.append(s)
        }
        return out
    }

    /// Builds the report from a decoded Info.plist dictionary; a key of the wrong type is an error.
    public init(_ dict: [String: Any]) throws(Failure) {
        let declared = try dict["UIBackgroundModes"].map { v throws(Failure) in try Self.strings(v, key: "UIBackgroundModes") } ?? []
        modes = declared.map { ModeRow(mode: $0, known: BackgroundMode(rawValue: $0)) }
        let identifiers = try dict["BGTaskSchedulerPermittedIdentifiers"].map { v throws(Failure) in
            try Self.strings(v, key: "BGTaskSchedulerPermittedIdentifiers")
        }
        hasTaskIdentifiers = !(identifiers ?? []).isEmpty
        scenes = []
        if let raw = dict["UIApplicationSceneManifest"] {
            guard let manifest = raw as? [String: Any] else {
                throw Failure(description: "UIApplicationSceneManifest is \(Self.aPlistType(raw)); expected a dictionary")
            }
            hasSceneManifest = true
            if let rawConfigurations = manifest["UISceneConfigurations"] {
                let key = "UIApplicationSceneManifest.UISceneConfigurations"
                guard let configurations = rawConfigurations as? [String: Any] else {
                    throw Failure(description: "\(key) is \(Self.aPlistType(rawConfigurations)); expected a dictionary")
                }
                for role in configurations.keys.sorted() {
                    let value = configurations[role]!
                    guard let list = value as? [Any], !(value is String) else {
                        throw Failure(description: "\(key).\(role) is \(Self.aPlistType(value)); expected an array of dictionaries")
                    }
                    for (i, item) in list.enumerated() {
                        guard let c = item as? [String: Any] else {
                            throw Failure(description: "\(key).\(role) item \(i) is \(Self.aPlistType(item)); expected a dictionary")
                        }
                        func string(_ k: String) throws(Failure) -> String? {
                            guard let v = c[k] else { return nil }
                            guard let s = v as? String else {
                                throw Failure(description: "\(key).\(role) item \(i) \(k) is \(Self.aPlistType(v)); expected a string")
                            }
                            return s
                        }
                        scenes.append(SceneConfiguration(role: role, name: try string("UISceneConfigurationName"),
                                                         delegate: try string("UISceneDelegateClassName")))
                    }
                }
                scenes.sort()
            }
        } else {
            hasSceneManifest = false
        }

        let known = Set(declared.compactMap(BackgroundMode.init(rawValue:)))
        let audio = known.contains(.audio)
        let location = known.contains(.location)
        let bluetooth = known.contains(.bluetoothCentral) || known.contains(.bluetoothPeripheral)
        let needsAudio = "needs the audio background mode, not declared"
        keepsAlive = [
            KeepAliveRow(kind: .audioOutput, keepsAlive: audio, condition: audio ? "while playing with category playback, playAndRecord or multiRoute and an active session; must be audible (App Review 2.5.4); start it in background only with mixWithOthers" : needsAudio),
            KeepAliveRow(kind: .audioInput, keepsAlive: audio, condition: audio ? "while recording with category record or playAndRecord and an active session" : needsAudio),
            KeepAliveRow(kind: .keepalivePlayer, keepsAlive: audio, condition: audio ? "only while it really plays: empty content never plays; near-silent plays but is a review risk" : needsAudio),
            KeepAliveRow(kind: .videoPlayer, keepsAlive: audio, condition: audio ? "only detached from its layer (else auto-paused) or in PiP; detaching on didEnterBackground breaks PiP" : needsAudio),
            KeepAliveRow(kind: .location, keepsAlive: location, condition: location ? "while standard location updates run (significant-change only wakes)" : "needs the location background mode, not declared"),
            KeepAliveRow(kind: .backgroundTask, keepsAlive: true, condition: "until ended or its budget: 30 s from iOS 13 on (observed)"),
            KeepAliveRow(kind: .midiIn, keepsAlive: false, condition: "never by itself: there is no MIDI background mode; MIDI stops when the app is suspended"),
            KeepAliveRow(kind: .midiOut, keepsAlive: false, condition: "never by itself: messages sent while suspended are lost"),
            KeepAliveRow(kind: .bluetooth, keepsAlive: false, condition: bluetooth ? "bluetooth-central/-peripheral wake the app for about 10 s per event" : "without bluetooth-central/-peripheral it is not even woken"),
            KeepAliveRow(kind: .voip, keepsAlive: false, condition: known.contains(.voip) ? "VoIP sockets no longer keep apps alive; a PushKit VoIP push wakes the app, which must report a call to CallKit" : "VoIP sockets no longer keep apps alive; without the voip mode no VoIP push wakes the app"),
        ]

        // Section 4 codes only, raised by what the Info.plist says (it declares no streams and no handlers).
        var found: [WarningCode: [String]] = [:]
        for row in modes where row.known == nil {
            found[.unknownBackgroundMode, default: []].append("\"\(row.mode)\" is not a UIBackgroundModes value Apple defines (named, not dropped)")
        }
        if known.contains(.newsstandContent) {
            found[.deprecatedMode, default: []].append("newsstand-content: Newsstand was discontinued with iOS 9; the mode has no effect on current iOS")
        }
        if known.contains(.processing) && !hasTaskIdentifiers {
            found[.missingTaskIdentifiers, default: []].append("processing is declared but there is no BGTaskSchedulerPermittedIdentifiers: registering a BGProcessingTask fails at run time")
        }
        if location && dict["NSLocationAlwaysAndWhenInUseUsageDescription"] == nil && dict["NSLocationWhenInUseUsageDescription"] == nil {
            found[.missingUsageDescription, default: []].append("location is declared without NSLocationAlwaysAndWhenInUseUsageDescription or NSLocationWhenInUseUsageDescription")
        }
        if bluetooth && dict["NSBluetoothAlwaysUsageDescription"] == nil {
            found[.missingUsageDescription, default: []].append("\(bluetoothModes(known)) declared without NSBluetoothAlwaysUsageDescription: the app is killed when it first uses Core Bluetooth")
        }
        warnings = found.keys.sorted().map { Warning(code: $0, reason: found[$0]!.joined(separator: "; ")) }
    }

    /// What the Info.plist shows about the lifecycle style, and that it cannot tell the style: a scene
    /// manifest is there for UIKit scenes and SwiftUI alike, and a SwiftUI app's manifest may be generated
    /// at build time, so its absence does not mean an app delegate either.
    public var styleEvidence: String {
        if hasSceneManifest {
            let delegates = Array(Set(scenes.compactMap(\.delegate))).sorted()
            let with = delegates.isEmpty ? " without a scene delegate class"
                : " with UISceneDelegateClassName \(delegates.joined(separator: ", "))"
            return "the Info.plist has a UIApplicationSceneManifest\(with): the app uses scenes, but whether through UIKit (scenes) or SwiftUI (swiftui) is not determinable from it; either way applicationWillResignActive, applicationDidEnterBackground, applicationWillEnterForeground and applicationDidBecomeActive are never called"
        }
        return "the Info.plist has no UIApplicationSceneManifest: a UIKit app delegate (app-delegate) or a SwiftUI app whose manifest is generated at build time (swiftui); which one is not determinable from it"
    }

    /// The readable report.
    public func render(file: String) -> String {
        var out = "\(file)\n"
        if modes.isEmpty {
            out += "UIBackgroundModes: none (no UIBackgroundModes key or an empty array)\n"
        } else {
            out += "UIBackgroundModes (in the file's order):\n"
            let width = modes.map(\.mode.count).max() ?? 0
            for m in modes {
                out += "  \(m.mode.padding(toLength: width, withPad: " ", startingAt: 0))  \(m.rule)\n"
            }
        }
        out += "UIApplicationSceneManifest: \(hasSceneManifest ? "present" : "absent")\n"
        if !scenes.isEmpty {
            out += "Scene configurations (by role, then name):\n"
            for s in scenes {
                out += "  \(s.role)  \(s.name ?? "(no name)")  \(s.delegate ?? "(no delegate class)")\n"
            }
        }
        out += "Lifecycle style: not determinable (\(styleCandidates.map(\.rawValue).joined(separator: " or "))): \(styleEvidence); --emit-scenario needs --lifecycle app-delegate|scenes|swiftui\n"
        out += "What could keep this app alive in background:\n"
        let width = keepsAlive.map(\.kind.rawValue.count).max() ?? 0
        for s in keepsAlive {
            out += "  \(s.kind.rawValue.padding(toLength: width, withPad: " ", startingAt: 0))  \(s.keepsAlive ? "yes" : "no ")  \(s.condition)\n"
        }
        out += warnings.isEmpty ? "Warnings: none\n" : "Warnings:\n" + warnings.map { "  \($0.code.rawValue): \($0.reason)\n" }.joined()
        return out
    }

    /// The report as one JSON object (docs/lifecycle-rules.md, "The Info.plist check"), keys in a fixed order.
    public func json(file: String) -> String {
        let q = JSONText.quote
        func optional(_ s: String?) -> String { s.map(q) ?? "null" }
        var out = "{\"file\":\(q(file))"
        out += ",\"background_modes\":[" + modes.map { m in
            "{\"mode\":\(q(m.mode)),\"known\":\(m.known != nil),\"modelled\":\(m.modelled),\"rule\":\(q(m.rule))}"
        }.joined(separator: ",") + "]"
        out += ",\"style\":{\"candidates\":[\(styleCandidates.map { q($0.rawValue) }.joined(separator: ","))],\"reason\":\(q(styleEvidence))}"
        out += ",\"scenes\":[" + scenes.map { s in
            "{\"role\":\(q(s.role)),\"name\":\(optional(s.name)),\"delegate\":\(optional(s.delegate))}"
        }.joined(separator: ",") + "]"
        out += ",\"keeps_alive\":[" + keepsAlive.map { k in
            "{\"kind\":\(q(k.kind.rawValue)),\"keeps_alive\":\(k.keepsAlive),\"condition\":\(q(k.condition))}"
        }.joined(separator: ",") + "]"
        out += ",\"warnings\":[" + warnings.map { w in
            "{\"code\":\(q(w.code.rawValue)),\"reason\":\(q(w.reason))}"
        }.joined(separator: ",") + "]}"
        return out
    }

    /// A starter scenario with the lifecycle style the user chose (`--lifecycle`): the declared modes, a
    /// stream per kind that could keep the app alive, and steps that show each declared mode's rule. It has
    /// no `[[expect]]`: each step's `say` states what the rules predict, and running it shows whether the
    /// simulator agrees (the simulator is not asked to predict itself).
    public func starterScenario(title: String, style: LifecycleStyle) -> String {
        let known = knownModes
        let audio = known.contains(.audio)
        var streams: [(String, StreamKind, String)] = [("keys", .midiIn, "")]
        if audio { streams.append(("synth", .audioOutput, "playing = true\naudible = true\n")) }
        if known.contains(.location) { streams.append(("gps", .location, "playing = true\n")) }
        let bluetooth = known.contains(.bluetoothCentral) || known.contains(.bluetoothPeripheral)
        if bluetooth { streams.append(("ble", .bluetooth, "")) }
        if known.contains(.externalAccessory) { streams.append(("pedal", .accessory, "")) }

        var body = "# Starter scenario generated by `backbeat lifecycle check` from \(TerminalText.sanitized(title)).\n"
        body += "# No expectations: each step's say is what the rules predict (docs/lifecycle-rules.md); run it to see the simulator's timeline.\n"
        body += "title = \(TimelineFormat.quote("Starter: \(title)"))\n"
        body += "# The lifecycle style was chosen, not read: \(styleEvidence).\n"
        body += "lifecycle = \"\(style.rawValue)\"\n"
        body += "background_modes = [\(known.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))]\n"
        if !unknownModes.isEmpty { body += "# unknown modes left out: \(unknownModes.map(TerminalText.sanitized).joined(separator: ", "))\n" }
        let notModelled = known.filter { !$0.isModelled && $0 != .audio && $0 != .location }
        for m in notModelled { body += "# \(m.rawValue): \(m.checkRule)\n" }
        body += "\n[session]\ncategory = \"\(audio ? "playback" : "soloAmbient")\"\noptions = [\(audio ? "\"mixWithOthers\"" : "")]\nactive = \(audio)\n"
        for (name, kind, extra) in streams {
            body += "\n[[streams]]\nname = \"\(name)\"\nkind = \"\(kind.rawValue)\"\n\(extra)"
        }
        // A VoIP app must report its call (3b); fetch, push and processing handlers are left out so that each
        // window runs to its end.
        var handlers: [(String, String)] = []
        if known.contains(.voip) { handlers.append(("pushkit.incoming", "report-call")) }
        for (on, action) in handlers { body += "\n[[handlers]]\non = \"\(on)\"\ndo = [\"\(action)\"]\n" }

        var steps: [(Double, String, String)] = [
            (0, "launch", "The user opens the app"),
            (2, "midi:keys", "A note arrives in the foreground: delivered"),
        ]
        let keepers = streams.filter { $0.1 == .audioOutput || $0.1 == .location }.map(\.0)
        if keepers.isEmpty {
            steps.append((5, "home", "The user goes home: nothing keeps the app alive, it is suspended 5 s after didEnterBackground"))
            steps.append((15, "midi:keys", "A note arrives while the app is suspended: lost (there is no MIDI background mode)"))
        } else {
            steps.append((5, "home", "The user goes home: \(keepers.joined(separator: " and ")) keep\(keepers.count == 1 ? "s" : "") the app alive in background"))
            steps.append((10, "midi:keys", "A note arrives in background: delivered, because \(keepers.joined(separator: " and ")) keep\(keepers.count == 1 ? "s" : "") the app running"))
            var t = 15.0
            for k in keepers {
                steps.append((t, "stream-stop:\(k)", "\(k) stops: \(k == keepers.last ? "nothing keeps the app alive any more, it is suspended 5 s later" : "the others still keep it alive")"))
                t += 1
            }
            steps.append((25, "midi:keys", "A note arrives while the app is suspended: lost (there is no MIDI background mode)"))
        }
        let configuration_processingBudget = LifecycleConfiguration().processingBudget
        var t = 30.0
        var shown: Set<String> = []
        for m in known {
            guard let event = m.wakeEvent, m.isModelled, !shown.contains(event) else { continue }
            shown.insert(event)
            let concrete = event == "ble-event:S" ? "ble-event:ble" : event == "accessory-event:S" ? "accessory-event:pedal" : event
            steps.append((t, concrete, "\(concrete) (\(m.rawValue)): \(m.simulatorRule!)"))
            if m == .voip {
                steps.append((t + 5, "call-declined", "The user declines the call: CallKit keeps the app alive no more, it is suspended 5 s later"))
                t += 15
            }
            t += m == .processing ? configuration_processingBudget + 10 : 40
        }
        steps.append((t, "foreground", "The user returns to the app: active again"))
        for (at, event, say) in steps {
            body += "\n[[steps]]\nat = \(TimelineFormat.number(at))\nevent = \"\(event)\"\nsay = \(TimelineFormat.quote(say))\n"
        }
        return body
    }
}

/// "bluetooth-central", "bluetooth-peripheral" or both, as declared.
private func bluetoothModes(_ known: Set<BackgroundMode>) -> String {
    [BackgroundMode.bluetoothCentral, .bluetoothPeripheral].filter(known.contains).map(\.rawValue).joined(separator: " and ")
}
