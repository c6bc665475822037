import MIDI

extension StandardMIDIFile {
    /// Seconds from the start at which bar `bar` (1 is the first) begins: bars through the time signatures
    /// (4/4 until the first; a signature takes effect at its tick, which starts a bar), seconds through the
    /// tempo map. Nil for a file timed in SMPTE frames, which has no bars, and for a bar below 1.
    public func seconds(atBar bar: Int) -> Double? {
        guard case .ticksPerQuarterNote(let tpq) = division, bar >= 1, tpq > 0 else { return nil }
        let events = timedEvents()
        let quarter = UInt64(tpq)
        var signatureTick: UInt64 = 0, signatureBar = 1, ticksPerBar = quarter * 4
        for event in events {
            guard case .meta(let meta) = event.event, meta.type == 0x58, meta.data.count >= 2, meta.data[0] > 0, meta.data[1] < 8 else {
                continue
            }
            let elapsed = Int((event.tick - signatureTick + ticksPerBar - 1) / ticksPerBar)
            if signatureBar + elapsed > bar { break }
            signatureBar += elapsed
            signatureTick = event.tick
            ticksPerBar = max((quarter * 4 * UInt64(meta.data[0])) >> UInt64(meta.data[1]), 1)
        }
        let tick = signatureTick + UInt64(bar - signatureBar) * ticksPerBar
        var segmentTick: UInt64 = 0, segmentSeconds = 0.0, tempo = Double(Self.defaultMicrosecondsPerQuarterNote)
        for event in events where event.tick <= tick {
            if case .meta(let meta) = event.event, let microseconds = meta.tempo {
                segmentTick = event.tick
                segmentSeconds = event.seconds
                tempo = Double(microseconds)
            }
        }
        return segmentSeconds + Double(tick - segmentTick) * tempo / 1_000_000 / Double(tpq)
    }
}
