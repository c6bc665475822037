import Realtime

/// A streaming MIDI 1.0 byte parser that follows the specification's rules for running status, real-time
/// bytes, system exclusive and errors. Feed it bytes in any chunking; it keeps its state between calls.
///
/// Rules (MIDI 1.0 Detailed Specification 4.2):
/// - Running status: a channel status persists; data bytes after a complete message start a new one.
///   System common and system exclusive cancel it; real-time bytes do not touch it.
/// - Real-time bytes (F8, FA, FB, FC, FE, FF) are delivered at once, wherever they arrive (between the
///   data bytes of a message, inside a sysex), without disturbing what is in progress.
/// - A sysex ends at F7. Any other non-real-time status byte ends it early: the sysex is delivered
///   unterminated, counted as one error, and the new status byte is then processed.
/// - A status byte that arrives before a message is complete discards that message (one error).
/// - Undefined statuses (F4, F5, F9, FD), an F7 with no sysex open and data bytes with no status are
///   skipped, one error each; F4 and F5 also cancel running status. (A stray F7 that interrupts a message
///   is a status byte too: the incomplete message is one error, the F7 another; running status survives it.)
/// - A sysex payload longer than ``sysexLimit`` is delivered truncated (``SysexView/isTruncated``);
///   truncation is flagged, not counted as an error.
/// - ``finish(_:)`` ends the input: an incomplete message (or an open sysex, delivered unterminated)
///   counts as one error.
///
/// The real-time path is ``parse(_:_:)`` and ``parse(_:into:onSysex:)``: no allocation, no locks, no ARC.
/// Short messages come out as ``ShortMessage``; a sysex as a ``SysexView`` into the parser's own buffer,
/// allocated once by ``init(sysexLimit:)``.
///
/// The parser is noncopyable: it owns that buffer (freed in `deinit`) and a copy-on-write check could
/// allocate on the real-time thread. Keep one parser per byte stream (in a class, or a local variable).
public struct MIDIParser: ~Copyable {
    /// Default largest sysex payload kept: 64 KiB.
    public static let defaultSysexLimit = 65536

    /// What the real-time path delivers.
    @frozen
    public enum Event {
        /// A channel, system common or real-time message.
        case message(ShortMessage)
        /// A system exclusive message; its bytes are valid only during the callback.
        case sysex(SysexView)
    }

    /// Largest sysex payload kept; longer ones are delivered truncated.
    public let sysexLimit: Int
    /// Errors counted since creation (see the type's rules), until ``resetErrorCount()``.
    @inlinable public var errorCount: Int { errors }
    @usableFromInline var errors: Int = 0

    /// Running status, or the status of the system common message in progress; 0 for none.
    @usableFromInline var status: UInt8 = 0
    /// Data bytes the message of `status` takes (1 or 2).
    @usableFromInline var needed: UInt8 = 0
    /// Data bytes received so far of the message in progress.
    @usableFromInline var count: UInt8 = 0
    @usableFromInline var data1: UInt8 = 0
    /// A message has begun (status or first data byte) and is not complete.
    @usableFromInline var partial: Bool = false
    @usableFromInline var inSysex: Bool = false
    @usableFromInline var sysexTruncated: Bool = false
    @usableFromInline var sysexCount: Int = 0
    @usableFromInline let sysexBytes: FixedArray<UInt8>

    /// Creates a parser; allocates the sysex buffer of `sysexLimit` bytes (call it off the real-time thread).
    public init(sysexLimit: Int = MIDIParser.defaultSysexLimit) {
        self.sysexLimit = max(0, sysexLimit)
        sysexBytes = FixedArray(max(1, sysexLimit), 0)
    }

    /// True when no message or sysex has begun without completing.
    public var isIdle: Bool { !partial && !inSysex }

    /// Sets the error count back to 0.
    public mutating func resetErrorCount() { errors = 0 }

    /// Forgets running status and anything in progress (without counting errors).
    @inlinable @_noLocks
    public mutating func reset() {
        status = 0; needed = 0; count = 0; partial = false; inSysex = false; sysexTruncated = false; sysexCount = 0
    }

    // MARK: Real-time path

    /// What one byte did: nothing yet, completed a short message, or ended a sysex (read ``currentSysex``).
    @usableFromInline
    enum Step {
        case none
        case message(ShortMessage)
        case sysex
    }

    /// The sysex that the last `.sysex` step delivered (valid until the next F0 or parse call).
    @inlinable @inline(__always)
    mutating func currentSysex() -> SysexView {
        SysexView(bytes: UnsafeBufferPointer(start: sysexBytes.baseAddress, count: sysexCount),
                  isTerminated: !partialSysexEnded, isTruncated: sysexTruncated)
    }

    /// Set when the last sysex was ended by something other than F7.
    @usableFromInline var partialSysexEnded: Bool = false

