// One period's outgoing MIDI: what Backbeat plays from its own sources (computer keys, the piano strip, the
// demo) and, with `--midi-thru`, what came in, in the order the callback applied it. The JACK callback writes
// it to `midi_out` at the end of the period. Storage is allocated once, before the real-time thread starts;
// `append` never allocates and drops (counting) when the period's capacity is used up.
import MIDI
import Realtime

/// One outgoing message and its frame offset within the period.
struct MIDIOutEvent: BitwiseCopyable, Equatable {
    var offset: UInt32
    var message: ShortMessage
}

/// A fixed-capacity list of one period's outgoing messages, non-decreasing in `offset`.
final class MIDIOutQueue: @unchecked Sendable {
    let capacity: Int
    private let storage: FixedArray<MIDIOutEvent>
    /// Real-time thread only (or a test's thread).
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var dropped = 0

    init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
        storage = FixedArray(self.capacity, MIDIOutEvent(offset: 0, message: ShortMessage(status: 0, data1: 0, data2: 0)))
    }

    /// Empties the queue for a new period.
    @_noLocks
    func reset() { count = 0 }

    /// Appends at `offset`, clamped so offsets never go backwards (JACK requires non-decreasing times).
    /// False (and counted) when the queue is full.
    @_noLocks
    @discardableResult
    func append(offset: UInt32, _ message: ShortMessage) -> Bool {
        guard count < capacity else { dropped &+= 1; return false }
        let floor = count > 0 ? storage[count - 1].offset : 0
        storage[count] = MIDIOutEvent(offset: max(offset, floor), message: message)
        count += 1
        return true
    }

    @_noLocks
    subscript(index: Int) -> MIDIOutEvent { storage[index] }

    /// A copy of the queued events (tests and diagnostics; allocates).
    var events: [MIDIOutEvent] { (0..<count).map { storage[$0] } }
}

/// The length in bytes of a message with this status (no running status; sysex is not queued).
@_noLocks
func midiMessageSize(status: UInt8) -> Int {
    switch status {
    case 0xC0...0xDF, 0xF1, 0xF3: 2
    case 0xF6...0xFF: 1
    default: 3
    }
}
