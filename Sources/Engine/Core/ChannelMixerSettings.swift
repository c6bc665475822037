import Foundation

/// The channel mixer's settings as the user sets them (the workstation's mixer panel, a preset, an NSM
/// session): muted and soloed channels (bit n: channel n), each channel's volume offset in whole dB
/// (-24 ... +12) and pan offset in MIDI pan steps (-64 left ... +64 right). The engine keeps the last ones set
/// (`Engine.setChannelMixer(_:)`) so a session save reads them from any thread; the real-time side only sees
/// what they fold into (`silenced`, `gains`, `pans`).
public struct ChannelMixerSettings: Equatable, Sendable {
    public var muted: UInt16 = 0, soloed: UInt16 = 0
    public var volumeDB = [Int](repeating: 0, count: 16)
    public var pan = [Int](repeating: 0, count: 16)

    public init(muted: UInt16 = 0, soloed: UInt16 = 0, volumeDB: [Int] = [Int](repeating: 0, count: 16),
                pan: [Int] = [Int](repeating: 0, count: 16)) {
        self.muted = muted; self.soloed = soloed; self.volumeDB = volumeDB; self.pan = pan
    }

    /// The channels the synth does not play: the muted ones, and with any solo every channel not soloed.
    public var silenced: UInt16 { muted | (soloed != 0 ? ~soloed : 0) }
    public var gains: [Float] { volumeDB.map { Float(pow(10, Double($0) / 20)) } }
    public var pans: [Float] { pan.map { Float($0) / 64 } }
}
