import DSP

// `count`: a one-shot region's sample played that many times, then the voice ends, as sfizz plays it (each pass
// but the last jumps back from the sample's last frame to its first, so leaves the last frame out). The voices
// have no pass counter; the passes are written out as one sample at load (`SFZSampleData.appendRepeated`), so
// they play sample for sample as one long one-shot.

extension SFZRegion {
    /// The most frames a region's passes written out may take (about 33 MB of 16-bit frames and low bytes):
    /// a longer one plays once, said.
    static let repeatedFramesLimit = 1 << 23

    /// How many passes the region's sample plays: its `count` when it is a one-shot (sfizz ignores a count on
    /// a looping region), else 1.
    var passes: Int {
        guard let count, count > 1, loopMode == .oneShot else { return 1 }
        return count
    }

    /// The span the region plays for one channel: `span` itself, or its passes written out into `data` (then
    /// the region's `offset` and `end` are in it, and `cut` says so). Generators, streamed instruments and
    /// passes over `repeatedFramesLimit` frames play once, said.
    func repeatedSpan(_ span: SFZSampleData.Span, generated: Bool, data: inout SFZSampleData,
                      notes: inout SFZNotes) -> (span: SFZSampleData.Span, cut: Bool) {
        let passes = passes
        guard passes > 1 else { return (span, false) }
        if generated {
            notes.add("count on a generator (ignored: it loops)")
            return (span, false)
        }
        if data.stream != nil {
            notes.add("count in an instrument streamed from disk (played once)")
            return (span, false)
        }
        let first = min(offset, span.frames)
        let last = min(end.map { $0 + 1 } ?? span.frames, span.frames)
        guard last - first > 1 else { return (span, false) }
        guard (last - first) * passes <= Self.repeatedFramesLimit else {
            notes.add("count over more than \(Self.repeatedFramesLimit) frames in all (played once)")
            return (span, false)
        }
        return (data.appendRepeated(span, first: first, last: last, times: passes), true)
    }
}

extension SFZSampleData {
    /// Frames `first..<last` of `span` played `times` times as one sample, as sfizz's `count` plays them: each
    /// pass but the last stops before frame `last - 1` (sfizz jumps back from it to `first`), the last plays it.
    mutating func appendRepeated(_ span: Span, first: Int, last: Int, times: Int) -> Span {
        let pass = last - 1 - first
        let count = pass * times + 1
        let start = frames.extend(by: count + Self.padding)
        let h = frames.high, l = frames.low
        let from = span.start + first
        for t in 0..<times {
            (h + start + t * pass).update(from: h + from, count: pass)
            (l + start + t * pass).update(from: l + from, count: pass)
        }
        h[start + count - 1] = h[from + pass]
        l[start + count - 1] = l[from + pass]
        (h + start + count).initialize(repeating: 0, count: Self.padding)
        (l + start + count).initialize(repeating: 0, count: Self.padding)
        return Span(start: start, frames: count)
    }
}
