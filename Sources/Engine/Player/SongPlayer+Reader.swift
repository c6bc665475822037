import Foundation
import MIDI

// The song player's reader thread: never the real-time thread. It schedules each song from a place (its start,
// or where a transport request put it), pushes its events ahead of their frames, and between batches sleeps on
// the condition, which a stop or a transport request wakes.
extension SongPlayer {
    func play() {
        let rate = Double(max(engine.sampleRate, 1))
        let window = Int(options.window * rate)
        var index = 0, from = 0.0
        var next: UInt32?  // where the next song starts when nothing interrupted: the last one's end
        var generation: UInt16 = 0
        var lastPushed: UInt32?
        var started = false
        var reset = ChannelReset()  // what the songs played so far changed, which the next reset puts back
        var live = (tempo: options.tempo > 0 && options.tempo.isFinite ? options.tempo : 1, transpose: 0)  // what the transport keys set
        if let first = queue.first, options.start != nil {
            var edit = SongEdit()
            edit.start = options.start
            from = min(edit.startSeconds(in: first, file: nil), first.duration)
        }
        while !queue.isEmpty && !stopping() {
            if index >= queue.count {
                guard options.loop else { break }
                index = 0
            }
            let whole = queue[index]
            var edit = SongEdit()
            edit.start = from > 0 ? .seconds(from) : nil
            edit.tempo = live.tempo
            edit.transpose = live.transpose
            var song = edit.apply(to: whole, file: nil)
            // An A/B loop's B ahead: the schedule ends there, and play goes back to A.
            let loopEnd = loopPoints(index: index).b.flatMap { $0 > from ? ($0 - from) / live.tempo : nil }
            if let loopEnd { song = Song(name: song.name, messages: song.messages.filter { $0.seconds < loopEnd }, duration: loopEnd) }
            guard let now = waitForFrameTime() else { break }
            let earliest = now &+ UInt32(leadFrames(rate: rate))
            let start = next.map { Int32(bitPattern: $0 &- earliest) >= 0 ? $0 : earliest } ?? earliest
            let schedule = SongSchedule(song, sampleRate: rate)
            condition.lock()
            current = Current(name: whole.name, index: index, start: start, offset: from, duration: whole.duration,
                              tempo: live.tempo, transpose: live.transpose)
            condition.unlock()
            if started {
                // Interrupted (the ring full when a stop or a request came): the events below see it and stop too.
                _ = resetChannels(at: start, generation: generation, reset: reset)
            }
            started = true
            reset.add(whole)
            for i in schedule.events.indices {
                let due = schedule.frameTime(of: i, start: start)
                guard waitUntil(due, isWithin: window), push(schedule, i, start: start, generation: generation) else { break }
                lastPushed = due
            }
            let end = start &+ UInt32(truncatingIfNeeded: schedule.length)
            // The next song is scheduled no further ahead than events are (a looped empty song would spin).
            if !pendingTransport() { _ = waitUntil(end, isWithin: window) }
            if stopping() { break }
            guard let taken = takeTransport() else {
                next = end
                if loopEnd != nil {
                    // At B: back to A, or on from B when the loop was cleared meanwhile.
                    let points = loopPoints(index: index)
                    from = points.b != nil ? points.a ?? 0 : from + (loopEnd ?? 0) * live.tempo
                    continue
                }
                index += 1
                from = 0
                clearLoop()
                continue
            }
            // What was pushed and not yet played is dropped; what sounds is released.
            let position = from + Double(Int32(bitPattern: (engine.frameTime() ?? start) &- start)) / rate * live.tempo
            generation &+= 1
            engine.context.playerGeneration.store(generation, ordering: .releasing)
            releaseChannels(at: (engine.frameTime() ?? start) &+ UInt32(leadFrames(rate: rate)), generation: generation)
            lastPushed = nil
            next = nil
            guard var resumed = place(after: taken, index: index, at: min(max(position, 0), whole.duration), in: whole, live: &live) else {
                break
            }
            // Requests that came meanwhile (keys pressed quickly) go together: one restart for all.
            while let more = takeTransport(), queue.indices.contains(resumed.index),
                  let then = place(after: more, index: resumed.index, at: resumed.from, in: queue[resumed.index], live: &live) {
                resumed = then
            }
            (index, from) = resumed
        }
        if stopping() {
            if let lastPushed { releaseChannels(at: lastPushed &+ 1, generation: generation) }
        } else if let next {
            _ = waitUntil(next, isWithin: 0)
        }
    }

