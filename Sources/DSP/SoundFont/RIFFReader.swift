// The RIFF layer of the SoundFont loader: little-endian reads from the font's bytes and the walk over a
// chunk's sub-chunks, every size checked against its parent before it is used. Nothing here traps on any
// input: offsets are Ints built from 32-bit sizes (so sums never overflow), and every read is preceded by a
// bounds check that throws a `SoundFontError` naming the chunk and the byte offset.

/// One chunk: its four-character id, where its header starts and where its data lies in the file.
struct RIFFChunk {
    var id: String
    /// Offset of the 8-byte header (id, size) in the file.
    var offset: Int
    /// Offset of the first data byte.
    var dataStart: Int
    /// The data size the header gives (without the pad byte of an odd size).
    var size: Int
    var dataEnd: Int { dataStart + size }
}

/// Bounds-checked little-endian reads over the whole file, and the errors that name it.
struct RIFFReader {
    let bytes: UnsafeRawBufferPointer
    let path: String
    /// The open file the bytes are mapped from, or -1 (bytes in memory): what reads that should not go
    /// through the mapping use (OggPages.swift).
    var descriptor: Int32 = -1

    var count: Int { bytes.count }

    func error(_ chunk: String, _ offset: Int, _ reason: String) -> SoundFontError {
        SoundFontError(path: path, chunk: chunk, offset: offset, reason: reason)
    }

    /// Throws unless `offset ..< offset + length` lies inside `limit` (by default the file).
    func require(_ offset: Int, _ length: Int, within limit: Range<Int>? = nil, chunk: String,
                 _ what: @autoclosure () -> String) throws(SoundFontError) {
        let bounds = limit ?? 0 ..< count
        guard offset >= bounds.lowerBound, length >= 0, offset <= bounds.upperBound,
              length <= bounds.upperBound - offset else {
            throw error(chunk, offset, "\(what()): needs \(length) bytes, only \(max(0, bounds.upperBound - offset)) left")
        }
    }

    // Unchecked reads: callers check the range first (`require`, or a chunk whose bounds were checked).
    @inline(__always) func u8(_ offset: Int) -> UInt8 { bytes[offset] }
    @inline(__always) func u16(_ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }
    @inline(__always) func i16(_ offset: Int) -> Int16 { Int16(bitPattern: u16(offset)) }
    @inline(__always) func u32(_ offset: Int) -> UInt32 {
        UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16
    }

    /// Four bytes as an id; bytes outside printable ASCII are shown as '?', so an error message stays readable.
    func fourCC(_ offset: Int) -> String {
        var s = ""
        for i in 0 ..< 4 {
            let b = bytes[offset + i]
            s.unicodeScalars.append(b >= 0x20 && b < 0x7F ? Unicode.Scalar(b) : "?")
        }
        return s
    }

    /// A zero-terminated (or full-length) string field of `length` bytes, decoded as UTF-8 (invalid bytes
    /// replaced), without trailing spaces.
    func string(_ offset: Int, length: Int) -> String {
        var end = offset
        while end < offset + length && bytes[end] != 0 { end += 1 }
        var s = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset ..< end]), as: UTF8.self)
        while s.last == " " { s.removeLast() }
        return s
    }

    /// The sub-chunks of `range` (the data of `parent`, named in errors). Each header must fit, and each
    /// size must fit in what is left of the parent. An odd size is followed by a pad byte, which some writers
    /// leave out (Polyphone and MuseScore's SoundFont 3 writers, after an odd INFO string or an odd smpl):
    /// it may be missing at the parent's very end, and anywhere else the next chunk is read without it when
    /// the padded position holds no plausible chunk header and the unpadded one does. FluidSynth reads
    /// chunks back to back without pad bytes, so it plays such files.
    func chunks(in range: Range<Int>, parent: String) throws(SoundFontError) -> [RIFFChunk] {
        var result: [RIFFChunk] = []
        var position = range.lowerBound
        while position < range.upperBound {
            let left = range.upperBound - position
            guard left >= 8 else {
                throw error(parent, position, "\(left) stray bytes at the end of '\(parent)', too few for a chunk header")
            }
            let id = fourCC(position)
            let size = Int(u32(position + 4))
            let dataStart = position + 8
            guard size <= range.upperBound - dataStart else {
                let name = parent == "RIFF" ? id : "\(parent)/\(id)"
                throw error(name, position,
                            "bad size \(size): only \(range.upperBound - dataStart) bytes left in '\(parent)'")
            }
            result.append(RIFFChunk(id: id, offset: position, dataStart: dataStart, size: size))
            position = dataStart + size
            if size & 1 == 1 && position < range.upperBound
                && (isChunkHeader(position + 1, in: range) || !isChunkHeader(position, in: range)) {
                position += 1  // the pad byte, unless only the unpadded position starts a chunk
            }
            position = min(position, range.upperBound)
        }
        return result
    }

    /// Whether `offset` starts what looks like a chunk header inside `range`: four printable ASCII bytes
    /// and a size that fits in what is left.
    func isChunkHeader(_ offset: Int, in range: Range<Int>) -> Bool {
        guard offset >= range.lowerBound, range.upperBound - offset >= 8 else { return false }
        for i in 0 ..< 4 where bytes[offset + i] < 0x20 || bytes[offset + i] >= 0x7F { return false }
        return Int(u32(offset + 4)) <= range.upperBound - offset - 8
    }
}
