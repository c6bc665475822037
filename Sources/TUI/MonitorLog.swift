import Engine
import MIDI

/// One message in the monitor log. Formatting happens only for rows on screen.
public struct MonitorEntry: Equatable, Sendable {
    public var sequence: Int
    /// Seconds since the workstation started (JACK frame time based).
    public var time: Double
    public var source: MIDISource
    /// Dropped by the lifecycle gate.
    public var lost: Bool
    public var message: MIDIMessage?
    /// The status byte, for undefined statuses.
    public var status: UInt8
    /// Backbeat also sent it on its MIDI outputs (the engine reported it a second time as source `out`,
    /// merged into this row).
    public var echoed = false
    /// How the synth took it when that needs words beyond the message (a program change's patch or preset).
    public var label: String?
    /// A system exclusive message the synth did not act on (`MonitorEvent.sysexIgnored`): shown with a dim
    /// "ignored" tag.
    public var ignored = false

    /// Which way it went: `in` arrived on a MIDI input, `thru` arrived and was sent on (--midi-thru), `out`
    /// Backbeat's own (keys, demo) sent on its outputs, `local` Backbeat's own played here only.
    public var direction: String {
        switch source {
        case .out: "out"
        case .jack, .alsa: echoed ? "thru" : "in"
        case .keyboard, .demo, .player: echoed ? "out" : "local"
        }
    }
}

/// Which kinds of messages the monitor shows.
public enum MonitorTypeFilter: Int, CaseIterable, Sendable {
    case all, notes, controllers, programs, bendAndPressure, system, sysex
    public var label: String {
        switch self {
        case .all: "all"
        case .notes: "notes"
        case .controllers: "CC"
        case .programs: "program"
        case .bendAndPressure: "bend/pressure"
        case .system: "system"
        case .sysex: "sysex"
        }
    }

    func accepts(_ message: MIDIMessage?) -> Bool {
        guard let message else { return self == .all || self == .system }
        switch self {
        case .all: return true
        case .notes: if case .noteOn = message { return true }; if case .noteOff = message { return true }; return false
        case .controllers: if case .controlChange = message { return true }; return false
        case .programs: if case .programChange = message { return true }; return false
        case .bendAndPressure:
            switch message { case .pitchBend, .channelPressure, .polyPressure: return true; default: return false }
        case .system: return message.channel == nil
        case .sysex: if case .systemExclusive = message { return true }; return false
        }
    }
}

/// The monitor's scroll-back: a bounded log, filters, pause and scroll position.
public struct MonitorLog: Sendable {
    public private(set) var entries: [MonitorEntry] = []
    private var head = 0  // index of the oldest entry once the buffer is full
    public let capacity: Int
    public private(set) var nextSequence = 0
    /// Filters: nil channel shows all (0...15 otherwise).
    public var channel: UInt8?
    public var type: MonitorTypeFilter = .all
    /// Clock and active sensing are hidden unless this is on.
    public var showClockAndSensing = false
    /// While paused, the view stays where it was; messages are still recorded.
    public private(set) var paused = false
    /// Sequence number of the newest entry on screen when not following; nil follows the newest.
    public private(set) var anchor: Int?
    /// Messages the lifecycle gate dropped (shown in the log and counted here).
    public private(set) var gateLost = 0
    /// Messages seen, including hidden ones.
    public private(set) var received = 0

    public init(capacity: Int = 10_000) { self.capacity = max(16, capacity) }

    public var count: Int { entries.count }

    /// Oldest first.
    public func entry(at i: Int) -> MonitorEntry { entries[(head + i) % entries.count] }

    /// Adds one message. An outgoing copy (`out`) of the message just added (same time, same message) is not a
    /// row of its own: it marks that row as sent on (its direction becomes `thru` or `out`). Returns false when
    /// it was merged so.
    @discardableResult
    public mutating func append(time: Double, source: MIDISource, lost: Bool, message: MIDIMessage?, status: UInt8,
                                label: String? = nil, ignored: Bool = false) -> Bool {
        if source == .out, !entries.isEmpty {
            let newest = entries.count < capacity ? entries.count - 1 : (head + capacity - 1) % capacity
            let e = entries[newest]
            if e.source != .out, !e.echoed, !e.lost, e.time == time, e.message == message, e.status == status {
                entries[newest].echoed = true
                return false
            }
        }
        var entry = MonitorEntry(sequence: nextSequence, time: time, source: source, lost: lost, message: message, status: status,
                                 label: label)
        entry.ignored = ignored
        nextSequence += 1
        received += 1
        if lost { gateLost += 1 }
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[head] = entry
            head = (head + 1) % capacity
        }
        return true
    }

    public mutating func clear() {
        entries.removeAll(keepingCapacity: true)
        head = 0
        anchor = paused ? nextSequence - 1 : nil
    }

    public func isVisible(_ e: MonitorEntry) -> Bool {
        if !showClockAndSensing, let m = e.message {
            switch m { case .timingClock, .activeSensing: return false; default: break }
        }
        if let channel, e.message?.channel != channel { return false }
        return type.accepts(e.message)
    }

    /// The newest `rows` visible entries up to the anchor, oldest first.
    public func visibleRows(_ rows: Int) -> [MonitorEntry] {
        guard rows > 0, !entries.isEmpty else { return [] }
        var out: [MonitorEntry] = []
        var i = entries.count - 1
        if let anchor {
            let oldest = entry(at: 0).sequence
            i = min(entries.count - 1, anchor - oldest)
        }
        while i >= 0 && out.count < rows {
            let e = entry(at: i)
            if isVisible(e) { out.append(e) }
            i -= 1
        }
        return out.reversed()
    }

    /// Visible entries newer than what the view shows (for "N new" while paused or scrolled).
    public var hiddenNewer: Int {
        guard let anchor else { return 0 }
        return max(0, nextSequence - 1 - anchor)
    }

    public mutating func togglePause() {
        paused.toggle()
        anchor = paused ? (anchor ?? nextSequence - 1) : nil
    }

    /// Scrolls by `rows` visible rows (positive: back in time).
    public mutating func scroll(by rows: Int) {
        guard !entries.isEmpty else { return }
        let oldest = entry(at: 0).sequence
        var i = anchor.map { min(entries.count - 1, $0 - oldest) } ?? entries.count - 1
        var moved = 0
        if rows > 0 {
            while moved < rows && i > 0 {
                i -= 1
                if isVisible(entry(at: i)) { moved += 1 }
            }
            anchor = entry(at: max(0, i)).sequence
        } else {
            while moved < -rows && i < entries.count - 1 {
                i += 1
                if isVisible(entry(at: i)) { moved += 1 }
            }
            anchor = (i >= entries.count - 1 && !paused) ? nil : entry(at: i).sequence
        }
    }

    public mutating func scrollToNewest() { anchor = paused ? nextSequence - 1 : nil }
    public mutating func scrollToOldest() { if !entries.isEmpty { anchor = entry(at: 0).sequence } }

    /// Channel filter: all, 1, 2 ... 16, all.
    public mutating func cycleChannel(_ step: Int = 1) {
        let current = channel.map { Int($0) + 1 } ?? 0
        let next = ((current + step) % 17 + 17) % 17
        channel = next == 0 ? nil : UInt8(next - 1)
    }

    public mutating func cycleType() {
        type = MonitorTypeFilter(rawValue: (type.rawValue + 1) % MonitorTypeFilter.allCases.count)!
    }
}
