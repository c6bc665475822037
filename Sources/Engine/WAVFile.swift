// WAV files: 32-bit IEEE float stereo, written atomically (temporary file in the same directory, then
// rename), so a failed render never leaves a partial file behind.
import Foundation

/// Errors of `WAVFile`, each naming the file and what went wrong.
public struct WAVFileError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

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
    public static let headerSize = 58
    /// Offsets of the sizes a streaming writer patches when it closes (RIFF size, fact frames, data size).
    public static let riffSizeOffset = 4, factFramesOffset = 46, dataSizeOffset = 54

    /// The header of a file of `frames` stereo float frames (`headerSize` bytes).
    public static func header(frames: Int, sampleRate: Int) -> [UInt8] {
        let dataBytes = frames * 8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize)
        func append32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        func append16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        func tag(_ s: String) { bytes += Array(s.utf8) }
        tag("RIFF"); append32(UInt32(truncatingIfNeeded: 4 + 26 + 12 + 8 + dataBytes)); tag("WAVE")
        tag("fmt "); append32(18)
        append16(3)                          // WAVE_FORMAT_IEEE_FLOAT
        append16(2)                          // channels
        append32(UInt32(sampleRate))
        append32(UInt32(sampleRate * 8))     // bytes per second
        append16(8)                          // block align
        append16(32)                         // bits per sample
        append16(0)                          // cbSize
        tag("fact"); append32(4); append32(UInt32(truncatingIfNeeded: frames)) // required for non-PCM formats
        tag("data"); append32(UInt32(truncatingIfNeeded: dataBytes))
        assert(bytes.count == headerSize)
        return bytes
    }

    /// Writes the file completely or not at all: a temporary file next to `path`, then `rename(2)`.
    public static func write(left: [Float], right: [Float], sampleRate: Int, to path: String) throws(WAVFileError) {
        let bytes = encode(left: left, right: right, sampleRate: sampleRate)
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        func failure(_ call: String) -> WAVFileError {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return WAVFileError("cannot write '\(path)': \(reason) (\(call))")
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw WAVFileError("cannot write '\(path)': \(String(cString: strerror(errno))) (open)") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { close(fd); throw failure("write") }
            written += n
        }
        guard fsync(fd) == 0 else { close(fd); throw failure("fsync") }
        guard close(fd) == 0 else { throw failure("close") }
        guard rename(temporary, path) == 0 else { throw failure("rename") }
    }

    /// Reads a file written by `write` (stereo 32-bit float): for tests and round trips.
    public static func read(_ path: String) throws(WAVFileError) -> (left: [Float], right: [Float], sampleRate: Int) {
        guard let data = FileManager.default.contents(atPath: path) else { throw WAVFileError("cannot read \(path)") }
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
            throw WAVFileError("\(path) is not a WAV file")
        }
        var at = 12
        var rate = 0, format: UInt16 = 0, channels: UInt16 = 0, bits: UInt16 = 0
        while at + 8 <= bytes.count {
            let size = Int(u32(at + 4))
            let body = at + 8
            guard body + size <= bytes.count else { throw WAVFileError("\(path): truncated chunk") }
            if bytes[at..<at + 4].elementsEqual("fmt ".utf8) {
                format = u16(body); channels = u16(body + 2); rate = Int(u32(body + 4)); bits = u16(body + 14)
            } else if bytes[at..<at + 4].elementsEqual("data".utf8) {
                guard format == 3, channels == 2, bits == 32 else {
                    throw WAVFileError("\(path): not stereo 32-bit float")
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
        throw WAVFileError("\(path): no data chunk")
    }

    static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}
