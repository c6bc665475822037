// The one thing the loader reads of an Ogg stream itself: how many frames it decodes to, from its last page's
// granule position, so that a SoundFont 3 font can reserve room for every sample without decoding any.

enum OggPages {
    /// The granule position (for Vorbis: the frames decoded up to the end of the page) of the last Ogg page
    /// in `range` that has one, or nil when the range holds no Ogg page with a position. Scans backwards for
    /// the capture pattern "OggS" with stream structure version 0 and a page header that fits.
    static func lastGranule(_ r: RIFFReader, _ range: Range<Int>) -> Int? {
        guard range.lowerBound >= 0, range.upperBound <= r.count, range.count >= 27 else { return nil }
        var p = range.upperBound - 27
        while p >= range.lowerBound {
            if r.u8(p) == 0x4F && r.u8(p + 1) == 0x67 && r.u8(p + 2) == 0x67 && r.u8(p + 3) == 0x53 && r.u8(p + 4) == 0,
               p + 27 + Int(r.u8(p + 26)) <= range.upperBound {
                let low = UInt64(r.u32(p + 6)), high = UInt64(r.u32(p + 10))
                let granule = Int64(bitPattern: high << 32 | low)
                if granule >= 0 { return Int(granule) }  // -1: no packet ends on this page
            }
            p -= 1
        }
        return nil
    }
}
