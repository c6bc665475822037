/// A write position in an ``OutputBytes`` whose room was reserved once for a whole line
/// (``OutputBytes/cursor(reserving:)``): every store after that is unchecked. Random input makes a line
/// (or an error line) every one or two bytes, so a capacity check and a call to memmove per piece were
/// most of the cost of `backbeat decode`.
///
/// Pieces are copied 32 bytes at a time and may store up to 31 bytes past their end (and ``pad(to:)`` up
/// to 15 past its target): ``OutputBytes`` keeps ``OutputBytes/slack`` bytes allocated beyond its
/// capacity and ``PhraseTable`` keeps 32 readable bytes after its last string, so those stores and loads
/// stay inside memory that is ours, and whatever lands past the cursor is overwritten or never counted.
public struct ByteCursor {
    /// The next byte to write.
    public var p: UnsafeMutablePointer<UInt8>

    @inlinable @inline(__always) public init(_ p: UnsafeMutablePointer<UInt8>) { self.p = p }

    @inlinable @inline(__always) public mutating func put(_ byte: UInt8) {
        p.pointee = byte
        p += 1
    }

    /// Copies `piece` (from a ``PhraseTable``, or another buffer with 32 readable bytes past its end).
    @inlinable @inline(__always) public mutating func put(_ piece: UnsafeBufferPointer<UInt8>) {
        let source = UnsafeRawPointer(piece.baseAddress.unsafelyUnwrapped)
        let target = UnsafeMutableRawPointer(p)
        let n = piece.count
        var i = 0
        repeat {  // 32 bytes a turn: most pieces take one turn, error messages two, so the loop's exit is predictable
            (target + i).storeBytes(of: (source + i).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            (target + i + 16).storeBytes(of: (source + i + 16).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            i &+= 32
        } while i < n
        p += n
    }

    /// Stores the low `n` bytes of `word` (little-endian: the first byte is the lowest); all 8 are stored.
    @inlinable @inline(__always) public mutating func put(word: UInt64, count n: Int) {
        UnsafeMutableRawPointer(p).storeBytes(of: word.littleEndian, as: UInt64.self)
        p += n
    }

    /// Two uppercase hex digits.
    @inlinable @inline(__always) public mutating func putHex(_ byte: UInt8) {
        UnsafeMutableRawPointer(p).storeBytes(of: Self.hexPair(byte).littleEndian, as: UInt16.self)
        p += 2
    }

    /// `byte` as two uppercase hex digits, the first in the low byte.
    @inlinable @inline(__always) public static func hexPair(_ byte: UInt8) -> UInt16 {
        UInt16(OutputBytes.hexDigit(byte >> 4)) | UInt16(OutputBytes.hexDigit(byte & 0x0F)) << 8
    }

    /// `value` in decimal: its digits counted first, then written right to left two at a time.
    @inlinable @inline(__always) public mutating func putDecimal(_ value: Int) {
        if value < 0 { put(0x2D) }
        putDecimal(UInt(value.magnitude))
    }

    @inlinable @inline(__always) public mutating func putDecimal(_ value: UInt) {
        var digits = 1
        var power: UInt = 10
        while value >= power && digits < 19 {
            digits &+= 1
            power &*= 10
        }
        if digits == 19 && value >= power { digits = 20 }  // 10^19 ... UInt.max
        var v = value
        var end = p + digits
        p = end
        while v >= 100 {
            let pair = v % 100
            v /= 100
            end -= 2
            UnsafeMutableRawPointer(end).storeBytes(of: Self.decimalPair(pair).littleEndian, as: UInt16.self)
        }
        if v >= 10 {
            UnsafeMutableRawPointer(end - 2).storeBytes(of: Self.decimalPair(v).littleEndian, as: UInt16.self)
        } else {
            (end - 1).pointee = 0x30 &+ UInt8(truncatingIfNeeded: v)
        }
    }

    /// The two digits of `v` < 100, the tens in the low byte (v * 103 >> 10 is v / 10 below 179).
    @inlinable @inline(__always) public static func decimalPair(_ v: UInt) -> UInt16 {
        let tens = (v &* 103) >> 10
        return UInt16(truncatingIfNeeded: 0x3030 | tens | (v &- tens &* 10) << 8)
    }

    /// Spaces up to `end` (a column), or one space when the cursor is already there or past it.
    @inlinable @inline(__always) public mutating func pad(to end: UnsafeMutablePointer<UInt8>) {
        if p >= end {
            put(0x20)
            return
        }
        let spaces = SIMD16<UInt8>(repeating: 0x20)
        repeat {
            UnsafeMutableRawPointer(p).storeBytes(of: spaces, as: SIMD16<UInt8>.self)
            p += 16
        } while p < end
        p = end
    }
}
