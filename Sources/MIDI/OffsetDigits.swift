import Realtime
import TextOutput

/// The decimal digits of the last error offset ``MIDIDecodeStream`` wrote, kept for the next one: random
/// input has an error about every three bytes, so the next offset is nearly always in the same hundred and
/// only its last two digits change. Writing an offset is then a copy and one two-digit store instead of a
/// division by 100 per pair of digits.
struct OffsetDigits: ~Copyable {
    /// The digits, from the first; 48 bytes so that a ``ByteCursor`` may copy 32 from the first.
    private let memory: FixedArray<UInt8>
    private var digits: UnsafeMutablePointer<UInt8> { memory.baseAddress }
    private var count = 0
    /// `offset / 100` of the digits kept; -1 for none.
    private var hundreds = -1

    init() {
        memory = FixedArray(48, 0x30)
    }

    /// Writes `offset` (not negative) in decimal.
    @inline(__always)
    mutating func put(_ offset: Int, into c: inout ByteCursor) {
        let h = offset / 100
        if h != hundreds || h == 0 {  // below 100 the number of digits changes within the hundred
            var d = ByteCursor(digits)
            d.putDecimal(UInt(bitPattern: offset))
            count = d.p - digits
            hundreds = h
        }
        c.put(UnsafeBufferPointer(start: digits, count: count))
        if h != 0 {
            UnsafeMutableRawPointer(c.p - 2).storeBytes(of: ByteCursor.decimalPair(UInt(bitPattern: offset &- h &* 100)).littleEndian,
                                                        as: UInt16.self)
        }
    }
}
