import FuzzDriver
import MIDI

/// Feeds arbitrary bytes to the Standard MIDI File reader, strict and tolerant (what `render` uses): each must
/// throw or succeed, never trap; the tolerant reader throws only without an MThd header. A file it reads,
/// written back as format 0, must read again strictly with the same number of messages.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? StandardMIDIFile(bytes: bytes)
    let file: StandardMIDIFile
    do { file = try StandardMIDIFile.read(bytes, strict: false).file } catch {
        if error.offset == 0 || bytes.count < 4 { return 0 }
        fatalError("the tolerant reader refused a file with an MThd header: \(error)")
    }
    let events: [(seconds: Double, message: MIDIMessage)] = file.timedEvents().compactMap { e in
        switch e.event {
        case .message(let m): (e.seconds, m)
        case .sysex(let s): (e.seconds, .systemExclusive(s))
        default: nil
        }
    }
    let written = StandardMIDIFile.format0(events)
    guard let back = try? StandardMIDIFile(bytes: written) else { fatalError("written file does not read") }
    let count = back.timedEvents().filter { if case .meta = $0.event { false } else { true } }.count
    if count != events.count { fatalError("format 0 round trip lost events") }
    return 0
}

// libFuzzer's driver runs from SwiftPM's entry point (Fuzz/Sources/FuzzDriver).
@_cdecl("FuzzSMF_main")
public func fuzzerEntryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzSMF(data, size) }
}
