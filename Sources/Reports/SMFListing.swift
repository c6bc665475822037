import Foundation
import MIDI
import TextOutput

/// What `backbeat smf FILE` prints: the header (format, tracks, division), then each track's events in file
/// order, with tick, time through the file's tempo map and the names the monitor uses; with `json`, one
/// JSON object per line.
public enum SMFListing {
    /// A meta event type's name, as the listing shows it ("Set Tempo"; "Meta 0A" for a type without a name).
    public static func metaName(_ type: UInt8) -> String {
        switch type {
        case 0x00: "Sequence Number"
        case 0x01: "Text"
        case 0x02: "Copyright"
        case 0x03: "Track Name"
        case 0x04: "Instrument Name"
        case 0x05: "Lyric"
        case 0x06: "Marker"
        case 0x07: "Cue Point"
        case 0x20: "Channel Prefix"
        case 0x21: "MIDI Port"
        case 0x2F: "End of Track"
        case 0x51: "Set Tempo"
        case 0x54: "SMPTE Offset"
        case 0x58: "Time Signature"
        case 0x59: "Key Signature"
        case 0x7F: "Sequencer Specific"
        default: "Meta \(hexString([type]))"
        }
    }

    /// The listing's lines: the header, then each track's line and its events.
    public static func lines(_ smf: StandardMIDIFile, json: Bool, middleC: MiddleC) -> [String] {
        let formatter = MonitorFormatter(middleC: middleC, maxRawBytes: 24)
        var out: [String] = []
        let division: String
        switch smf.division {
        case .ticksPerQuarterNote(let tpq): division = "\(tpq) ticks per quarter note"
        case .smpte(let fps, let tpf): division = "\(fps) fps, \(tpf) ticks per frame"
        }
        if json {
            var fields: [(key: String, value: JSONValue)] = [("type", .string("header")), ("format", .int(Int(smf.format))), ("tracks", .int(smf.tracks.count))]
            if case .ticksPerQuarterNote(let tpq) = smf.division { fields.append(("ticks_per_quarter", .int(Int(tpq)))) }
            else { fields.append(("division", .string(division))) }
            out.append(JSONText.object(fields))
        } else {
            out.append("format \(smf.format), \(counted(smf.tracks.count, "track")), \(division)")
        }
        // Times through the tempo map of the whole file: each track's events are found in the merged list.
        let timed = smf.timedEvents()
        var seconds: [Int: [UInt64: Double]] = [:]
        for e in timed { seconds[e.track, default: [:]][e.tick] = e.seconds }
        var tickOffset: UInt64 = 0 // format 2: each track starts where the one before ended
        for (index, track) in smf.tracks.enumerated() {
            defer { if smf.format == 2 { tickOffset &+= track.last?.tick ?? 0 } }
            let name = track.compactMap { if case .meta(let m) = $0.event, m.type == 3 { m.text } else { nil } }.first
            if json {
                var fields: [(key: String, value: JSONValue)] = [("type", .string("track")), ("track", .int(index + 1)), ("events", .int(track.count))]
                if let name { fields.append(("name", .string(name))) }
                out.append(JSONText.object(fields))
            } else {
                out.append("track \(index + 1): \(counted(track.count, "event"))" + (name.map { ", \(TerminalText.sanitized($0))" } ?? ""))
            }
            for event in track {
                let time = seconds[index]?[event.tick &+ tickOffset] ?? 0
                out.append(line(event, track: index + 1, time: time, json: json, formatter: formatter))
            }
        }
        return out
    }

    /// One event's line: tick, time in seconds and the event (with `json`, one JSON object).
    public static func line(_ event: StandardMIDIFile.TrackEvent, track: Int, time: Double, json: Bool, formatter: MonitorFormatter) -> String {
        let head: [(key: String, value: JSONValue)] = [("track", .int(track)), ("tick", .int(Int(event.tick))),
                                                       ("time", .double((time * 1_000_000).rounded() / 1_000_000))]
        let prefix = String(format: "%10llu %10.3f s  ", event.tick, time)
        switch event.event {
        case .message(let m):
            return json ? JSONText.object(head + m.jsonFields) : prefix + formatter.line(m)
        case .sysex(let s):
            let m = MIDIMessage.systemExclusive(s)
            return json ? JSONText.object(head + m.jsonFields) : prefix + formatter.line(m)
        case .escape(let bytes):
            if json { return JSONText.object(head + [("type", .string("escape")), ("bytes", .string(hexString(bytes)))]) }
            return prefix + "F7 escape         " + String(repeating: " ", count: 6) + counted(bytes.count, "byte").padding(toLength: 40, withPad: " ", startingAt: 0) + hexString(bytes)
        case .meta(let meta):
            var details = ""
            var extra: [(key: String, value: JSONValue)] = []
            if let tempo = meta.tempo {
                let bpm = 60_000_000 / Double(tempo)
                details = String(format: "%.3f BPM (%u us per quarter note)", bpm, tempo)
                extra = [("bpm", .double((bpm * 1000).rounded() / 1000)), ("microseconds_per_quarter", .int(Int(tempo)))]
            } else if let text = meta.text {
                details = TerminalText.sanitized(text)
                extra = [("text", .string(text))]
            } else if !meta.data.isEmpty {
                details = hexString(meta.data)
                extra = [("data", .string(hexString(meta.data)))]
            }
            if json { return JSONText.object(head + [("type", .string("meta")), ("meta", .string(metaName(meta.type)))] + extra) }
            return prefix + metaName(meta.type).padding(toLength: 24, withPad: " ", startingAt: 0) + details
        }
    }
}
