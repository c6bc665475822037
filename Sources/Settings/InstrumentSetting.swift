import TOML

/// The `instruments` key of the config file's `[engine]` table and of a synth preset: SFZ instruments as
/// `--instrument` takes them, "FILE.sfz" (every channel) or "CH=FILE.sfz" (channel CH, 1...16), one string or
/// an array of them.
public enum InstrumentSetting {
    /// The entries of `value`, or what is wrong with it (`where` names the table, as "[engine] " or "").
    public static func parse(_ value: TOMLValue) -> Result<[String], Problem> {
        let list = value.string.map { [$0] } ?? value.array?.compactMap(\.string)
        guard let list, !list.isEmpty, list.count == (value.array?.count ?? 1) else {
            return .failure(Problem("\"instruments\" must be an SFZ file name (\"piano.sfz\", every channel) or \"CH=FILE.sfz\" "
                                    + "(channel 1...16), or an array of them; got \(value.debugDescription)"))
        }
        var channels: Set<Int> = [], everyChannel = 0
        for entry in list {
            let (channel, file) = split(entry)
            if file.isEmpty { return .failure(Problem("\"instruments\" entry \(String(reflecting: entry)) has no file name")) }
            if let channel {
                guard (1...16).contains(channel) else {
                    return .failure(Problem("\"instruments\" entry \(String(reflecting: entry)): the channel is \(channel); channels are 1...16"))
                }
                guard channels.insert(channel).inserted else {
                    return .failure(Problem("\"instruments\" gives channel \(channel) two instruments"))
                }
            } else {
                everyChannel += 1
                if everyChannel > 1 {
                    return .failure(Problem("\"instruments\" has more than one entry without a channel; give the others as \"CH=FILE.sfz\""))
                }
            }
        }
        return .success(list)
    }

    /// "CH=FILE" as (CH, FILE), "FILE" as (nil, FILE): only a whole number before the first "=" is a channel,
    /// as `--instrument` reads it.
    public static func split(_ entry: String) -> (channel: Int?, file: String) {
        if let equals = entry.firstIndex(of: "="), let number = Int(entry[..<equals]) {
            return (number, String(entry[entry.index(after: equals)...]))
        }
        return (nil, entry)
    }

    /// `entries` with `file` on `channel` (1...16), as a live change of instrument leaves a run: that channel's
    /// entry replaced (a channel-less entry stays for the other channels; once every channel has its own, it
    /// plays none and goes).
    public static func replacing(_ entries: [String], channel: Int, with file: String) -> [String] {
        var kept = entries.filter { split($0).channel != channel }
        kept.append("\(channel)=\(file)")
        let pinned = Set(kept.compactMap { split($0).channel })
        if pinned.count == 16 { kept.removeAll { split($0).channel == nil } }
        return kept
    }

    public struct Problem: Error {
        public var message: String
        init(_ message: String) { self.message = message }
    }
}
