// WAV files: 32-bit IEEE float stereo, written atomically (temporary file in the same directory, then
// rename), so a failed render never leaves a partial file behind. Files whose data passes 4 GiB are RF64
// (EBU Tech 3306), the 64-bit form of WAV that sox, ffmpeg and most audio editors read.
import Foundation
import SystemPackage

/// A stereo WAV file of 32-bit float samples (WAVE_FORMAT_IEEE_FLOAT, format tag 3).
public enum WAVFile {
    /// The complete file bytes for planar stereo samples (the channels must be equally long).
    public static func encode(left: [Float], right: [Float], sampleRate: Int) -> [UInt8] {
        precondition(left.count == right.count)
        let frames = left.count
        var bytes = header(frames: frames, sampleRate: sampleRate)
        bytes.reserveCapacity(headerSize + frames * 8)
        func append32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        for i in 0..<frames {
            append32(left[i].bitPattern)
            append32(right[i].bitPattern)
        }
        return bytes
    }

    /// Bytes before the samples; the data of `frames` interleaved frames follows at this offset.
    public static let headerSize = 94
    /// Offsets of the sizes a streaming writer patches when it closes (fact frames, data size; the RIFF size
    /// is at 4).
    public static let factFramesOffset = 82, dataSizeOffset = 90
    /// The largest RIFF size (file size - 8) a plain WAV header holds; above it the file is RF64. 0xFFFFFFFF
    /// itself means "see ds64" in RF64, so plain WAV stops one short of it.
    public static let plainWAVLimit = Int(UInt32.max) - 1
    /// The data size of a stream whose length is not known when the header is written (sox's convention).
    public static let unspecifiedDataSize = 0x7FFF_F000

    /// The header of a file of `frames` stereo float frames (`headerSize` bytes): a plain WAV (RIFF) while
    /// its RIFF size is at most `rf64Above` bytes, RF64 (EBU Tech 3306) above, with the same layout so a
    /// streaming writer can switch when it patches the header at the end. The chunk after the RIFF header
    /// is a JUNK chunk holding ds64's place in a plain WAV, the ds64 chunk (64-bit sizes) in RF64.
    /// `frames` nil: the length is unknown (the output cannot seek, a pipe): the sizes are sox's "unspecified"
    /// ones (data 0x7FFFF000 bytes), which sox reads to the end of the stream without a warning.
    public static func header(frames: Int?, sampleRate: Int, rf64Above: Int = plainWAVLimit) -> [UInt8] {
        let dataBytes = frames.map { $0 * 8 } ?? unspecifiedDataSize
        let riffSize = headerSize - 8 + dataBytes
        let rf64 = frames != nil && riffSize > rf64Above
        let unknown: UInt32 = 0xFFFF_FFFF
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize)
        func append64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        func append32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        func append16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        func tag(_ s: String) { bytes += Array(s.utf8) }
        func size32(_ value: Int) -> UInt32 { rf64 ? unknown : UInt32(value) }
        tag(rf64 ? "RF64" : "RIFF"); append32(size32(riffSize)); tag("WAVE")
        tag(rf64 ? "ds64" : "JUNK"); append32(28)
        if rf64 {
            append64(UInt64(riffSize)); append64(UInt64(dataBytes)); append64(UInt64(frames!))
            append32(0)                      // no table of other 64-bit chunk sizes
        } else {
            bytes += [UInt8](repeating: 0, count: 28)
        }
        tag("fmt "); append32(18)
        append16(3)                          // WAVE_FORMAT_IEEE_FLOAT
        append16(2)                          // channels
        append32(UInt32(sampleRate))
        append32(UInt32(sampleRate * 8))     // bytes per second
        append16(8)                          // block align
        append16(32)                         // bits per sample
        append16(0)                          // cbSize
        tag("fact"); append32(4); append32(size32(dataBytes / 8)) // required for non-PCM formats
        tag("data"); append32(size32(dataBytes))
        assert(bytes.count == headerSize)
        return bytes
    }

    /// Writes the file completely or not at all: a temporary file next to `path`, then `rename(2)` (a device
    /// or FIFO is written directly; see `OutputFile`).
    public static func write(left: [Float], right: [Float], sampleRate: Int, to path: String) throws(SystemError) {
        try OutputFile.write(encode(left: left, right: right, sampleRate: sampleRate), to: path)
    }

    /// Reads a file written by `write` (stereo 32-bit float): for tests and round trips.
    public static func read(_ path: String) throws(SystemError) -> (left: [Float], right: [Float], sampleRate: Int) {
        let bytes: [UInt8]
        do throws(ReadFailure) { bytes = try SystemCall.readFile(path, limit: ReadLimit.wav, what: "a WAV file read whole") } catch { throw SystemError("cannot read \(path)", error) }
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u64(_ at: Int) -> Int { Int(u32(at)) | Int(u32(at + 4)) << 32 }
        let rf64 = bytes.count >= 4 && bytes[0..<4].elementsEqual("RF64".utf8)
        guard bytes.count >= 12, rf64 || bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
            throw SystemError("\(path) is not a WAV file")
        }
        var at = 12
        var rate = 0, format: UInt16 = 0, channels: UInt16 = 0, bits: UInt16 = 0
        var dataSize64: Int?
        while at + 8 <= bytes.count {
            var size = Int(u32(at + 4))
            let body = at + 8
            let isData = bytes[at..<at + 4].elementsEqual("data".utf8)
            if isData && size == 0xFFFF_FFFF, let dataSize64 {
                size = min(dataSize64, bytes.count - body)  // RF64: the size is in ds64
            } else if isData && (size == unspecifiedDataSize || size == 0xFFFF_FFFF) {
                size = min(size, bytes.count - body)  // a stream of unknown length: to its end
            }
            guard body + size <= bytes.count else { throw SystemError("\(path): truncated chunk") }
            if rf64 && bytes[at..<at + 4].elementsEqual("ds64".utf8) && size >= 24 {
                dataSize64 = u64(body + 8)
            } else if bytes[at..<at + 4].elementsEqual("fmt ".utf8) {
                format = u16(body); channels = u16(body + 2); rate = Int(u32(body + 4)); bits = u16(body + 14)
            } else if bytes[at..<at + 4].elementsEqual("data".utf8) {
                guard format == 3, channels == 2, bits == 32 else {
                    throw SystemError("\(path): not stereo 32-bit float")
                }
                var left: [Float] = [], right: [Float] = []
                left.reserveCapacity(size / 8); right.reserveCapacity(size / 8)
                var i = body
                while i + 8 <= body + size {
                    left.append(Float(bitPattern: u32(i)))
                    right.append(Float(bitPattern: u32(i + 4)))
                    i += 8
                }
                return (left, right, rate)
            }
            at = body + size + (size & 1)
        }
        throw SystemError("\(path): no data chunk")
    }
}
