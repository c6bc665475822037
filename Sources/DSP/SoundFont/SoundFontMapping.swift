// Loading: the file is mapped read-only (open, fstat, mmap from Glibc; no Foundation), parsed and resolved;
// the font's `sampleData` points into the mapping, so the sample data costs resident memory only for the
// pages a voice reads. The mapping is private and read-only: the font never writes it. (As with any mapped
// file, truncating the file while the font is loaded would make reading the lost pages fault.)

#if canImport(Glibc)
import Glibc
#endif
import OSCall
import SystemPackage

extension SoundFont {
    /// Loads the SoundFont 2 or 3 file at `path`: every structural problem is a `SoundFontError` naming the file,
    /// the chunk and the byte offset. The sample data is mapped, not read.
    public static func load(path: String) throws(SoundFontError) -> SoundFont {
        func failure(_ what: String, _ error: Errno) -> SoundFontError {
            SoundFontError(path: path, chunk: "", offset: 0, reason: "\(what): \(SystemError.reason(error))")
        }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
        } catch {
            throw failure("cannot open", error as? Errno ?? .ioError)
        }
        defer { try? file.close() }
        let fd = file.rawValue
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("cannot stat", .last) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SoundFontError(path: path, chunk: "", offset: 0, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size >= 12 else {
            throw SoundFontError(path: path, chunk: "RIFF", offset: 0,
                                 reason: "not a RIFF file: \(size) bytes, too short for a RIFF header")
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw failure("cannot map the file", .last)
        }
        let bytes = UnsafeRawBufferPointer(start: base, count: size)
        let address = UInt(bitPattern: base)
        return try make(path: path, bytes: bytes, descriptor: fd) { munmap(UnsafeMutableRawPointer(bitPattern: address), size) }
    }

    /// Loads a font from bytes in memory (tests, fuzzing): the bytes are copied once, and the font's sample
    /// data points into that copy, which the font keeps. `path` only names the font in errors.
    public static func load(bytes: some Collection<UInt8>, path: String = "<memory>") throws(SoundFontError) -> SoundFont {
        let held = HeldBytes(bytes.count)
        UnsafeMutableRawBufferPointer(start: held.base, count: bytes.count).copyBytes(from: bytes)
        return try make(path: path, bytes: UnsafeRawBufferPointer(start: held.base, count: bytes.count)) {
            withExtendedLifetime(held) {}
        }
    }

    /// Parses and resolves `bytes` (which stay valid until `releaseBytes` is called); on error the bytes are
    /// released before the error is thrown.
    static func make(path: String, bytes: UnsafeRawBufferPointer, descriptor: Int32 = -1,
                     releaseBytes: @escaping @Sendable () -> Void) throws(SoundFontError) -> SoundFont {
        let parsed: ParsedSoundFont
        let resolved: ResolvedSoundFont
        do {
            parsed = try SoundFontParser.parse(RIFFReader(bytes: bytes, path: path, descriptor: descriptor))
            resolved = try SoundFontResolver.resolve(parsed, path: path)
        } catch {
            releaseBytes()
            throw error
        }
        if parsed.isCompressed {
            // SoundFont 3: the samples are decoded on demand into the store's slots (SoundFontSampleStore.swift);
            // the store keeps the file's bytes.
            var headers = parsed.samples
            let store = try SoundFontSampleStore(parsed: parsed, samples: &headers, file: bytes, path: path,
                                                 limitBytes: SoundFontSampleStore.defaultLimitBytes,
                                                 releaseFile: releaseBytes)
            return SoundFont(path: path, name: parsed.name, presets: resolved.presets, zones: resolved.zones,
                             modulators: resolved.modulators, samples: headers,
                             sampleData: UnsafeBufferPointer(start: store.region, count: store.regionFrames),
                             sampleLowBytes: nil, sampleNames: parsed.sampleNames, sampleStore: store)
        }

        // 16-bit frames straight from the file when smpl is aligned (it always is in a valid file: chunks
        // start at even offsets and the mapping at a page); a misaligned smpl is copied.
        let frames = parsed.smpl.count / 2
        var copiedFrames: HeldBytes?
        let sampleData: UnsafeBufferPointer<Int16>
        let smplStart = bytes.baseAddress.map { $0 + parsed.smpl.lowerBound }
        if let smplStart, Int(bitPattern: smplStart) % MemoryLayout<Int16>.alignment == 0 {
            sampleData = UnsafeBufferPointer(start: smplStart.assumingMemoryBound(to: Int16.self), count: frames)
        } else {
            let held = HeldBytes(frames * 2)
            let copy = held.base.bindMemory(to: Int16.self, capacity: max(frames, 1))
            for i in 0 ..< frames {
                let o = parsed.smpl.lowerBound + 2 * i
                copy[i] = Int16(bitPattern: UInt16(bytes[o]) | UInt16(bytes[o + 1]) << 8)
            }
            copiedFrames = held
            sampleData = UnsafeBufferPointer(start: copy, count: frames)
        }
        let lowBytes = parsed.sm24.flatMap { range in
            bytes.baseAddress.map { UnsafeBufferPointer(start: ($0 + range.lowerBound).assumingMemoryBound(to: UInt8.self), count: range.count) }
        }

        let heldFrames = copiedFrames
        return SoundFont(path: path, name: parsed.name, presets: resolved.presets, zones: resolved.zones,
                         modulators: resolved.modulators, samples: parsed.samples,
                         sampleData: sampleData, sampleLowBytes: lowBytes, sampleNames: parsed.sampleNames) {
            withExtendedLifetime(heldFrames) {}
            releaseBytes()
        }
    }
}

/// Bytes a font reads that no file mapping holds (a font loaded from memory, the copied frames of a
/// misaligned smpl chunk, an in-memory font's frames): its `FixedArray` frees them when the last closure
/// that keeps this goes. 16-byte aligned, zeroed, at least one byte.
final class HeldBytes: @unchecked Sendable {
    private let memory: FixedArray<UInt8>
    var base: UnsafeMutableRawPointer { memory.rawAddress }

    init(_ byteCount: Int) {
        memory = FixedArray(zeroed: byteCount)
    }
}
