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

/// Turns the engine's per-period meter blocks into what the meters panel shows. The DSP meters (ballistics,
/// LUFS, true peak) plug in here; `PlaceholderMeters` is a plain peak/RMS stand-in.
public protocol MeterProcessor {
    /// One period's figures, in order, on the UI thread.
    mutating func consume(_ block: MeterBlock, sampleRate: Int)
    /// Advances time-based behaviour (hold, fall) to `now` (seconds, monotonic).
    mutating func advance(to now: Double)
    var channels: [MeterReadout] { get }
    var loudness: LoudnessReadout { get }
    mutating func resetClip()
}

/// Peak of the last UI frame with a 20 dB/s fall, RMS over the last ~300 ms, a 2 s peak hold, clip at 0 dBFS.
public struct PlaceholderMeters: MeterProcessor {
    public private(set) var channels = [MeterReadout(), MeterReadout()]
    public var loudness = LoudnessReadout()
    private var framePeak: [Float] = [0, 0]
    private var squares: [Double] = [0, 0]
    private var frames: Double = 0
    private var rmsWindow: [(squares: [Double], frames: Double)] = []
    private var holdSince: [Double] = [0, 0]
    private var lastAdvance: Double?

    public init() {}

    public static func decibels(_ linear: Float) -> Float { linear > 0 ? 20 * log10(linear) : -.infinity }

    public mutating func consume(_ block: MeterBlock, sampleRate: Int) {
        framePeak[0] = max(framePeak[0], block.peakLeft)
        framePeak[1] = max(framePeak[1], block.peakRight)
        squares[0] += Double(block.sumSquaresLeft)
        squares[1] += Double(block.sumSquaresRight)
        frames += Double(block.frames)
    }

    public mutating func advance(to now: Double) {
        let elapsed = lastAdvance.map { max(0, now - $0) } ?? 0
        lastAdvance = now
        rmsWindow.append((squares, frames))
        if rmsWindow.count > 10 { rmsWindow.removeFirst(rmsWindow.count - 10) }
        let windowFrames = rmsWindow.reduce(0) { $0 + $1.frames }
        for c in 0..<2 {
            var readout = channels[c]
            let peak = Self.decibels(framePeak[c])
            let fallen = readout.peakDB - Float(elapsed) * 20
            readout.peakDB = max(peak, fallen < -100 ? -.infinity : fallen)
            let sum = rmsWindow.reduce(0) { $0 + $1.squares[c] }
            readout.rmsDB = windowFrames > 0 ? Self.decibels(Float((sum / windowFrames).squareRoot())) : -.infinity
            if peak >= readout.holdDB || now - holdSince[c] > 2 {
                readout.holdDB = peak
                holdSince[c] = now
            }
            if framePeak[c] >= 1 { readout.clip = true }
            channels[c] = readout
        }
        framePeak = [0, 0]
        squares = [0, 0]
        frames = 0
    }

    public mutating func resetClip() {
        for c in channels.indices { channels[c].clip = false; channels[c].holdDB = -.infinity }
    }
}
