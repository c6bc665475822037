import DSP
import Engine
import Foundation

/// What one output channel's meter shows, in dBFS (-infinity for silence).
public struct MeterReadout: Equatable, Sendable {
    public var peakDB: Float
    public var rmsDB: Float
    public var holdDB: Float
    /// Lit once a sample reached full scale, until reset.
    public var clip: Bool
    public init(peakDB: Float = -.infinity, rmsDB: Float = -.infinity, holdDB: Float = -.infinity, clip: Bool = false) {
        self.peakDB = peakDB; self.rmsDB = rmsDB; self.holdDB = holdDB; self.clip = clip
    }
}

/// The loudness line: nil shows "--" (not measured yet).
public struct LoudnessReadout: Equatable, Sendable {
    public var momentaryLUFS: Float?
    public var shortTermLUFS: Float?
    public var integratedLUFS: Float?
    public var truePeakDB: Float?
    public init(momentaryLUFS: Float? = nil, shortTermLUFS: Float? = nil, integratedLUFS: Float? = nil, truePeakDB: Float? = nil) {
        self.momentaryLUFS = momentaryLUFS; self.shortTermLUFS = shortTermLUFS
        self.integratedLUFS = integratedLUFS; self.truePeakDB = truePeakDB
    }
}

/// The meters panel's figures from the DSP meters (`MeterState`: ballistics, hold, clip latch, LUFS,
/// true peak), fed with the engine's per-period blocks on the UI thread.
public struct LiveMeters {
    public private(set) var state = MeterState()
    public init() {}

    /// One period's figures, in order.
    public mutating func consume(_ block: PeriodMeasure, sampleRate: Int) { state.consume(block, sampleRate: sampleRate) }
    /// Lets wall-clock time pass (peak fall, hold expiry): `now` in monotonic seconds.
    public mutating func advance(to now: Double) { state.advance(to: now) }
    /// Switches the clip lamps off (the real latch).
    public mutating func resetClip() { state.resetClip() }

    public var channels: [MeterReadout] {
        state.readout.channels.map {
            MeterReadout(peakDB: Float(Self.shown($0.peakDB)), rmsDB: Float(Self.shown($0.rmsDB)),
                         holdDB: Float(Self.shown($0.holdDB)), clip: $0.clipped)
        }
    }

    public var loudness: LoudnessReadout {
        let r = state.readout
        guard r.measuredSeconds > 0 else { return LoudnessReadout() }
        // Below the absolute gate (-70 LUFS) a loudness is not measured (BS.1770): "--", not "M -261.4".
        func lufs(_ v: Double) -> Float? { v.isFinite && v >= LoudnessMeter.absoluteGateLUFS ? Float(v) : nil }
        return LoudnessReadout(momentaryLUFS: lufs(r.momentaryLUFS), shortTermLUFS: lufs(r.shortTermLUFS),
                               integratedLUFS: lufs(r.integratedLUFS), truePeakDB: Float(Self.shown(r.truePeakDB)))
    }

    /// The highest level of the two channels' peaks (dBFS), for the lifecycle panel's "audible" test.
    public var loudestPeakDB: Float { channels.map(\.peakDB).max() ?? -.infinity }

    /// Below the meters' floor reads as silence.
    static func shown(_ db: Double) -> Double { db < MeterState.floorDB + 1 ? -.infinity : db }
}
