import DSP
import Engine
import Foundation
import Settings

/// The channel mixer: 16 strips, for the song player and live MIDI alike. Its settings (mute, solo, volume and
/// pan offsets) go to the engine, which applies them at a period's start (`Engine.setChannelMixer`); its meters
/// read each channel's level (`Engine.takeChannelLevels`).
public struct MixerState: Equatable, Sendable {
    /// Shown in place of the monitor and the panels beside it (`O`).
    public var shown = false
    public var selected = 0
    public var muted: UInt16 = 0, soloed: UInt16 = 0
    /// Offsets: dB on each channel's volume (-24 ... +12), pan (-64 left ... +64 right, in MIDI pan steps).
    public var volumeDB = [Int](repeating: 0, count: 16)
    public var pan = [Int](repeating: 0, count: 16)
    /// Each channel's last program change as delivered (the built-in synth's patch names).
    public var programs = [UInt8](repeating: 0, count: 16)
    /// Each channel's meter in dB, falling 24 dB a second after a peak.
    public var levelDB = [Double](repeating: -.infinity, count: 16)
    var measuredAt: Double?

    public init() {}

    /// What the engine applies and keeps (mute, solo, offsets).
    public var settings: ChannelMixerSettings {
        get { ChannelMixerSettings(muted: muted, soloed: soloed, volumeDB: volumeDB, pan: pan) }
        set { muted = newValue.muted; soloed = newValue.soloed; volumeDB = newValue.volumeDB; pan = newValue.pan }
    }
    /// The channels the synth does not play: the muted ones, and with any solo every channel not soloed.
    public var silenced: UInt16 { settings.silenced }
    public var gains: [Float] { settings.gains }
    public var pans: [Float] { settings.pans }

    /// Levels (0 ... 1, the highest since the last call) into the meters at `now` (seconds).
    mutating func take(_ levels: [Float], now: Double) {
        let elapsed = measuredAt.map { max(now - $0, 0) } ?? 0
        measuredAt = now
        for ch in 0..<min(16, levels.count) {
            let fallen = levelDB[ch] - 24 * elapsed
            let db = levels[ch] > 0 ? 20 * log10(Double(levels[ch])) : -Double.infinity
            levelDB[ch] = max(fallen < -90 ? -.infinity : fallen, db)
        }
    }

    /// What a mixer key does (the mixer shown and focused); nil for a key it leaves to the workstation.
    mutating func handle(_ key: Key) -> String? {
        let ch = selected, bit = UInt16(1) << UInt16(ch)
        switch key {
        case .up, .char("k"): selected = (selected + 15) % 16; return ""
        case .down, .char("j"): selected = (selected + 1) % 16; return ""
        case .char("m"):
            muted ^= bit
            return "channel \(ch + 1) " + (muted & bit != 0 ? "muted (its notes released; m again unmutes)" : "unmuted")
        case .char("s"):
            soloed ^= bit
            return soloed == 0 ? "no solo: every channel plays" : "solo: channel" + (soloed.nonzeroBitCount > 1 ? "s " : " ")
                + (0..<16).filter { soloed & (1 << UInt16($0)) != 0 }.map { "\($0 + 1)" }.joined(separator: ",")
        case .left, .char("h"), .right, .char("l"):
            let step = key == .left || key == .char("h") ? -1 : 1
            volumeDB[ch] = min(max(volumeDB[ch] + step, -24), 12)
            return "channel \(ch + 1) volume \(Self.decibels(volumeDB[ch])) dB"
        case .char("<"), .char(">"):
            pan[ch] = min(max(pan[ch] + (key == .char("<") ? -8 : 8), -64), 64)
            return "channel \(ch + 1) pan offset \(Self.panText(pan[ch]))"
        case .char("0"):
            volumeDB[ch] = 0
            pan[ch] = 0
            return "channel \(ch + 1) offsets reset"
        default: return nil
        }
    }

