// The response of a sample voice's filter: SF2 zones are all low-pass; an SFZ region's `fil_type` may choose
// another (docs/sfz.md). Every shape is the one SVF (`svfStep`), its output mixed (`svfMixStep`).

/// A zone's filter response. Low-pass voices play the SVF's low-pass as they always have; the others mix
/// its outputs (`mix(damping:)`), in groups that take the mixing loop (SampleLanes+Shaped.swift).
public enum SampleFilterShape: UInt8, Sendable, BitwiseCopyable, CaseIterable {
    case lowPass = 0, lowPassOnePole, highPass, highPassOnePole, bandPass, bandReject

    /// Whether the shape is a one-pole filter: the SVF at damping 2 (a double pole, one cancelled by the mix).
    @inlinable public var onePole: Bool {
        @_noLocks get { self == .lowPassOnePole || self == .highPassOnePole }
    }

    /// `svfMixStep`'s weights of the input, the band-pass and the low-pass for damping `k` (1/Q).
    @_noLocks @inlinable
    public func mix(damping k: Float) -> (input: Float, band: Float, low: Float) {
        switch self {
        case .lowPass: return (0, 0, 1)
        case .lowPassOnePole: return (0, 1, 1)
        case .highPass: return (2, -k, -1)
        case .highPassOnePole: return (2, -1, -1)
        case .bandPass: return (0, k, 0)
        case .bandReject: return (2, -k, 0)
        }
    }
}
