#if canImport(Glibc)
import Glibc
import OSCall
import SystemPackage
#endif

// The one thing the loader reads of an Ogg stream itself: how many frames it decodes to, from its last page's
// granule position, so that a SoundFont 3 font can reserve room for every sample without decoding any.

enum OggPages {
    /// The granule position (for Vorbis: the frames decoded up to the end of the page) of the last Ogg page
    /// in `range` (file offsets) that has one, or nil when the range holds no Ogg page with a position.
    /// A font loaded from a file reads the stream's tail with pread rather than through the mapping, so
    /// that the scan leaves no sample pages resident (a mapped read maps the pages around it too); it reads
    /// 16 KiB, then 128 KiB, then the whole stream until it finds a page.
    static func lastGranule(_ r: RIFFReader, _ range: Range<Int>) -> Int? {
        guard range.lowerBound >= 0, range.upperBound <= r.count, range.count >= 27 else { return nil }
        guard r.descriptor >= 0 else {
            return lastGranule(in: UnsafeRawBufferPointer(rebasing: r.bytes[range]))
        }
        var window = min(range.count, 16 << 10)
        while true {
            let memory = FixedArray<UInt8>(zeroed: window)
            let buffer = UnsafeMutableRawBufferPointer(start: memory.rawAddress, count: window)
            let done = (try? FileDescriptor(rawValue: r.descriptor)
                .readAll(fromAbsoluteOffset: Int64(range.upperBound - window), into: buffer)) ?? 0
            // A short read or a failed one (the file changed under us): scan the mapping instead.
            if done < window { return lastGranule(in: UnsafeRawBufferPointer(rebasing: r.bytes[range])) }
            if let found = lastGranule(in: UnsafeRawBufferPointer(buffer)) { return found }
            if window == range.count { return nil }
            window = window < 128 << 10 ? min(range.count, 128 << 10) : range.count
        }
    }

    /// The scan itself over `bytes` (a stream, or its tail): backwards for the capture pattern "OggS" with
    /// stream structure version 0 and a page header that fits, whose granule position is not -1.
    static func lastGranule(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 27 else { return nil }
        @inline(__always) func u32(_ o: Int) -> UInt64 {
            UInt64(bytes[o]) | UInt64(bytes[o + 1]) << 8 | UInt64(bytes[o + 2]) << 16 | UInt64(bytes[o + 3]) << 24
        }
        var p = bytes.count - 27
        while p >= 0 {
            if bytes[p] == 0x4F && bytes[p + 1] == 0x67 && bytes[p + 2] == 0x67 && bytes[p + 3] == 0x53 && bytes[p + 4] == 0,
               p + 27 + Int(bytes[p + 26]) <= bytes.count {
                let granule = Int64(bitPattern: u32(p + 10) << 32 | u32(p + 6))
                if granule >= 0 { return Int(granule) }  // -1: no packet ends on this page
            }
            p -= 1
        }
        return nil
    }
}
