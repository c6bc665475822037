/// What controllers do to a zone's volume, amplitude and pan while its note sounds (SFZ's `volume_onccN`,
/// `amplitude_onccN`, `pan_onccN`, each through its curve): up to `capacity` entries of a controller, a target,
/// an amount and a curve (0...127 to a factor). As sfizz combines them: the volume's dB and the pan's percent
/// added, the amplitude's shares multiplied (silent where one is 0, upside down where their product is below 0). Worked out with the controller
/// crossfades, at the note-on and whenever the channel's controllers change (`Synth.controllerLevels`).
public struct SampleZoneControllerLevels: BitwiseCopyable, Equatable {
    public static var capacity: Int { @_noLocks get { 4 } }
    /// Targets: dB added to the volume, a share (1 = 100 %) of the amplitude, percent of pan (-100 left).
    public static var volume: UInt8 { @_noLocks get { 0 } }
    public static var amplitude: UInt8 { @_noLocks get { 1 } }
    public static var pan: UInt8 { @_noLocks get { 2 } }

    public private(set) var count: UInt8 = 0
    private var controllers = InlineArray<4, UInt8>(repeating: 0)
    private var targets = InlineArray<4, UInt8>(repeating: 0)
    private var amounts = InlineArray<4, Float>(repeating: 0)
    private var curves = InlineArray<4, SampleZoneCurve>(repeating: SampleZoneCurve())

    public init() {}

    /// Adds `controller`'s effect on `target` (`amount` times `curve` at its value); false, nothing added, when
    /// `capacity` are there.
    public mutating func add(controller: UInt8, target: UInt8, amount: Float, curve: SampleZoneCurve) -> Bool {
        guard Int(count) < Self.capacity else { return false }
        let i = Int(count)
        (controllers[i], targets[i], amounts[i], curves[i]) = (controller & 0x7F, target, amount, curve)
        count += 1
        return true
    }

    /// The gain factor (volume and amplitude) and the pan offset (percent) at the values `controllers` (a
    /// channel's 128) holds.
    @_noLocks
    public func evaluate(_ values: UnsafePointer<UInt8>) -> (gain: Float, pan: Float) {
        var decibels: Float = 0, share: Float = 1, pan: Float = 0
        for i in 0..<Int(count) {
            let y = amounts[i] * curves[i].value(at: values[Int(controllers[i])])
            switch targets[i] {
            case Self.volume: decibels += y
            case Self.amplitude: share *= y // below 0: the wave upside down, as sfizz plays it
            default: pan += y
            }
        }
        return ((decibels == 0 ? 1 : FastMath.linear(decibels: decibels)) * share, pan)
    }

    public static func == (a: SampleZoneControllerLevels, b: SampleZoneControllerLevels) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<Int(a.count) where a.controllers[i] != b.controllers[i] || a.targets[i] != b.targets[i]
            || a.amounts[i] != b.amounts[i] || a.curves[i] != b.curves[i] {
            return false
        }
        return true
    }
}
