import FuzzDriver
import MIDI

/// Traps with the message kept in release builds (precondition drops it).
func check(_ condition: Bool, _ message: StaticString) {
    if !condition { fatalError("invariant violated: \(message)") }
}

/// Feeds arbitrary bytes to the streaming parser and checks its invariants; a violated invariant traps,
/// which libFuzzer reports as a crash with the input saved.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMIDIParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limit = 64  // small, so truncation is reached
    let whole = MIDIParser.decode(bytes, sysexLimit: limit)

    // Chunking independence: split where the first byte says, and feed byte by byte.
    let split = Int(bytes[0]) % (size + 1)
    var parser = MIDIParser(sysexLimit: limit)
    var chunked = parser.parse(bytes[..<split])
    chunked += parser.parse(bytes[split...])
    chunked += parser.finish()
    check(chunked == whole.messages && parser.errorCount == whole.errors, "chunking changed the result")

    // The real-time fixed-buffer path gives the same short messages.
    var rt = MIDIParser(sysexLimit: limit)
    let out = UnsafeMutableBufferPointer<ShortMessage>.allocate(capacity: 3)
    defer { out.deallocate() }
    var shorts: [ShortMessage] = []
    bytes.withUnsafeBufferPointer { input in
        var offset = 0
        while offset < input.count {
            let (consumed, written) = rt.parse(UnsafeBufferPointer(rebasing: input[offset...]), into: out)
            shorts += out[..<written]
            offset += consumed
        }
    }
    rt.finish { _ in }
    check(shorts == whole.messages.compactMap(\.shortMessage), "fixed-buffer path differs")
    check(rt.errorCount == whole.errors, "fixed-buffer path counts errors differently")

    // Round trip: what was parsed encodes to bytes that parse back to the same messages. A truncated sysex
    // comes back whole at the limit; unterminated ones are counted as errors again; and a real-time message
    // that followed an unterminated sysex lands inside it once re-encoded (nothing but a status byte can end
    // a sysex without F7), so real-time messages are compared apart.
    func normalized(_ messages: [MIDIMessage]) -> [MIDIMessage] {
        messages.compactMap { m in
            if m.isRealTime { return nil }
            guard case .systemExclusive(var s) = m else { return m }
            s.isTruncated = false
            return .systemExclusive(s)
        }
    }
    let unterminated = whole.messages.filter {
        if case .systemExclusive(let s) = $0 { !s.isTerminated } else { false }
    }.count
    for runningStatus in [false, true] {
        let again = MIDIParser.decode(MIDIEncoder.encode(whole.messages, runningStatus: runningStatus), sysexLimit: limit)
        check(normalized(again.messages) == normalized(whole.messages), "decode(encode(m)) != m")
        check(again.messages.filter(\.isRealTime) == whole.messages.filter(\.isRealTime), "real-time lost")
        check(again.errors == unterminated, "re-encoded stream has unexpected errors")
    }
    return 0
}

// libFuzzer's driver runs from SwiftPM's entry point (Fuzz/Sources/FuzzDriver).
@_cdecl("FuzzMIDIParser_main")
public func fuzzerEntryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzMIDIParser(data, size) }
}
