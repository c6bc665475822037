import MIDI

/// A file's bars and tempo map, read once: where each bar starts in seconds, and which bar sounds at a time.
/// Bars follow the time signatures (4/4 until the first; a signature takes effect at its tick, which starts a
/// bar); seconds follow the tempo map, as `StandardMIDIFile.timedEvents` does.
public struct BarClock: Sendable, Equatable {
    struct Signature: Sendable, Equatable { var tick: UInt64, bar: Int, ticksPerBar: UInt64, ticksPerBeat: UInt64 }
    struct Tempo: Sendable, Equatable { var tick: UInt64, seconds: Double, microseconds: Double }
    let ticksPerQuarter: Double
    let signatures: [Signature]
    let tempos: [Tempo]

    /// Nil for a file timed in SMPTE frames, which has no bars.
    public init?(_ file: StandardMIDIFile) {
        guard case .ticksPerQuarterNote(let tpq) = file.division, tpq > 0 else { return nil }
        ticksPerQuarter = Double(tpq)
        let quarter = UInt64(tpq)
        var signatures = [Signature(tick: 0, bar: 1, ticksPerBar: quarter * 4, ticksPerBeat: quarter)]
        var tempos = [Tempo(tick: 0, seconds: 0, microseconds: Double(StandardMIDIFile.defaultMicrosecondsPerQuarterNote))]
        for event in file.timedEvents() {
            guard case .meta(let meta) = event.event else { continue }
            if let microseconds = meta.tempo {
                tempos.append(Tempo(tick: event.tick, seconds: event.seconds, microseconds: Double(microseconds)))
            } else if meta.type == 0x58, meta.data.count >= 2, meta.data[0] > 0, meta.data[1] < 8 {
                let last = signatures[signatures.count - 1]
                let elapsed = Int((event.tick - last.tick + last.ticksPerBar - 1) / last.ticksPerBar)
                let ticksPerBar = max((quarter * 4 * UInt64(meta.data[0])) >> UInt64(meta.data[1]), 1)
                let ticksPerBeat = max((quarter * 4) >> UInt64(meta.data[1]), 1)
                signatures.append(Signature(tick: event.tick, bar: last.bar + elapsed, ticksPerBar: ticksPerBar, ticksPerBeat: ticksPerBeat))
            }
        }
        self.signatures = signatures
        self.tempos = tempos
    }

    /// Seconds from the start at which bar `bar` (1 is the first) begins; nil below 1.
    public func seconds(atBar bar: Int) -> Double? {
        guard bar >= 1 else { return nil }
        let signature = signatures.last { $0.bar <= bar } ?? signatures[0]
        let tick = signature.tick + UInt64(bar - signature.bar) * signature.ticksPerBar
        let tempo = tempos.last { $0.tick <= tick } ?? tempos[0]
        return tempo.seconds + Double(tick - tempo.tick) * tempo.microseconds / 1_000_000 / ticksPerQuarter
    }

    /// The bar (1 is the first) sounding `seconds` from the start.
    public func bar(at seconds: Double) -> Int { place(at: seconds).bar }

    /// The bar (1 is the first) and beat (1 is the first, with its fraction; a beat is the time signature's
    /// denominator) sounding `seconds` from the start.
    public func place(at seconds: Double) -> (bar: Int, beat: Double) {
        let tempo = tempos.last { $0.seconds <= seconds } ?? tempos[0]
        let ticks = max(seconds - tempo.seconds, 0) * 1_000_000 / tempo.microseconds * ticksPerQuarter
        let exact = Double(tempo.tick) + (ticks.isFinite ? min(ticks, 1e15) : 0)
        let tick = UInt64(exact)
        let signature = signatures.last { $0.tick <= tick } ?? signatures[0]
        let inBar = (tick - signature.tick) % signature.ticksPerBar
        let fraction = exact - Double(tick)
        return (signature.bar + Int((tick - signature.tick) / signature.ticksPerBar),
                1 + (Double(inBar) + fraction) / Double(signature.ticksPerBeat))
    }

    /// The time signature at `seconds` (numerator, denominator), 4/4 before the first.
    public func signature(at seconds: Double) -> (numerator: Int, denominator: Int) {
        let tempo = tempos.last { $0.seconds <= seconds } ?? tempos[0]
        let ticks = max(seconds - tempo.seconds, 0) * 1_000_000 / tempo.microseconds * ticksPerQuarter
        let tick = tempo.tick + UInt64(ticks.isFinite ? min(ticks, 1e15) : 0)
        let signature = signatures.last { $0.tick <= tick } ?? signatures[0]
        return (Int(signature.ticksPerBar / signature.ticksPerBeat), Int(ticksPerQuarter * 4) / Int(signature.ticksPerBeat))
    }

    /// The tempo at `seconds` in beats (quarter notes) a minute.
    public func bpm(at seconds: Double) -> Double {
        let tempo = tempos.last { $0.seconds <= seconds } ?? tempos[0]
        return 60_000_000 / tempo.microseconds
    }
}

extension StandardMIDIFile {
    /// Seconds from the start at which bar `bar` (1 is the first) begins (`BarClock`). Nil for a file timed in
    /// SMPTE frames, which has no bars, and for a bar below 1.
    public func seconds(atBar bar: Int) -> Double? { BarClock(self)?.seconds(atBar: bar) }
}
