import CSndFile
import Glibc

/// A loop a sample file names in its instrument chunk (WAV `smpl`, AIFF `INST`): frames `start` up to `end`.
public struct SampleLoop: Sendable, Hashable {
    public enum Mode: Sendable, Hashable { case forward, backward, alternating, none }

    public var mode: Mode
    public var start: Int
    public var end: Int
    /// Times it plays; 0 is for ever.
    public var count: Int

    public init(mode: Mode, start: Int, end: Int, count: Int) { (self.mode, self.start, self.end, self.count) = (mode, start, end, count) }
}

/// What a sample file's headers say, before any frame is read.
public struct SampleFileInfo: Sendable, Hashable {
    public var frames: Int
    public var channels: Int
    public var sampleRate: Int
    /// The container and encoding: "WAV 16-bit", "FLAC 24-bit", "Ogg Vorbis".
    public var format: String
    /// The root key of the instrument chunk, if it has one.
    public var rootKey: Int?
    public var loops: [SampleLoop]

    public init(frames: Int, channels: Int, sampleRate: Int, format: String, rootKey: Int? = nil, loops: [SampleLoop] = []) {
        (self.frames, self.channels, self.sampleRate, self.format, self.rootKey, self.loops) = (frames, channels, sampleRate, format, rootKey, loops)
    }

    /// The memory its frames take as 32-bit floats: frames × channels × 4.
    public var floatBytes: Int { frames.multipliedReportingOverflow(by: channels * 4).overflow ? Int.max : frames * channels * 4 }
}

/// A sample file that cannot be opened or read: the path and libsndfile's reason.
public struct SampleFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) { (self.path, self.reason) = (path, reason) }

    /// "'path': reason".
    public var description: String { "'\(path)': \(reason)" }
}

/// A sample file opened through libsndfile (WAV, FLAC, Ogg Vorbis, AIFF and the rest it reads), read as
/// 32-bit floats, interleaved, whole or a range of frames at a time (for streaming). It blocks on the disk:
/// never use it on the real-time thread.
public final class SampleFile {
    public let path: String
    public let info: SampleFileInfo
    private let handle: OpaquePointer

    /// The most samples (frames × channels) one read returns: 4 GiB of floats. A header that names more
    /// (a damaged or hostile file) is refused rather than allocated.
    public static let maximumSamplesPerRead = 1 << 30

