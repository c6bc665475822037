// Scenario files (format: docs/scenarios.md), read with the TOML module, whose tables know the line of every
// key and table: the lines errors name.
import Foundation
import OSCall
import SystemPackage
import TOML

/// A scenario error: names the file, the line and, when relevant, the accepted values.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String
    public init(file: String, line: Int, message: String) {
        self.file = file; self.line = line; self.message = message
    }
    /// `file:line: message`, one line.
    public var description: String { "\(file):\(line): \(message)" }
}

/// A step: an event at a time, with optional narration.
public struct ScenarioStep: Sendable, Equatable {
    public var at: Double
    public var event: LifecycleEvent
    public var say: String?
    public var line: Int
    /// `note` on a `midi:S` step: the note played live (docs/scenarios.md); nil: 60.
    public var note: Int? = nil
}

/// An expectation checked at a time.
public struct ScenarioExpectation: Sendable, Equatable {
    public var at: Double
    public var state: AppState?
    public var aliveBy: [String]?
    public var warnings: [WarningCode]?
    public var line: Int
}

/// A parsed scenario file.
public struct Scenario: Sendable, Equatable {
    public var file: String
    public var title: String
    public var configuration: LifecycleConfiguration
    public var steps: [ScenarioStep]
    public var expectations: [ScenarioExpectation]
    /// Top-level `until`: where a run stops. nil: it plays on until nothing more is scheduled.
    public var until: Double? = nil

