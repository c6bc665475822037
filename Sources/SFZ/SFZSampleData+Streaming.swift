import DSP

// An SFZ instrument whose samples decoded (16-bit frames and 24-bit low bytes) exceed the sample cache:
// laid out as if decoded whole, but only each file's first `SampleStreamStore.headFrames` frames are read now;
// the rest is read by the loader when a note asks for it (SampleStreamStore.swift). Generated waves and files
// no longer than the head are whole. The layout matches the whole one's (each channel then 46 silent frames),
// so the sample headers are the same whichever way an instrument loads.

extension SFZSampleData {
    /// The streamed layout so far: its length in frames, what to copy into it, its units and files.
    struct Stream {
        var frames = 0
        /// Frames `from..<from + count` of `frames` (high and low) go at `at` of the mapping.
        var pieces: [(at: Int, from: Int, count: Int)] = []
        var units: [SampleStreamStore.Unit] = []
        var files: [String] = []
        var headFrames = SampleStreamStore.headFrames
    }

    /// Places the frames just appended to `frames` from `from` (and their padding) at the end of the streamed
    /// layout.
    mutating func placePiece(from: Int, frames: Int) -> Span {
        let at = stream!.frames
        stream!.pieces.append((at, from, frames + Self.padding))
        stream!.frames += frames + Self.padding
        return Span(start: at, frames: frames)
    }

    /// A file's head read now, its channels' places reserved for the rest.
    mutating func appendStreamedFile(_ path: String) throws(SampleFileError) -> File {
        let file = try SampleFile(path: path)
        let info = file.info
        let head = min(info.frames, stream!.headFrames)
        let frames = try file.read(frames: 0..<head)
        if Self.isDeep(info.format) { deep = true }
        let index = stream!.files.count
        stream!.files.append(path)
        var spans: [Span] = []
        for c in 0..<min(info.channels, 2) {
            let from = self.frames.count
            // The head's frames into `frames` (the padding after them is the mapping's zeros).
            _ = append(interleaved: frames, channel: c, of: info.channels)
            stream!.pieces.removeLast()
            stream!.frames -= head + Self.padding
            let at = stream!.frames
            stream!.pieces.append((at, from, head))
            stream!.units.append(SampleStreamStore.Unit(file: index, channel: c, start: at, frames: info.frames))
            stream!.frames += info.frames + Self.padding
            spans.append(Span(start: at, frames: info.frames))
        }
        let loop = info.loops.first { $0.mode != .none && $0.end > $0.start }
        return File(channels: spans, sampleRate: info.sampleRate, rootKey: info.rootKey, loop: loop)
    }

    /// Whether a format has more than 16 bits a frame (its low bytes are kept).
    static func isDeep(_ format: String) -> Bool {
        format.contains("24-bit") || format.contains("32-bit") || format.contains("64-bit") || format.contains("Vorbis")
            || format.contains("Opus")
    }

    /// The memory the files at `paths` take decoded whole (16-bit frames, low bytes for deeper formats, the
    /// padding), from their headers; a file that cannot be read counts 0 (its load says why).
    static func decodedBytes(_ paths: [String]) -> Int {
        paths.reduce(0) { total, path in
            guard let info = try? SampleFile.info(path: path) else { return total }
            return total + (info.frames + padding) * min(info.channels, 2) * (isDeep(info.format) ? 3 : 2)
        }
    }

    /// The streamed layout as a store: heads and waves copied in, `sampleSpans` (each sample header's span
    /// start) mapped to units.
    func streamStore(sampleSpans: [Int], limitBytes: Int) throws(SampleStreamError) -> SampleStreamStore {
        let plan = stream!
        var unitOfStart: [Int: Int32] = [:]
        for (u, unit) in plan.units.enumerated() { unitOfStart[unit.start] = Int32(u) }
        let files = plan.files
        let store = try SampleStreamStore(
            regionFrames: plan.frames, deep: deep, units: plan.units, sampleUnits: sampleSpans.map { unitOfStart[$0] ?? -1 },
            fileNames: files, padding: Self.padding, headFrames: plan.headFrames, limitBytes: limitBytes) { file in
            try SampleFile(path: files[file])
        }
        for piece in plan.pieces {
            store.write(high: Array(UnsafeBufferPointer(start: frames.high + piece.from, count: piece.count)),
                        low: deep ? Array(UnsafeBufferPointer(start: frames.low + piece.from, count: piece.count)) : nil, at: piece.at)
        }
        return store
    }
}

extension SampleFile: SampleStreamSource {
    public var channelCount: Int { info.channels }
}