    /// What a preset keeps of it (nil when nothing is muted, soloed or offset).
    var presetMixer: PresetMixer? { PresetMixer(saving: settings) }

    /// A preset's mixer settings.
    mutating func load(_ saved: PresetMixer) { settings = saved.settings }

    static func decibels(_ db: Int) -> String { db > 0 ? "+\(db)" : "\(db)" }
    static func panText(_ pan: Int) -> String { pan == 0 ? "C" : pan < 0 ? "L\(-pan)" : "R\(pan)" }
}

public enum MixerPanel {
    /// The strips in `rect`: one column of 16 where the height allows, else two of 8 side by side (80x24).
    /// `names` are the 16 programs as the synth plays them.
    public static func draw(_ mixer: MixerState, names: [String], into grid: inout Grid, rect: Rect, context: DrawContext) {
        context.frame(&grid, rect, " Mixer — m mute · s solo · ←→ volume · < > pan · 0 reset · O closes ")
        let inner = rect.inset(1)
        guard inner.width >= 20, inner.height >= 3 else { return }
        let columns = inner.height >= 17 ? 1 : 2
        let rows = 16 / columns
        let width = (inner.width - (columns - 1)) / columns
        for column in 0..<columns {
            let x = inner.x + column * (width + 1)
            grid.put(x, inner.y, header(width: width), .dim, limit: width)
            for row in 0..<min(rows, inner.height - 1) {
                let ch = column * rows + row
                strip(mixer, channel: ch, name: ch < names.count ? names[ch] : "", into: &grid, x: x, y: inner.y + 1 + row, width: width,
                      glyphs: context.glyphs)
            }
        }
    }

    /// The column heads, over `strip`'s fields.
    static func header(width: Int) -> String {
        let meter = meterWidth(width)
        return "ch   " + " ".fitted(3) + "level".fitted(meter) + " vol pan program"
    }

    static func meterWidth(_ width: Int) -> Int { min(max(width / 4, 6), 24) }

    /// One strip on a line: channel, activity light, mute/solo, meter, volume and pan offsets, program name.
    static func strip(_ mixer: MixerState, channel ch: Int, name: String, into grid: inout Grid, x: Int, y: Int, width: Int, glyphs: Glyphs) {
        let bit = UInt16(1) << UInt16(ch)
        let selected = mixer.selected == ch
        var at = grid.put(x, y, (selected ? String(Character(glyphs.selection)) : " ") + "\(ch + 1)".rightAligned(2) + " ",
                          selected ? .selected : .normal)
        let db = mixer.levelDB[ch]
        at = grid.put(at, y, String(Character(db > -60 ? glyphs.lamp : glyphs.barEmpty)), db > -60 ? .meterLow : .meterTrack)
        let flag = mixer.muted & bit != 0 ? "M" : mixer.soloed & bit != 0 ? "S" : mixer.silenced & bit != 0 ? "-" : " "
        at = grid.put(at + 1, y, flag, flag == "M" || flag == "-" ? .error : flag == "S" ? .badgeWarning : .normal)
        at += 1
        let meter = meterWidth(width)
        let lit = db.isFinite ? Int(((db + 60) / 60 * Double(meter)).rounded(.down)) : 0
        for i in 0..<meter {
            let on = i < lit
            let role: Role = !on ? .meterTrack : i >= meter * 9 / 10 ? .meterHigh : i >= meter * 7 / 10 ? .meterMid : .meterLow
            grid.put(at + i, y, String(Character(on ? glyphs.barFull : glyphs.barEmpty)), role)
        }
        at += meter + 1
        at = grid.put(at, y, MixerState.decibels(mixer.volumeDB[ch]).rightAligned(3) + " " + MixerState.panText(mixer.pan[ch]).fitted(3) + " ",
                      mixer.volumeDB[ch] != 0 || mixer.pan[ch] != 0 ? .headerValue : .dim)
        let room = x + width - at
        if room > 0 { grid.put(at, y, name.fitWords(room), .normal, limit: room) }
    }
}