    /// Where play goes on after `request`, taken at `position` (seconds) of song `index`: the song's place in
    /// the queue and the second to start from; a tempo or transposition request changes `live`. A pause waits
    /// here for the next request (resume: the same place); nil when a stop came meanwhile.
    private func place(after request: Transport, index: Int, at position: Double, in song: Song,
                       live: inout (tempo: Double, transpose: Int)) -> (index: Int, from: Double)? {
        var request = request
        if request == .togglePause {
            condition.lock()
            current?.offset = position
            current?.paused = true
            while !stopRequested && transport.isEmpty { condition.wait() }
            let next = transport.first
            if !transport.isEmpty { transport.removeFirst() }
            condition.unlock()
            guard let next else { return nil }
            if next == .togglePause { return (index, position) }
            request = next
        }
        switch request {
        case .togglePause:
            return (index, position)
        case .bars(let bars):
            if let clock = song.bars, let target = clock.seconds(atBar: max(clock.bar(at: position) + bars, 1)) {
                return (index, min(target, song.duration))
            }
            return (index, min(max(position + Double(bars) * 2, 0), song.duration))
        case .songs(let songs):
            clearLoop()
            return (max(index + songs, 0), 0)
        case .restart:
            return (index, 0)
        case .tempo(let percent):
            live.tempo = min(max((live.tempo * 100).rounded() + Double(percent), 25), 400) / 100
            return (index, position)
        case .transpose(let semitones):
            live.transpose = min(max(live.transpose + semitones, -24), 24)
            return (index, position)
        case .seek(let start):
            var edit = SongEdit()
            edit.start = start
            return (index, min(edit.startSeconds(in: song, file: nil), song.duration))
        case .loopHere:
            return (index, loopPoints(index: index).a ?? 0)
        }
    }

    /// The A/B loop's points for song `index` (none for another song's loop).
    func loopPoints(index: Int) -> (a: Double?, b: Double?) {
        condition.lock(); defer { condition.unlock() }
        guard let loop, loop.index == index else { return (nil, nil) }
        return (loop.a, loop.b)
    }

    func stopping() -> Bool {
        condition.lock(); defer { condition.unlock() }
        return stopRequested
    }

    /// Whether a transport request waits.
    func pendingTransport() -> Bool {
        condition.lock(); defer { condition.unlock() }
        return !transport.isEmpty
    }

    func takeTransport() -> Transport? {
        condition.lock(); defer { condition.unlock() }
        return transport.isEmpty ? nil : transport.removeFirst()
    }

    /// Sleeps on the condition for `seconds` (a stop or a transport request wakes it); false when either came.
    func sleep(_ seconds: Double) -> Bool {
        condition.lock(); defer { condition.unlock() }
        if !stopRequested && transport.isEmpty { _ = condition.wait(until: Date(timeIntervalSinceNow: max(seconds, 0.001))) }
        return !stopRequested && transport.isEmpty
    }

    /// The engine's frame time, waiting while no backend runs (JACK away); nil when stopping.
    func waitForFrameTime() -> UInt32? {
        while true {
            if let now = engine.frameTime() { return now }
            guard sleep(0.1) else { return nil }
        }
    }

    func leadFrames(rate: Double) -> Int {
        max(options.lead * engine.lastPeriodFrames, Int(0.02 * rate))
    }

