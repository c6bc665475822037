import Realtime
import TextOutput

/// Strings rendered once into one block of UTF-8, looked up by number. The block has 32 readable bytes
/// after its last string, so a ``ByteCursor`` can copy any entry 32 bytes at a time.
struct PhraseTable: ~Copyable {
    private let storage: FixedArray<UInt8>
    private let starts: FixedArray<Int>
    /// The length of the longest entry.
    let maxCount: Int

    init(_ strings: [String]) {
        let utf8 = strings.map { Array($0.utf8) }
        let size = utf8.reduce(0) { $0 + $1.count } + 32
        starts = FixedArray(utf8.count + 1, 0)
        storage = FixedArray(size, 0)
        var offset = 0
        for (i, bytes) in utf8.enumerated() {
            starts[i] = offset
            (storage.baseAddress + offset).update(from: bytes, count: bytes.count)
            offset += bytes.count
        }
        starts[utf8.count] = offset
        maxCount = utf8.map(\.count).max() ?? 0
    }

    subscript(i: Int) -> UnsafeBufferPointer<UInt8> {
        @inline(__always) get {
            UnsafeBufferPointer(start: storage.baseAddress + starts[i], count: starts[i &+ 1] &- starts[i])
        }
    }
}