    @inlinable @inline(__always)
    mutating func step(_ byte: UInt8) -> Step {
        if byte < 0x80 {
            if inSysex {
                if sysexCount < sysexLimit {
                    sysexBytes[sysexCount] = byte
                    sysexCount &+= 1
                } else {
                    sysexTruncated = true
                }
                return .none
            }
            if status == 0 {
                errors &+= 1
                return .none
            }
            if count == 0 && needed == 2 {
                data1 = byte
                count = 1
                partial = true
                return .none
            }
            let message = needed == 1
                ? ShortMessage(_unchecked: status, byte, 0)
                : ShortMessage(_unchecked: status, data1, byte)
            count = 0
            partial = false
            if status >= 0xF0 { status = 0 }  // system common: no running status
            return .message(message)
        }
        if byte >= 0xF8 {
            if byte == 0xF9 || byte == 0xFD {
                errors &+= 1
                return .none
            }
            return .message(ShortMessage(_unchecked: byte, 0, 0))
        }
        return statusByte(byte)
    }

    /// A status byte 80...F7 (kept out of the data-byte fast path).
    @inlinable
    mutating func statusByte(_ byte: UInt8) -> Step {
        if inSysex {
            inSysex = false
            partialSysexEnded = byte != 0xF7
            if byte == 0xF7 { return .sysex }
            errors &+= 1
            // The interrupted sysex goes out first; the status byte is processed right after it.
            pendingStatus = byte
            return .sysex
        }
        return beginStatus(byte)
    }

    /// A status byte that arrived while a sysex was being ended, processed after the sysex is delivered.
    @usableFromInline var pendingStatus: UInt8 = 0

    @inlinable
    mutating func beginStatus(_ byte: UInt8) -> Step {
        if partial {
            errors &+= 1
            partial = false
            count = 0
            if status >= 0xF0 { status = 0 }
        }
        switch byte {
        case 0x80...0xEF:
            status = byte
            needed = (byte & 0xE0) == 0xC0 ? 1 : 2  // Cn and Dn take one data byte
            count = 0
            partial = true
        case 0xF0:
            status = 0
            inSysex = true
            sysexCount = 0
            sysexTruncated = false
        case 0xF1, 0xF3:
            status = byte; needed = 1; count = 0; partial = true
        case 0xF2:
            status = byte; needed = 2; count = 0; partial = true
        case 0xF6:
            status = 0
            return .message(ShortMessage(_unchecked: 0xF6, 0, 0))
        case 0xF7:
            errors &+= 1  // EOX with no sysex open; running status is kept
        default:  // F4, F5: undefined
            status = 0
            errors &+= 1
        }
        return .none
    }