    /// Reads and parses `path`; errors name `path` as given.
    public static func load(path: String) throws(ScenarioError) -> Scenario {
        let bytes: [UInt8]
        do throws(ReadFailure) { bytes = try SystemCall.readFile(path, limit: ReadLimit.text, what: "a scenario") } catch {
            throw ScenarioError(file: path, line: 0, message: "cannot read the file: \(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ScenarioError(file: path, line: 1, message: "not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// Parses scenario text; `file` is the name errors use.
    public static func parse(_ text: String, file: String) throws(ScenarioError) -> Scenario {
        let parser = ScenarioParser(file: file)
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch {
            throw ScenarioError(file: file, line: error.line, message: "TOML syntax (column \(error.column)): \(error.message)")
        }
        return try parser.parse(root)
    }
}

private struct ScenarioParser {
    let file: String

    static let topKeys = ["title", "until", "lifecycle", "app_delegate_adaptor", "background_modes", "ios", "processing_budget", "session", "streams",
                          "handlers", "steps", "expect"]
    static let sessionKeys = ["category", "options", "active"]
    static let streamKeys = ["name", "kind", "content", "playing", "audible", "pip"]
    static let handlerKeys = ["on", "do"]
    static let stepKeys = ["at", "event", "say", "note"]
    static let expectKeys = ["at", "state", "alive_by", "warnings"]

    func fail(_ line: Int, _ message: String) -> ScenarioError { ScenarioError(file: file, line: line, message: message) }
    func list(_ values: [String]) -> String { values.joined(separator: ", ") }

    /// One table of the file and what errors call it.
    struct Table {
        let table: TOMLTable
        let what: String
    }

    /// The line of `key` in `t`, or of the table when it has no such key.
    func line(_ t: Table, _ key: String) -> Int { t.table.line(of: key) ?? t.table.line }

    func checkKeys(_ t: Table, _ allowed: [String]) throws(ScenarioError) {
        for key in t.table.keys.sorted(by: { line(t, $0) < line(t, $1) }) where !allowed.contains(key) {
            throw fail(line(t, key), "unknown key \"\(key)\" in \(t.what); accepted: \(list(allowed))")
        }
    }

    func string(_ t: Table, _ key: String, required: Bool = false) throws(ScenarioError) -> String? {
        guard let v = t.table[key] else {
            if required { throw fail(t.table.line, "\(t.what) needs \"\(key)\"") }
            return nil
        }
        guard let s = v.string else { throw fail(line(t, key), "\"\(key)\" must be a string") }
        return s
    }

    func bool(_ t: Table, _ key: String) throws(ScenarioError) -> Bool? {
        guard let v = t.table[key] else { return nil }
        guard let b = v.bool else { throw fail(line(t, key), "\"\(key)\" must be true or false") }
        return b
    }

    /// Seconds: a finite number, not negative (TOML also spells nan and inf, which are no times).
    func number(_ t: Table, _ key: String) throws(ScenarioError) -> Double {
        guard let v = t.table[key] else { throw fail(t.table.line, "\(t.what) needs \"\(key)\" (seconds)") }
        let seconds: Double
        if let d = v.double { seconds = d } else if let i = v.int { seconds = Double(i) } else {
            throw fail(line(t, key), "\"\(key)\" must be a number of seconds")
        }
        guard seconds.isFinite && seconds >= 0 else {
            throw fail(line(t, key), "\"\(key)\" must be a finite number of seconds, not negative (got \(seconds))")
        }
        return seconds
    }

    func strings(_ t: Table, _ key: String) throws(ScenarioError) -> [String]? {
        guard let v = t.table[key] else { return nil }
        guard let a = v.array else { throw fail(line(t, key), "\"\(key)\" must be an array of strings") }
        var out: [String] = []
        for element in a {
            guard let s = element.string else { throw fail(line(t, key), "\"\(key)\" must be an array of strings") }
            out.append(s)
        }
        return out
    }

    func enumValue<E: RawRepresentable & CaseIterable>(_ t: Table, _ key: String, _ value: String, _: E.Type) throws(ScenarioError) -> E where E.RawValue == String {
        guard let e = E(rawValue: value) else {
            throw fail(line(t, key), "unknown \(key) \"\(value)\"; accepted: \(list(E.allCases.map(\.rawValue)))")
        }
        return e
    }

    func tables(_ root: TOMLTable, _ name: String) throws(ScenarioError) -> [Table] {
        guard let v = root[name] else { return [] }
        guard let array = v.array else {
            throw fail(root.line(of: name) ?? 1, "\"\(name)\" must be an array of tables: [[\(name)]]")
        }
        var out: [Table] = []
        for element in array {
            guard let t = element.table else { throw fail(root.line(of: name) ?? 1, "\"\(name)\" must be an array of tables: [[\(name)]]") }
            out.append(Table(table: t,
                             what: "[[\(name)]]"))
        }
        return out
    }

    func parse(_ root: TOMLTable) throws(ScenarioError) -> Scenario {
        let top = Table(table: root, what: "the top level")
        for key in root.keys where !Self.topKeys.contains(key) {
            throw fail(root.line(of: key) ?? 1,
                       "unknown key \"\(key)\" at the top level; accepted: \(list(Self.topKeys))")
        }
        let title = try string(top, "title") ?? URL(fileURLWithPath: file).lastPathComponent
        guard let styleText = try string(top, "lifecycle") else {
            throw fail(1, "missing \"lifecycle\"; accepted: \(list(LifecycleStyle.allCases.map(\.rawValue)))")
        }
        var config = LifecycleConfiguration()
        config.style = try enumValue(top, "lifecycle", styleText, LifecycleStyle.self)
        var until: Double?
        if root["until"] != nil { until = try number(top, "until") }
        if root["processing_budget"] != nil {
            config.processingBudget = try number(top, "processing_budget")
        }
        if let adaptor = try bool(top, "app_delegate_adaptor") {
            guard config.style == .swiftui else {
                throw fail(line(top, "app_delegate_adaptor"), "\"app_delegate_adaptor\" applies to lifecycle = \"swiftui\" only")
            }
            config.appDelegateAdaptor = adaptor
        }
        for mode in try strings(top, "background_modes") ?? [] {
            config.backgroundModes.append(try enumValue(top, "background_modes", mode, BackgroundMode.self))
        }
        if let v = root["ios"] {
            guard let ios = v.int, (1...99).contains(ios) else { throw fail(line(top, "ios"), "\"ios\" must be an iOS major version such as 17") }
            config.iOSVersion = ios
        }
        if let v = root["session"] {
            guard let t = v.table else { throw fail(line(top, "session"), "\"session\" must be a table: [session]") }
            let session = Table(table: t, what: "[session]")
            try checkKeys(session, Self.sessionKeys)
            if let c = try string(session, "category") {
                config.category = try enumValue(session, "category", c, SessionCategory.self)
            }
            for o in try strings(session, "options") ?? [] {
                config.options.append(try enumValue(session, "options", o, SessionOption.self))
            }
            config.sessionActive = try bool(session, "active")
        }
        for t in try tables(root, "streams") {
            try checkKeys(t, Self.streamKeys)
            let name = try string(t, "name", required: true)!
            if config.streams.contains(where: { $0.name == name }) { throw fail(line(t, "name"), "duplicate stream name \"\(name)\"") }
            let kind = try enumValue(t, "kind", try string(t, "kind", required: true)!, StreamKind.self)
            var content: PlayerContent?
            if let c = try string(t, "content") {
                guard kind == .keepalivePlayer || kind == .videoPlayer else {
                    throw fail(line(t, "content"), "\"content\" applies to players only; accepted kinds: keepalive-player, video-player")
                }
                content = try enumValue(t, "content", c, PlayerContent.self)
            } else if kind == .keepalivePlayer {
                throw fail(t.table.line, "a keepalive-player needs \"content\"; accepted: \(list(PlayerContent.allCases.map(\.rawValue)))")
            }
            let audible = try bool(t, "audible")
            if audible != nil && kind != .audioOutput && kind != .videoPlayer {
                throw fail(line(t, "audible"), "\"audible\" applies to audio-output and video-player only")
            }
            let pip = try bool(t, "pip")
            if pip != nil && kind != .videoPlayer { throw fail(line(t, "pip"), "\"pip\" applies to video-player only") }
            config.streams.append(StreamConfig(name: name, kind: kind, content: content, playing: try bool(t, "playing"),
                                               audible: audible, pictureInPicture: pip ?? true))
        }
        func stream(_ name: String, _ t: Table, _ key: String, kinds: [StreamKind]? = nil) throws(ScenarioError) {
            let names = config.streams.map(\.name)
            guard let s = config.streams.first(where: { $0.name == name }) else {
                throw fail(line(t, key), "unknown stream \"\(name)\"; streams: \(names.isEmpty ? "none" : list(names))")
            }
            if let kinds, !kinds.contains(s.kind) {
                let fit = config.streams.filter { kinds.contains($0.kind) }.map(\.name)
                throw fail(line(t, key), "stream \"\(name)\" is a \(s.kind.rawValue); this needs \(list(kinds.map(\.rawValue))) (\(fit.isEmpty ? "none declared" : list(fit)))")
            }
        }
        for t in try tables(root, "handlers") {
            try checkKeys(t, Self.handlerKeys)
            let on = try enumValue(t, "on", try string(t, "on", required: true)!, Callback.self)
            guard let actionTexts = try strings(t, "do") else { throw fail(t.table.line, "[[handlers]] needs \"do\"; accepted: \(list(HandlerAction.accepted))") }
            var actions: [HandlerAction] = []
            for text in actionTexts {
                guard let a = HandlerAction(parsing: text) else {
                    throw fail(line(t, "do"), "unknown handler action \"\(text)\"; accepted: \(list(HandlerAction.accepted))")
                }
                switch a {
                case .detachVideo(let s), .attachVideo(let s): try stream(s, t, "do", kinds: [.videoPlayer])
                case .play(let s), .stop(let s): try stream(s, t, "do")
                default: break
                }
                actions.append(a)
            }
            config.handlers.append(Handler(on: on, actions: actions))
        }
        config.addImplicitStreams()
        var steps: [ScenarioStep] = []
        for t in try tables(root, "steps") {
            try checkKeys(t, Self.stepKeys)
            let at = try number(t, "at")
            let text = try string(t, "event", required: true)!
            guard let event = LifecycleEvent(parsing: text) else {
                throw fail(line(t, "event"), "unknown event \"\(text)\"; accepted: \(list(LifecycleEvent.accepted))")
            }
            switch event {
            case .midi(let s): try stream(s, t, "event", kinds: [.midiIn, .midiOut])
            case .bleEvent(let s): try stream(s, t, "event", kinds: [.bluetooth])
            case .accessoryEvent(let s): try stream(s, t, "event", kinds: [.accessory])
            case .streamStart(let s), .streamStop(let s): try stream(s, t, "event")
            default: break
            }
            if let until, at > until {
                throw fail(line(t, "at"), "step at = \(at) comes after until = \(until) (line \(line(top, "until"))): it would never run")
            }
            if let previous = steps.last, at < previous.at {
                throw fail(line(t, "at"), "steps must be in time order: at = \(at) comes after at = \(previous.at) (line \(previous.line))")
            }
            var note: Int?
            if let v = t.table["note"] {
                guard case .midi = event else { throw fail(line(t, "note"), "\"note\" applies to midi:S steps only") }
                guard let n = v.int, (0...127).contains(n) else { throw fail(line(t, "note"), "\"note\" must be a MIDI note number, 0 to 127") }
                note = Int(n)
            }
            steps.append(ScenarioStep(at: at, event: event, say: try string(t, "say"), line: t.table.line, note: note))
        }
        var expectations: [ScenarioExpectation] = []
        for t in try tables(root, "expect") {
            try checkKeys(t, Self.expectKeys)
            let at = try number(t, "at")
            if let until, at > until {
                throw fail(line(t, "at"), "expectation at = \(at) comes after until = \(until) (line \(line(top, "until"))): it would never be checked")
            }
            var e = ScenarioExpectation(at: at, line: t.table.line)
            if let s = try string(t, "state") { e.state = try enumValue(t, "state", s, AppState.self) }
            if let alive = try strings(t, "alive_by") {
                for n in alive where !LifecycleSimulator.systemKeepers.contains(n) { try stream(n, t, "alive_by") }
                e.aliveBy = alive
            }
            if let codes = try strings(t, "warnings") {
                var list: [WarningCode] = []
                for c in codes { list.append(try enumValue(t, "warnings", c, WarningCode.self)) }
                e.warnings = list
            }
            expectations.append(e)
        }
        return Scenario(file: file, title: title, configuration: config, steps: steps, expectations: expectations, until: until)
    }
}