    /// Opens `path` and reads its headers and instrument chunk. Anything but a regular file is refused before
    /// libsndfile sees it (a FIFO would block, a device never end).
    public init(path: String) throws(SampleFileError) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw SampleFileError(path: path, reason: "it is not a regular file")
        }
        var sfInfo = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &sfInfo) else {
            throw SampleFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        guard sfInfo.channels > 0, sfInfo.frames >= 0, sfInfo.samplerate > 0 else {
            sf_close(handle)
            throw SampleFileError(path: path, reason: "its header names \(sfInfo.channels) channels at \(sfInfo.samplerate) Hz")
        }
        self.path = path
        self.handle = handle
        var basenote: Int32 = 0
        let loopCount = backbeat_sf_instrument(handle, &basenote)
        var loops: [SampleLoop] = []
        for i in 0..<max(loopCount, 0) {
            var mode: Int32 = 0
            var start: UInt32 = 0, end: UInt32 = 0, count: UInt32 = 0
            guard backbeat_sf_loop(handle, i, &mode, &start, &end, &count) == 0 else { continue }
            loops.append(SampleLoop(mode: Self.loopMode(mode), start: Int(start), end: Int(end), count: Int(count)))
        }
        info = SampleFileInfo(frames: Int(sfInfo.frames), channels: Int(sfInfo.channels), sampleRate: Int(sfInfo.samplerate),
                              format: Self.formatName(sfInfo.format), rootKey: loopCount >= 0 && basenote > 0 ? Int(basenote) : nil,
                              loops: loops)
    }

    deinit { sf_close(handle) }

    /// The headers of the file at `path` (opened and closed).
    public static func info(path: String) throws(SampleFileError) -> SampleFileInfo { try SampleFile(path: path).info }

    /// All frames, interleaved.
    public func readAll() throws(SampleFileError) -> [Float] { try read(frames: 0..<info.frames) }

    /// The frames in `range` (clamped to the file), interleaved.
    public func read(frames range: Range<Int>) throws(SampleFileError) -> [Float] {
        let start = min(max(range.lowerBound, 0), info.frames)
        let end = min(max(range.upperBound, start), info.frames)
        guard end > start else { return [] }
        guard sf_seek(handle, sf_count_t(start), SEEK_SET) == sf_count_t(start) else {
            throw SampleFileError(path: path, reason: "cannot seek to frame \(start): \(String(cString: sf_strerror(handle)))")
        }
        let wanted = end - start
        guard wanted <= Self.maximumSamplesPerRead / info.channels else {
            throw SampleFileError(path: path, reason: "\(wanted) frames of \(info.channels) channels are more than one read takes (\(Self.maximumSamplesPerRead) samples)")
        }
        var samples = [Float](repeating: 0, count: wanted * info.channels)
        let got = samples.withUnsafeMutableBufferPointer { sf_readf_float(handle, $0.baseAddress, sf_count_t(wanted)) }
        guard got >= 0 else { throw SampleFileError(path: path, reason: String(cString: sf_strerror(handle))) }
        if Int(got) < wanted {
            throw SampleFileError(path: path, reason: "it ends at frame \(start + Int(got)), before the \(info.frames) frames its header names")
        }
        return samples
    }

    private static func loopMode(_ mode: Int32) -> SampleLoop.Mode {
        switch mode {
        case Int32(SF_LOOP_FORWARD): .forward
        case Int32(SF_LOOP_BACKWARD): .backward
        case Int32(SF_LOOP_ALTERNATING): .alternating
        default: .none
        }
    }

    /// "WAV 16-bit" from libsndfile's format word (container in the high bits, encoding in the low).
    static func formatName(_ format: Int32) -> String {
        let containers: [Int32: String] = [
            Int32(SF_FORMAT_WAV): "WAV", Int32(SF_FORMAT_AIFF): "AIFF", Int32(SF_FORMAT_FLAC): "FLAC", Int32(SF_FORMAT_OGG): "Ogg",
            Int32(SF_FORMAT_W64): "W64", Int32(SF_FORMAT_RF64): "RF64", Int32(SF_FORMAT_CAF): "CAF", Int32(SF_FORMAT_WAVEX): "WAVE_FORMAT_EXTENSIBLE",
            Int32(SF_FORMAT_AU): "AU", Int32(SF_FORMAT_RAW): "raw", Int32(SF_FORMAT_MPEG): "MPEG",
        ]
        let encodings: [Int32: String] = [
            Int32(SF_FORMAT_PCM_S8): "8-bit", Int32(SF_FORMAT_PCM_U8): "8-bit unsigned", Int32(SF_FORMAT_PCM_16): "16-bit",
            Int32(SF_FORMAT_PCM_24): "24-bit", Int32(SF_FORMAT_PCM_32): "32-bit", Int32(SF_FORMAT_FLOAT): "32-bit float",
            Int32(SF_FORMAT_DOUBLE): "64-bit float", Int32(SF_FORMAT_VORBIS): "Vorbis", Int32(SF_FORMAT_OPUS): "Opus",
        ]
        let container = containers[format & Int32(SF_FORMAT_TYPEMASK)] ?? "format 0x\(String(format & Int32(SF_FORMAT_TYPEMASK), radix: 16))"
        let encoding = encodings[format & Int32(SF_FORMAT_SUBMASK)] ?? "encoding 0x\(String(format & Int32(SF_FORMAT_SUBMASK), radix: 16))"
        return container + " " + encoding
    }
}