    /// Parses `bytes`, handing each complete message to `handler` as it completes. Real-time safe.
    @inlinable @_noLocks
    public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ handler: (Event) -> Void) {
        parseUnchecked(bytes, handler)
    }

    /// The loop of ``parse(_:_:)``, not annotated, so the allocating convenience API can share it
    /// (the compiler checks closures passed to an `@_noLocks` function as part of it).
    @inlinable @inline(__always)
    mutating func parseUnchecked(_ bytes: UnsafeBufferPointer<UInt8>, _ handler: (Event) -> Void) {
        guard let base = bytes.baseAddress else { return }
        _ = run(base, bytes.count, emit: { handler(.message($0)); return true }, onSysex: { handler(.sysex($0)) })
    }

    /// The shared loop: `emit` returns false to stop (the fixed output buffer is full). Returns the bytes
    /// consumed.
    ///
    /// Fast path: with nothing in progress, a whole channel message (with or without its status byte) is
    /// taken at once when its data bytes are all there; the choices inside are selects, not branches, so
    /// random streams do not pay a misprediction per byte. Anything else goes through `step`, byte by byte.
    @inlinable @inline(__always)
    mutating func run(
        _ p: UnsafePointer<UInt8>, _ n: Int, emit: (ShortMessage) -> Bool, onSysex: (SysexView) -> Void
    ) -> Int {
        var i = 0
        while i < n {
            let b = p[i]
            if !partial && !inSysex && b < 0xF0 && i &+ 2 < n {
                let isStatus = b >= 0x80
                let s = isStatus ? b : status
                let j = isStatus ? i &+ 1 : i
                let d1 = p[j], d2Raw = p[j &+ 1]
                let oneByte = (s & 0xE0) == 0xC0
                let d2 = oneByte ? 0 : d2Raw
                if s != 0 && (d1 | d2) < 0x80 {
                    status = s
                    needed = oneByte ? 1 : 2
                    i = j &+ (oneByte ? 1 : 2)
                    if !emit(ShortMessage(_unchecked: s, d1, d2)) { return i }
                    continue
                }
            }
            i &+= 1
            switch step(b) {
            case .none: break
            case .message(let m):
                if !emit(m) { return i }
            case .sysex:
                onSysex(currentSysex())
                if pendingStatus != 0 {
                    let s = pendingStatus
                    pendingStatus = 0
                    if case .message(let m) = beginStatus(s), !emit(m) { return i }
                }
            }
        }
        return i
    }

    /// Parses `bytes` into a caller's fixed buffer of short messages, stopping when it is full; sysex
    /// messages go to `onSysex`. Returns how many input bytes were consumed (feed the rest later) and how
    /// many messages were written. Real-time safe.
    @inlinable @_noLocks
    public mutating func parse(
        _ bytes: UnsafeBufferPointer<UInt8>,
        into output: UnsafeMutableBufferPointer<ShortMessage>,
        onSysex: (SysexView) -> Void
    ) -> (consumed: Int, written: Int) {
        guard let base = bytes.baseAddress, let out = output.baseAddress, output.count > 0 else {
            return (0, 0)
        }
        var written = 0
        let capacity = output.count
        let consumed = run(base, bytes.count, emit: { m in
            out[written] = m
            written &+= 1
            return written < capacity
        }, onSysex: onSysex)
        return (consumed, written)
    }

    /// Parses `bytes` into a caller's fixed buffer of short messages, ignoring sysex. Real-time safe.
    @inlinable @_noLocks
    public mutating func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<ShortMessage>
    ) -> (consumed: Int, written: Int) {
        parse(bytes, into: output, onSysex: { _ in })
    }

    /// Ends the input: an open sysex is delivered unterminated and counted as one error; an incomplete
    /// message counts as one error. Running status is forgotten. Real-time safe.
    @inlinable @_noLocks
    public mutating func finish(_ handler: (Event) -> Void) {
        finishUnchecked(handler)
    }

    @inlinable @inline(__always)
    mutating func finishUnchecked(_ handler: (Event) -> Void) {
        if inSysex {
            inSysex = false
            partialSysexEnded = true
            errors &+= 1
            handler(.sysex(currentSysex()))
        } else if partial {
            errors &+= 1
        }
        status = 0; count = 0; partial = false
    }

    // MARK: Convenience (allocates)

    /// Parses `bytes` into messages (allocates: not for the real-time thread).
    public mutating func parse(_ bytes: some Sequence<UInt8>) -> [MIDIMessage] {
        var messages: [MIDIMessage] = []
        let array = Array(bytes)
        array.withUnsafeBufferPointer { buffer in
            parseUnchecked(buffer) { messages.append($0.message) }
        }
        return messages
    }

    /// Ends the input (see ``finish(_:)``) and returns the unterminated sysex, if one was open.
    public mutating func finish() -> [MIDIMessage] {
        var messages: [MIDIMessage] = []
        finishUnchecked { messages.append($0.message) }
        return messages
    }

    /// Decodes a complete byte stream: the messages, and the number of errors (incomplete message at the
    /// end included).
    public static func decode(
        _ bytes: some Sequence<UInt8>, sysexLimit: Int = defaultSysexLimit
    ) -> (messages: [MIDIMessage], errors: Int) {
        var parser = MIDIParser(sysexLimit: sysexLimit)
        var messages = parser.parse(bytes)
        messages += parser.finish()
        return (messages, parser.errorCount)
    }
}

extension MIDIParser.Event {
    /// The message model of this event (allocates for a sysex).
    public var message: MIDIMessage {
        switch self {
        case .message(let short): MIDIMessage(short) ?? .systemReset  // the parser emits only valid statuses
        case .sysex(let view): .systemExclusive(view.makeMessage())
        }
    }
}

/// A system exclusive message as the real-time path delivers it: a view into the parser's buffer.
@frozen
public struct SysexView {
    /// The payload, without F0 and F7; valid only during the callback that received it.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// False when another status byte (or the end of input) ended the sysex before F7.
    public let isTerminated: Bool
    /// True when the payload exceeded the parser's limit and only its start is in `bytes`.
    public let isTruncated: Bool

    @inlinable
    init(bytes: UnsafeBufferPointer<UInt8>, isTerminated: Bool, isTruncated: Bool) {
        self.bytes = bytes; self.isTerminated = isTerminated; self.isTruncated = isTruncated
    }

    /// Copies the view into a ``SystemExclusive`` (allocates).
    public func makeMessage() -> SystemExclusive {
        SystemExclusive(data: Array(bytes), isTerminated: isTerminated, isTruncated: isTruncated)
    }
}

extension ShortMessage {
    /// Memberwise, in this file so the parser's `@_noLocks` check sees its body in debug builds too.
    @inlinable @inline(__always)
    init(_unchecked status: UInt8, _ data1: UInt8, _ data2: UInt8) {
        self.status = status; self.data1 = data1; self.data2 = data2
    }
}

/// A parser may move to the real-time thread: being noncopyable, it is the only owner of its sysex buffer.
extension MIDIParser: @unchecked Sendable {}