    /// Waits until `frameTime` is at most `window` frames ahead of the engine's; false when a stop or a transport
    /// request came.
    func waitUntil(_ frameTime: UInt32, isWithin window: Int) -> Bool {
        let rate = Double(max(engine.sampleRate, 1))
        while true {
            guard let now = waitForFrameTime() else { return false }
            let ahead = Int(Int32(bitPattern: frameTime &- now)) - window
            if ahead <= 0 { return !stopping() && !pendingTransport() }
            // Half a window later: one wake-up pushes the next half window of events, each still at least half a
            // window ahead of its frame.
            guard sleep(Double(ahead) / rate + options.window / 2) else { return false }
        }
    }

    /// Pushes event `index` (a sysex's bytes first), waiting while the rings are full; false when interrupted.
    func push(_ schedule: SongSchedule, _ index: Int, start: UInt32, generation: UInt16) -> Bool {
        var event = schedule.playerEvent(index, start: start, toSynth: options.toSynth)
        event.generation = generation
        let sysex = schedule.events[index].sysex
        let bytes = engine.context.playerSysexRing
        if !sysex.isEmpty {
            // A sysex longer than the whole ring is none a synth answers: it is left out.
            guard sysex.count <= bytes.capacity else { return true }
            while bytes.capacity - bytes.count < sysex.count { guard sleep(0.005) else { return false } }
            _ = sysex.withUnsafeBufferPointer { bytes.push(contentsOf: $0) }
        }
        return pushEvent(event)
    }

    func pushEvent(_ event: PlayerEvent) -> Bool {
        let ring = engine.context.playerRing
        while ring.capacity - ring.count < 1 { guard sleep(0.005) else { return false } }
        return ring.push(event)
    }

    /// Before a song that follows another, or a place after a transport request: every channel the songs so far
    /// used put back as a fresh render starts it (`ChannelReset`; the chase then sets what the song set before
    /// that place). Waits while the ring is full (it is the reader thread); false when a stop or a request came.
    func resetChannels(at frameTime: UInt32, generation: UInt16, reset: ChannelReset) -> Bool {
        if reset.system {
            let bytes = engine.context.playerSysexRing
            while bytes.capacity - bytes.count < Self.gsReset.count { guard sleep(0.005) else { return false } }
            _ = Self.gsReset.withUnsafeBufferPointer { bytes.push(contentsOf: $0) }
            var event = PlayerEvent(frameTime: frameTime, message: ShortMessage(status: 0xF0, data1: 0, data2: 0),
                                    sysexLength: UInt32(Self.gsReset.count), toSynth: options.toSynth)
            event.generation = generation
            guard pushEvent(event) else { return false }
        }
        for (status, data1, data2) in reset.messages {
            var event = PlayerEvent(frameTime: frameTime, message: ShortMessage(status: status, data1: data1, data2: data2),
                                    toSynth: options.toSynth)
            event.generation = generation
            guard pushEvent(event) else { return false }
        }
        return true
    }

    /// Roland GS Reset: F0 41 10 42 12 40 00 7F 00 41 F7.
    static let gsReset: [UInt8] = [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]

    /// After a stop or a transport request: sustain lifted and all notes off on every channel.
    func releaseChannels(at frameTime: UInt32, generation: UInt16) {
        pushControllers([(64, 0), (123, 0)], at: frameTime, generation: generation)
    }

    /// Controller messages on every channel; what finds the ring full is left out (nothing waits here).
    private func pushControllers(_ controllers: [(UInt8, UInt8)], at frameTime: UInt32, generation: UInt16) {
        let ring = engine.context.playerRing
        for channel in UInt8(0)..<16 {
            for (controller, value) in controllers where ring.capacity - ring.count > 0 {
                var event = PlayerEvent(frameTime: frameTime, message: ShortMessage(status: 0xB0 | channel, data1: controller, data2: value),
                                        toSynth: options.toSynth)
                event.generation = generation
                _ = ring.push(event)
            }
        }
    }
}
