// JACK's side of the real-time path: the callbacks libjack calls, and the period with MIDI at frame offsets.
// Real-time rules as in Core/RealtimeContext.swift; the release build checks every @_noLocks function.
import CJack
import MIDI
import Realtime

/// The JACK ports a callback reads and writes. Replaced only while no client is active.
struct JackPorts: BitwiseCopyable {
    var client: OpaquePointer
    var midiIn: OpaquePointer
    var midiOut: OpaquePointer
    var outLeft: OpaquePointer
    var outRight: OpaquePointer
    /// `Synth.channelOutputCount` ports (`--outputs channels`, JackChannelPorts.swift), or nil.
    var channelOuts: UnsafeMutablePointer<OpaquePointer>?
}

extension RealtimeContext {
    /// One JACK period. Control rings first (at frame 0), then JACK MIDI and the song player's events at their
    /// frame offsets, in frame order (the player's first at equal frames): the synth renders up to each event's
    /// frame, so an event at offset k changes the sound at frame k. Then the
    /// period's outgoing MIDI (queued as it was applied, so in frame order) goes to midi_out.
    @_noLocks
    func process(frames: Int) {
        guard let ports = ports else { return }
        let outLeft = backbeat_rt_port_buffer(ports.outLeft, jack_nframes_t(frames)).assumingMemoryBound(to: Float.self)
        let outRight = backbeat_rt_port_buffer(ports.outRight, jack_nframes_t(frames)).assumingMemoryBound(to: Float.self)
        let midiBuffer = backbeat_rt_port_buffer(ports.midiIn, jack_nframes_t(frames))
        let periodStart = backbeat_rt_last_frame_time(ports.client)
        let period = beginPeriod(periodStart: periodStart)
        if ports.channelOuts != nil { rtSynth._withUnsafeGuaranteedRef { $0.startChannelOutputs() } }

        var output = PeriodRenderer(left: outLeft, right: outRight, frames: frames, chunk: maxFrames)
        let count = backbeat_rt_midi_event_count(midiBuffer)
        var index: UInt32 = 0
        while index < count {
            var event = jack_midi_event_t()
            if backbeat_rt_midi_event_get(&event, midiBuffer, index) == 0, event.size > 0, let bytes = event.buffer {
                playEvents(before: Int(event.time) + 1, &output, period)
                render(&output, upTo: Int(event.time), period)
                receive(bytes: bytes, size: event.size, frameTime: periodStart &+ event.time, midiOpen: period.midiOpen)
            }
            index += 1
        }
        playEvents(before: frames, &output, period)
        finishPeriod(period, &output)
        if let channelOuts = ports.channelOuts { writeChannelOutputs(channelOuts, frames: frames, audioOpen: period.audioOpen) }
        writeMIDIOut(backbeat_rt_port_buffer(ports.midiOut, jack_nframes_t(frames)), frames: frames)
    }

    /// Clears midi_out's buffer (JACK requires it every period) and writes the queued messages at their
    /// offsets. One JACK cannot take (its buffer is full) is counted in `midiOutDropped`.
    @_noLocks
    func writeMIDIOut(_ buffer: UnsafeMutableRawPointer, frames: Int) {
        backbeat_rt_midi_clear_buffer(buffer)
        var failed = 0
        let last = UInt32(max(frames - 1, 0))
        rtMIDIOut._withUnsafeGuaranteedRef { failed = writeJackMIDI($0, to: buffer, lastFrame: last) }
        if failed > 0 { counters.midiOutDropped.wrappingAdd(failed, ordering: .relaxed) }
    }
}

/// Writes `queue`'s events into a cleared JACK MIDI buffer; returns how many JACK refused.
@_noLocks
private func writeJackMIDI(_ queue: MIDIOutQueue, to buffer: UnsafeMutableRawPointer, lastFrame: UInt32) -> Int {
    var failed = 0
    var index = 0
    let count = queue.count
    while index < count {
        let event = queue[index]
        var bytes: (UInt8, UInt8, UInt8) = (event.message.status, event.message.data1, event.message.data2)
        let size = midiMessageSize(status: event.message.status)
        let written = withUnsafeMutablePointer(to: &bytes) { tuple in
            tuple.withMemoryRebound(to: UInt8.self, capacity: 3) {
                backbeat_rt_midi_event_write(buffer, min(event.offset, lastFrame), $0, size)
            }
        }
        if written != 0 { failed += 1 }
        index += 1
    }
    return failed
}

/// JACK's process callback: a free function, outside any actor, reaching the context without retain/release.
@_noLocks
func backbeatProcessCallback(_ frames: jack_nframes_t, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    guard let argument else { return 0 }
    Unmanaged<RealtimeContext>.fromOpaque(argument)._withUnsafeGuaranteedRef { $0.process(frames: Int(frames)) }
    return 0
}

/// JACK's xrun callback (called on JACK's thread): count only.
@_noLocks
func backbeatXrunCallback(_ argument: UnsafeMutableRawPointer?) -> Int32 {
    guard let argument else { return 0 }
    _ = Unmanaged<RealtimeContext>.fromOpaque(argument)._withUnsafeGuaranteedRef {
        $0.counters.xruns.wrappingAdd(1, ordering: .relaxed)
    }
    return 0
}

/// JACK's shutdown callback (the server went away): flag it for the supervisor.
func backbeatShutdownCallback(_ code: jack_status_t, _ reason: UnsafePointer<CChar>?, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<RealtimeContext>.fromOpaque(argument)._withUnsafeGuaranteedRef { $0.serverGone.open() }
}

