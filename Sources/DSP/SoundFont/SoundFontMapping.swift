// Loading: the file is mapped read-only (open, fstat, mmap from Glibc; no Foundation), parsed and resolved;
// the font's `sampleData` points into the mapping, so the sample data costs resident memory only for the
// pages a voice reads. The mapping is private and read-only: the font never writes it. (As with any mapped
// file, truncating the file while the font is loaded would make reading the lost pages fault.)

#if canImport(Glibc)
import Glibc
#endif

extension SoundFont {
    /// Loads the SoundFont 2 or 3 file at `path`: every structural problem is a `SoundFontError` naming the file,
    /// the chunk and the byte offset. The sample data is mapped, not read.
    public static func load(path: String) throws(SoundFontError) -> SoundFont {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SoundFontError(path: path, chunk: "", offset: 0, reason: "cannot open: \(errnoText())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw SoundFontError(path: path, chunk: "", offset: 0, reason: "cannot stat: \(errnoText())")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SoundFontError(path: path, chunk: "", offset: 0, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size >= 12 else {
            throw SoundFontError(path: path, chunk: "RIFF", offset: 0,
                                 reason: "not a RIFF file: \(size) bytes, too short for a RIFF header")
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw SoundFontError(path: path, chunk: "", offset: 0, reason: "cannot map the file: \(errnoText())")
        }
        let bytes = UnsafeRawBufferPointer(start: base, count: size)
        let address = UInt(bitPattern: base)
        return try make(path: path, bytes: bytes, descriptor: fd) { munmap(UnsafeMutableRawPointer(bitPattern: address), size) }
    }

    /// Loads a font from bytes in memory (tests, fuzzing): the bytes are copied once, and the font's sample
    /// data points into that copy. `path` only names the font in errors.
    public static func load(bytes: some Collection<UInt8>, path: String = "<memory>") throws(SoundFontError) -> SoundFont {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        _ = copy.initializeMemory(as: UInt8.self, from: bytes)
        let memory = UnsafeRawBufferPointer(rebasing: copy[0 ..< bytes.count])
        let address = UInt(bitPattern: copy.baseAddress)
        return try make(path: path, bytes: memory) { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
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
        let zones = copyToBuffer(resolved.zones)
        let modulators = copyToBuffer(resolved.modulators)
        if parsed.isCompressed {
            // SoundFont 3: the samples are decoded on demand into the store's slots (SoundFontSampleStore.swift);
            // the store keeps the file's bytes.
            var headers = parsed.samples
            let store: SoundFontSampleStore
            do {
                store = try SoundFontSampleStore(parsed: parsed, samples: &headers, file: bytes, path: path,
                                                 limitBytes: SoundFontSampleStore.defaultLimitBytes, releaseFile: releaseBytes)
            } catch {
                zones.deallocate()
                modulators.deallocate()
                throw error
            }
            let samples = copyToBuffer(headers)
            let owned = OwnedBuffers(zones: zones, modulators: modulators, samples: samples, frames: nil)
            return SoundFont(path: path, name: parsed.name, presets: resolved.presets, zones: UnsafeBufferPointer(zones),
                             modulators: UnsafeBufferPointer(modulators), samples: UnsafeBufferPointer(samples),
                             sampleData: UnsafeBufferPointer(start: store.region, count: store.regionFrames),
                             sampleLowBytes: nil, sampleNames: parsed.sampleNames, sampleStore: store) {
                owned.free()
            }
        }
        let samples = copyToBuffer(parsed.samples)

        // 16-bit frames straight from the file when smpl is aligned (it always is in a valid file: chunks
        // start at even offsets and the mapping at a page); a misaligned smpl is copied.
        let frames = parsed.smpl.count / 2
        var copiedFrames: UnsafeMutableBufferPointer<Int16>?
        let sampleData: UnsafeBufferPointer<Int16>
        let smplStart = bytes.baseAddress.map { $0 + parsed.smpl.lowerBound }
        if let smplStart, Int(bitPattern: smplStart) % MemoryLayout<Int16>.alignment == 0 {
            sampleData = UnsafeBufferPointer(start: smplStart.assumingMemoryBound(to: Int16.self), count: frames)
        } else {
            let copy = UnsafeMutableBufferPointer<Int16>.allocate(capacity: max(frames, 1))
            for i in 0 ..< frames {
                let o = parsed.smpl.lowerBound + 2 * i
                copy[i] = Int16(bitPattern: UInt16(bytes[o]) | UInt16(bytes[o + 1]) << 8)
            }
            copiedFrames = copy
            sampleData = UnsafeBufferPointer(start: copy.baseAddress, count: frames)
        }
        let lowBytes = parsed.sm24.flatMap { range in
            bytes.baseAddress.map { UnsafeBufferPointer(start: ($0 + range.lowerBound).assumingMemoryBound(to: UInt8.self), count: range.count) }
        }

        let owned = OwnedBuffers(zones: zones, modulators: modulators, samples: samples, frames: copiedFrames)
        return SoundFont(path: path, name: parsed.name, presets: resolved.presets, zones: UnsafeBufferPointer(zones),
                         modulators: UnsafeBufferPointer(modulators), samples: UnsafeBufferPointer(samples),
                         sampleData: sampleData, sampleLowBytes: lowBytes, sampleNames: parsed.sampleNames) {
            owned.free()
            releaseBytes()
        }
    }

    static func copyToBuffer<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
        _ = buffer.initialize(from: array)
        return UnsafeMutableBufferPointer(start: buffer.baseAddress, count: array.count)
    }
}

/// The loader's allocations, freed together by the font's release closure.
private struct OwnedBuffers: @unchecked Sendable {
    let zones: UnsafeMutableBufferPointer<SoundFontZone>
    let modulators: UnsafeMutableBufferPointer<SoundFontModulator>
    let samples: UnsafeMutableBufferPointer<SoundFontSample>
    let frames: UnsafeMutableBufferPointer<Int16>?

    func free() {
        zones.deallocate()
        modulators.deallocate()
        samples.deallocate()
        frames?.deallocate()
    }
}

private func errnoText() -> String {
    String(cString: strerror(errno))
}
