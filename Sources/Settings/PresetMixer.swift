import Engine
import TOML

/// The channel mixer's settings as a synth preset keeps them: muted and soloed channels (1...16), each
/// channel's volume offset in dB (-24...12) and pan offset (-64...64). Keys `mixer_mute`, `mixer_solo`,
/// `mixer_volume_db`, `mixer_pan`; a preset without them leaves the mixer as it is.
public struct PresetMixer: Equatable, Sendable {
    public var muted: [Int] = [], soloed: [Int] = []
    public var volumeDB = [Int](repeating: 0, count: 16), pan = [Int](repeating: 0, count: 16)

    public init(muted: [Int] = [], soloed: [Int] = [], volumeDB: [Int] = [Int](repeating: 0, count: 16), pan: [Int] = [Int](repeating: 0, count: 16)) {
        self.muted = muted; self.soloed = soloed; self.volumeDB = volumeDB; self.pan = pan
    }

    /// The engine's settings as a preset keeps them.
    public init(_ settings: ChannelMixerSettings) {
        func channels(_ mask: UInt16) -> [Int] { (0..<16).filter { mask & (1 << UInt16($0)) != 0 }.map { $0 + 1 } }
        self.init(muted: channels(settings.muted), soloed: channels(settings.soloed), volumeDB: settings.volumeDB, pan: settings.pan)
    }

    /// What a preset or session saves of `settings`: nil when nothing is muted, soloed or offset.
    public init?(saving settings: ChannelMixerSettings) {
        self.init(settings)
        if self == PresetMixer() { return nil }
    }

    /// The settings the engine applies (`Engine.setChannelMixer(_:)`).
    public var settings: ChannelMixerSettings {
        func mask(_ channels: [Int]) -> UInt16 { channels.reduce(0) { $0 | 1 << UInt16($1 - 1) } }
        return ChannelMixerSettings(muted: mask(muted), soloed: mask(soloed), volumeDB: volumeDB, pan: pan)
    }

    public static let keys = ["mixer_mute", "mixer_solo", "mixer_volume_db", "mixer_pan"]

    /// Read from a preset's `root`; nil when it has none of the keys. `fail(key, message)` makes the error.
    static func parse(_ root: TOMLTable, fail: (String, String) -> ConfigFileError) throws(ConfigFileError) -> PresetMixer? {
        guard keys.contains(where: { root[$0] != nil }) else { return nil }
        func ints(_ key: String, _ range: ClosedRange<Int>, count: Int?, what: String) throws(ConfigFileError) -> [Int]? {
            guard let v = root[key] else { return nil }
            let values = v.array?.compactMap(\.int)
            guard let values, values.count == v.array?.count, values.allSatisfy(range.contains), count.map({ $0 == values.count }) ?? true else {
                throw fail(key, "\"\(key)\" must be \(what); got \(v.debugDescription)")
            }
            return values
        }
        var mixer = PresetMixer()
        mixer.muted = try ints("mixer_mute", 1...16, count: nil, what: "an array of MIDI channels 1...16") ?? []
        mixer.soloed = try ints("mixer_solo", 1...16, count: nil, what: "an array of MIDI channels 1...16") ?? []
        mixer.volumeDB = try ints("mixer_volume_db", -24...12, count: 16, what: "an array of 16 whole dB offsets, -24...12") ?? mixer.volumeDB
        mixer.pan = try ints("mixer_pan", -64...64, count: 16, what: "an array of 16 pan offsets, -64 (left)...64 (right)") ?? mixer.pan
        return mixer
    }

    var toml: String {
        func list(_ values: [Int]) -> String { "[" + values.map(String.init).joined(separator: ", ") + "]" }
        return "# The channel mixer (O): muted and soloed channels, volume (dB) and pan offsets of channels 1...16.\n"
            + "mixer_mute = \(list(muted))\nmixer_solo = \(list(soloed))\n"
            + "mixer_volume_db = \(list(volumeDB))\nmixer_pan = \(list(pan))\n"
    }
}
