import CALSA
@testable import Engine
import MIDI
import Testing

/// Backbeat's MIDI parser against ALSA's own byte codec: the same random byte streams go through
/// `MIDIParser` and through `snd_midi_event_encode_byte` (then `ALSAEventDecoder`, which maps ALSA's events
/// back to messages and joins sysex chunks); both must give the same messages in the same order.
///
/// Streams are well-formed MIDI with what makes parsing hard: running status (status bytes left out at
/// random), real-time bytes anywhere (between data bytes, inside sysex), sysex of random length (ALSA cuts
/// those longer than its buffer into chunks), system common messages cancelling running status.
///
/// Intended differences, checked separately below:
/// - A sysex ended by another status byte: the parser delivers it unterminated; ALSA drops it silently.
/// - Note-on with velocity 0 is a note-on with velocity 0 in both (neither rewrites it as a note-off).
@Suite struct ALSAParserDifferentialTests {
    enum Item: Equatable, CustomStringConvertible {
        case short(ShortMessage)
        case sysex([UInt8], terminated: Bool)

        var description: String {
            switch self {
            case .short(let m): hexString([m.status, m.data1, m.data2])
            case .sysex(let bytes, let terminated): "sysex(\(bytes.count) bytes\(terminated ? "" : ", unterminated"))"
            }
        }
    }

    /// SplitMix64: reproducible streams, the seed is in the failure message.
    typealias Random = SplitMix64

    static func parse(_ bytes: [UInt8]) -> [Item] {
        var parser = MIDIParser()
        return parser.parse(bytes).map { message in
            if case .systemExclusive(let sysex) = message {
                return .sysex([0xF0] + sysex.data + (sysex.isTerminated ? [0xF7] : []), terminated: sysex.isTerminated)
            }
            return .short(message.shortMessage!)
        }
    }

    static func throughALSA(_ bytes: [UInt8], bufferSize: Int) -> [Item] {
        var coder: OpaquePointer?
        guard snd_midi_event_new(bufferSize, &coder) == 0, let coder else { return [] }
        defer { snd_midi_event_free(coder) }
        var decoder = ALSAEventDecoder()
        var items: [Item] = []
        for byte in bytes {
            var event = snd_seq_event_t()
            guard snd_midi_event_encode_byte(coder, Int32(byte), &event) == 1 else { continue }
            decoder.decode(event) { input in
                switch input {
                case .message(let m): items.append(.short(m))
                case .sysex(let bytes, let terminated): items.append(.sysex(bytes, terminated: terminated))
                case .announcement: break
                }
            }
        }
        decoder.finish { _ in }
        return items
    }

    /// A well-formed stream of `count` messages.
    static func stream(count: Int, random: inout Random) -> [UInt8] {
        var bytes: [UInt8] = []
        var running: UInt8 = 0
        func data() -> UInt8 { UInt8.random(in: 0...127, using: &random) }
        func maybeRealTime() {
            if Int.random(in: 0..<8, using: &random) == 0 {
                bytes.append([0xF8, 0xFA, 0xFB, 0xFC, 0xFE, 0xFF].randomElement(using: &random)!)
            }
        }
        for _ in 0..<count {
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<14:  // channel message, running status half the time it is possible
                let kind = [0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0].randomElement(using: &random)! as UInt8
                let status = kind | UInt8.random(in: 0...15, using: &random)
                let fresh = Int.random(in: 0..<4, using: &random) == 0 ? status : running == 0 ? status : running
                if fresh != running || Bool.random(using: &random) { bytes.append(fresh) }
                running = fresh
                maybeRealTime()
                bytes.append(data())
                if (fresh & 0xE0) != 0xC0 {
                    maybeRealTime()
                    // Velocity 0 now and then: a note-on that means note-off.
                    bytes.append(fresh & 0xF0 == 0x90 && Int.random(in: 0..<5, using: &random) == 0 ? 0 : data())
                }
            case 14..<16:  // system common cancels running status
                let status = [0xF1, 0xF2, 0xF3, 0xF6].randomElement(using: &random)! as UInt8
                bytes.append(status)
                running = 0
                if status != 0xF6 { maybeRealTime(); bytes.append(data()) }
                if status == 0xF2 { bytes.append(data()) }
            case 16..<18:
                bytes.append([0xF8, 0xFA, 0xFB, 0xFC, 0xFE, 0xFF].randomElement(using: &random)!)
            default:  // sysex, real-time bytes inside
                bytes.append(0xF0)
                running = 0
                for _ in 0..<Int.random(in: 0...300, using: &random) {
                    bytes.append(data())
                    maybeRealTime()
                }
                bytes.append(0xF7)
            }
            maybeRealTime()
        }
        return bytes
    }

    @Test(arguments: [32, 256, 4096])
    func randomStreamsGiveTheSameMessages(alsaBufferSize: Int) {
        for seed in UInt64(1)...40 {
            var random = Random(seed: seed)
            let bytes = Self.stream(count: 300, random: &random)
            let ours = Self.parse(bytes)
            let alsa = Self.throughALSA(bytes, bufferSize: alsaBufferSize)
            #expect(ours.count > 250)
            guard ours != alsa else { continue }
            let first = zip(ours, alsa).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ours.count, alsa.count)
            Issue.record("seed \(seed), ALSA buffer \(alsaBufferSize): first difference at message \(first): ours \(ours.dropFirst(first).prefix(3)), ALSA \(alsa.dropFirst(first).prefix(3)) (\(ours.count) vs \(alsa.count) messages)")
        }
    }

    @Test func noteOnVelocityZeroStaysANoteOnInBoth() {
        let bytes: [UInt8] = [0x90, 60, 100, 60, 0]
        let expected: [Item] = [.short(ShortMessage(status: 0x90, data1: 60, data2: 100)), .short(ShortMessage(status: 0x90, data1: 60, data2: 0))]
        #expect(Self.parse(bytes) == expected)
        #expect(Self.throughALSA(bytes, bufferSize: 256) == expected)
    }

    @Test func sysexEndedByAStatusByteIsDeliveredUnterminatedByUsAndDroppedByALSA() {
        let bytes: [UInt8] = [0xF0, 1, 2, 3, 0x90, 60, 100]
        let note = Item.short(ShortMessage(status: 0x90, data1: 60, data2: 100))
        #expect(Self.parse(bytes) == [.sysex([0xF0, 1, 2, 3], terminated: false), note])
        #expect(Self.throughALSA(bytes, bufferSize: 256) == [note])
    }
}
