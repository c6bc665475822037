// Backbeat's MIDI parser against ALSA's MIDI byte codec (snd_midi_event_encode into a snd_seq_event_t):
// the same 16 MiB random, valid byte stream with running status, in the same run. Targets (issue
// "Foundation"): at least 2x ALSA's throughput, zero allocations on the real-time path.
import Benchmark
import CALSABench
import MIDI

/// 16 MiB of valid MIDI 1.0: channel voice messages of every kind on random channels, running status
/// wherever it is allowed (about 3 in 4 repeats), and timing clocks (F8) between messages. Deterministic
/// (xorshift), so both parsers and every run see the same bytes. Returns the bytes and how many messages
/// they hold.
func makeStream(byteCount: Int, seed: UInt64 = 0x5EED_BAC4_BEA7) -> (bytes: [UInt8], messages: Int) {
    var state = seed
    func next() -> UInt64 {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return state
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(byteCount + 3)
    var messages = 0
    var runningStatus: UInt8 = 0
    let kinds: [UInt8] = [0x80, 0x90, 0x90, 0x90, 0xA0, 0xB0, 0xB0, 0xC0, 0xD0, 0xE0]
    while bytes.count < byteCount - 3 {
        let r = next()
        if r % 32 == 0 {
            bytes.append(0xF8)  // real time: does not cancel running status
            messages += 1
            continue
        }
        var status = runningStatus
        if status == 0 || (r >> 8) % 4 == 0 {
            status = kinds[Int((r >> 16) % UInt64(kinds.count))] | UInt8((r >> 24) & 0x0F)
        }
        if status != runningStatus { bytes.append(status) }
        runningStatus = status
        let dataBytes = (status & 0xF0 == 0xC0 || status & 0xF0 == 0xD0) ? 1 : 2
        bytes.append(UInt8((r >> 32) & 0x7F))
        if dataBytes == 2 { bytes.append(UInt8((r >> 40) & 0x7F)) }
        messages += 1
    }
    return (bytes, messages)
}

// MARK: The measured paths

/// Backbeat: the real-time API, parse(_:into:) into a fixed buffer of ShortMessage. The compiler checks
/// this whole path, parser included, for locks and allocations.
@_noLocks
func backbeatParse(_ parser: inout MIDIParser, _ bytes: UnsafeBufferPointer<UInt8>,
                   _ output: UnsafeMutableBufferPointer<ShortMessage>) -> (messages: Int, checksum: UInt64) {
    var messages = 0
    var checksum: UInt64 = 0
    var offset = 0
    while offset < bytes.count {
        let rest = UnsafeBufferPointer(rebasing: bytes[offset...])
        let (consumed, written) = parser.parse(rest, into: output)
        var i = 0
        while i < written {
            let m = output[i]
            checksum &+= UInt64(m.status) &+ UInt64(m.data1) &<< 8 &+ UInt64(m.data2) &<< 16
            i &+= 1
        }
        messages &+= written
        offset &+= consumed
    }
    return (messages, checksum)
}

/// ALSA: snd_midi_event_encode, one complete event per call (it returns the bytes it consumed).
func alsaParse(_ encoder: OpaquePointer, _ bytes: UnsafeBufferPointer<UInt8>) -> (messages: Int, checksum: UInt64) {
    var event = snd_seq_event_t()
    var messages = 0
    var checksum: UInt64 = 0
    var offset = 0
    let base = bytes.baseAddress!
    while offset < bytes.count {
        let consumed = snd_midi_event_encode(encoder, base + offset, bytes.count - offset, &event)
        if consumed <= 0 { break }
        offset += Int(consumed)
        if event.type != UInt8(SND_SEQ_EVENT_NONE.rawValue) {
            messages += 1
            checksum &+= UInt64(event.type) &+ UInt64(event.data.note.note) &<< 8
            event.type = UInt8(SND_SEQ_EVENT_NONE.rawValue)
        }
    }
    return (messages, checksum)
}

// MARK: Suite

// The plugin's generated main calls this once, on the main thread, before any benchmark runs.
nonisolated(unsafe) let benchmarks = {
    let stream = makeStream(byteCount: 16 << 20)
    let streamBytes = stream.bytes.count
    let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: streamBytes)
    _ = input.initialize(from: stream.bytes)
    let output = UnsafeMutableBufferPointer<ShortMessage>.allocate(capacity: 4096)
    output.initialize(repeating: ShortMessage(status: 0xF8))

    let zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p25: 0, .p50: 0, .p75: 0, .p90: 0, .p99: 0, .p100: 0]),
    ]
    // One iteration parses the whole 16 MiB (wall clock per 16 MiB; scripts/bench-foundation turns it
    // into MiB/s).
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .microseconds,
        warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 15,
        thresholds: zeroAllocations)

    // One parser for the whole run, like one per byte stream in the engine: created outside the
    // measured closure (its init allocates the sysex buffer once).
    final class ParserBox: @unchecked Sendable { var parser = MIDIParser() }
    let box = ParserBox()
    Benchmark("Parser16MiBRunningStatus:Backbeat-MIDIParser", configuration: configuration) { benchmark in
        let (messages, checksum) = backbeatParse(&box.parser, UnsafeBufferPointer(input), output)
        precondition(messages == stream.messages, "Backbeat parsed \(messages) of \(stream.messages) messages")
        blackHole(checksum)
    }

    var encoder: OpaquePointer?
    precondition(snd_midi_event_new(256, &encoder) == 0, "snd_midi_event_new failed")
    Benchmark("Parser16MiBRunningStatus:ALSA-snd_midi_event_encode", configuration: configuration) { benchmark in
        snd_midi_event_reset_encode(encoder)
        let (messages, checksum) = alsaParse(encoder!, UnsafeBufferPointer(input))
        precondition(messages == stream.messages, "ALSA parsed \(messages) of \(stream.messages) messages")
        blackHole(checksum)
    }

    // Proves the malloc counter is live (so the zeros above mean something): exactly one allocation
    // per iteration, and scripts/bench-foundation fails if it reads anything else.
    Benchmark("MallocCounterCalibration:OneAllocation", configuration: .init(
        metrics: [.mallocCountTotal, .throughput], maxDuration: .milliseconds(200), maxIterations: 10,
        thresholds: [.mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])])) { _ in
        let block = UnsafeMutablePointer<UInt64>.allocate(capacity: 64)
        block.initialize(to: 1)
        blackHole(block.pointee)
        block.deallocate()
    }
}
