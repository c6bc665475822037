// The song player's side of the real-time path: its events carry the frame at which they take effect, and the
// callback applies each at that frame of its period. Real-time rules as in RealtimeContext.swift; the release
// build checks every @_noLocks function.
import DSP
import MIDI
import Realtime

extension RealtimeContext {
    /// Applies the player's events due before `end` (a frame offset in this period): for each, the synth renders
    /// up to its frame, then gets it, as a JACK MIDI event at that offset. An event whose frame has passed is
    /// applied where the period stands (frame 0 when called first) and counted in `playerLate`; one due in a later
    /// period waits in `pendingPlayerEvent`. The JACK callback calls this before each JACK MIDI event (with its
    /// offset) and once with the period's length; the ALSA PCM period once.
    @_noLocks
    func playEvents(before end: Int, _ output: inout PeriodRenderer, _ period: Period) {
        let start = currentPeriodStart
        while true {
            let event: PlayerEvent
            if let pending = pendingPlayerEvent {
                event = pending
            } else {
                var next: PlayerEvent?
                rtPlayer._withUnsafeGuaranteedRef { next = $0.pop() }
                guard let popped = next else { return }
                event = popped
            }
            // Loaded after the pop: the reader stores a new generation before it pushes that generation's events.
            if event.generation != playerGeneration.load(ordering: .acquiring) {
                pendingPlayerEvent = nil
                if event.message.isSystemExclusive { discardPlayerSysex(Int(event.sysexLength)) }
                continue
            }
            // Wrapping distance: frame times wrap at 2^32 frames (about a day at 48 kHz).
            let distance = Int(Int32(bitPattern: event.frameTime &- start))
            let late = distance < 0
            let offset = late ? 0 : distance
            guard offset < end else {
                pendingPlayerEvent = event
                return
            }
            pendingPlayerEvent = nil
            if late { counters.playerLate.wrappingAdd(1, ordering: .relaxed) }
            render(&output, upTo: offset, period)
            let frameTime = start &+ UInt32(truncatingIfNeeded: max(offset, output.rendered))
            if event.message.isSystemExclusive {
                deliverQueuedSysex(length: Int(event.sysexLength), from: rtPlayerSysex, source: .player,
                                   frameTime: frameTime, midiOpen: period.midiOpen, toSynth: event.toSynth)
            } else {
                deliver(event.message, source: .player, frameTime: frameTime, midiOpen: period.midiOpen,
                        sysexLength: 0, queued: 0, toSynth: event.toSynth)
            }
        }
    }

    /// The bytes of a sysex event dropped unplayed, taken from the player's byte ring so the next one's follow.
    @_noLocks
    private func discardPlayerSysex(_ length: Int) {
        for _ in 0..<length {
            var next: UInt8?
            rtPlayerSysex._withUnsafeGuaranteedRef { next = $0.pop() }
            if case .none = next { return }
        }
    }
}
