import Realtime

/// A growable byte buffer for text output built without a `String` per line: appends are a capacity check
/// and a copy. Owns its memory (noncopyable), so no copy-on-write check runs on each append.
public struct OutputBytes: ~Copyable {
    /// The bytes (a new array replaces it when the buffer grows).
    @usableFromInline var memory: FixedArray<UInt8>
    @usableFromInline var base: UnsafeMutablePointer<UInt8> { @inline(__always) get { memory.baseAddress } }
    @usableFromInline var capacity: Int
    /// Bytes written so far (``count``), settable by the inlined appends.
    @usableFromInline var written = 0
    /// Bytes written so far.
    @inlinable public var count: Int { written }

    /// Bytes allocated past `capacity`, for the stores of a ``ByteCursor`` that run past a piece's end.
    public static let slack = 64

    public init(capacity: Int = 1 << 16) {
        self.capacity = max(16, capacity)
        memory = FixedArray(self.capacity + Self.slack, 0)
    }

    /// The bytes written so far (valid until the next append or `removeAll`).
    @inlinable public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: written) }

    @inlinable public var isEmpty: Bool { written == 0 }

    /// Forgets the bytes, keeping the memory.
    @inlinable public mutating func removeAll() { written = 0 }

    /// Makes room for `n` more bytes.
    @inlinable @inline(__always)
    public mutating func reserve(_ n: Int) {
        if written &+ n > capacity { grow(to: written &+ n) }
    }

    @usableFromInline mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newMemory = FixedArray<UInt8>(newCapacity + Self.slack, 0)
        newMemory.baseAddress.update(from: base, count: written)
        memory = newMemory // frees the old bytes
        capacity = newCapacity
    }

    /// A cursor at the end, with room for `n` bytes (plus ``slack``): the caller writes at most `n` bytes
    /// through it, then calls ``advance(to:)``. One capacity check for a whole line.
    @inlinable @inline(__always)
    public mutating func cursor(reserving n: Int) -> ByteCursor {
        reserve(n)
        return ByteCursor(base + written)
    }

    /// Counts the bytes written through a cursor from ``cursor(reserving:)``.
    @inlinable @inline(__always)
    public mutating func advance(to cursor: ByteCursor) {
        written = cursor.p - base
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[written] = byte
        written &+= 1
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let n = bytes.count
        reserve(n)
        let target = base + written
        if n <= 16 {  // most pieces are a few bytes: a loop beats a call to memmove
            var i = 0
            while i < n { target[i] = source[i]; i &+= 1 }
        } else {
            target.update(from: source, count: n)
        }
        written &+= n
    }

    /// Appends the UTF-8 of `text`.
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends `byte` `n` times.
    @inlinable @inline(__always)
    public mutating func append(repeating byte: UInt8, count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        (base + written).initialize(repeating: byte, count: n)
        written &+= n
    }

    /// Appends `value` in decimal.
    @inlinable
    public mutating func appendDecimal(_ value: Int) {
        var c = cursor(reserving: 21)
        c.putDecimal(value)
        advance(to: c)
    }

    /// The number of decimal digits `value` (non-negative) takes.
    @inlinable
    public static func decimalWidth(_ value: Int) -> Int {
        var digits = 1
        var v = value
        while v >= 10 { v /= 10; digits &+= 1 }
        return digits
    }

    /// Appends `byte` as two uppercase hex digits.
    @inlinable @inline(__always)
    public mutating func appendHex(_ byte: UInt8) {
        reserve(2)
        base[written] = Self.hexDigit(byte >> 4)
        base[written &+ 1] = Self.hexDigit(byte & 0x0F)
        written &+= 2
    }

    @inlinable @inline(__always)
    public static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 &+ nibble : 0x37 &+ nibble }
}
