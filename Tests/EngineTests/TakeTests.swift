import Foundation
import Testing
@testable import Engine
import MIDI
import DSP

/// Issue 21: a take is a normal Standard MIDI File (clock as tempo, transport as markers, format 1 per port)
/// that starts with the channel state in effect.
@Suite struct TakeTests {
    let rate = 48_000.0

    func event(_ seconds: Double, _ bytes: [UInt8], source: MIDISource = .jack) -> MonitorEvent {
        MonitorEvent(frameTime: UInt32((seconds * rate).rounded()), message: ShortMessage(status: bytes[0], data1: bytes.count > 1 ? bytes[1] : 0,
                                                                                            data2: bytes.count > 2 ? bytes[2] : 0),
                     source: source, lost: false)
    }

    /// A clock at `bpm` from `from` for `seconds`, with Start first.
    func clock(bpm: Double, from: Double, seconds: Double) -> [MonitorEvent] {
        let interval = 60 / (bpm * 24)
        return [event(from, [0xFA])] + (0..<Int(seconds / interval)).map { event(from + Double($0) * interval, [0xF8]) }
    }

    func messages(_ file: StandardMIDIFile) -> [(seconds: Double, track: Int, message: MIDIMessage)] {
        file.timedEvents().compactMap { if case .message(let m) = $0.event { ($0.seconds, $0.track, m) } else { nil } }
    }

    @Test func clockBecomesTempoAndTransportBecomesMarkers() throws {
        var recording = MIDIRecording(sampleRate: rate, startFrame: 0)
        var events = clock(bpm: 132, from: 0.1, seconds: 4)
        events += [event(0.1 + 60.0 / 132, [0x90, 60, 100]), event(0.1 + 2 * 60.0 / 132, [0x80, 60, 0]),
                   event(1, [0xFE]), event(1.5, [0xF6]), event(2, [0xF2, 0x10, 0x00]), event(3.9, [0xFC])]
        events.sort { $0.frameTime < $1.frameTime }
        for e in events { recording.add(e, message: MIDIMessage(e.message)) }
        let bytes = recording.fileBytes()
        let file = try StandardMIDIFile(bytes: bytes)
        #expect(file.format == 1 && file.division == .ticksPerQuarterNote(960))
        #expect(file.tracks.count == 2, "a tempo track and the JACK port's")
        // No clock, active sensing or tune request bytes are stored: no escape events at all.
        let all = file.tracks.flatMap { $0 }
        #expect(!all.contains { if case .escape = $0.event { true } else { false } })
        let tempos = all.compactMap { if case .meta(let m) = $0.event { m.tempo } else { nil } }
        #expect(tempos.first == 500_000, "120 BPM until the clock is measured")
        #expect(tempos.dropFirst().count == 1, "one tempo for a steady clock: \(tempos)")
        #expect(abs(60_000_000 / Double(tempos.last!) - 132) < 0.2, "\(tempos)")
        let markers = all.compactMap { if case .meta(let m) = $0.event, m.type == 0x06 { m.text } else { nil } }
        #expect(markers == ["Start", "Song Position 16", "Stop"])
        // The notes land on beats 1 and 2 of the clock's bars: ticks 960 and 1920 after the first clock tick.
        let notes = file.tracks[1].filter { if case .message(.noteOn) = $0.event { true } else if case .message(.noteOff) = $0.event { true } else { false } }
        let tempoTick = file.tracks[0].first { if case .meta(let m) = $0.event { m.tempo != nil && m.tempo != 500_000 } else { false } }!.tick
        #expect(notes.map { Int($0.tick) - Int(tempoTick) }.allSatisfy { [960, 1920].contains($0) || abs($0 - 960) <= 2 || abs($0 - 1920) <= 2 },
                "\(notes.map(\.tick)) after \(tempoTick)")
        // Seconds through the tempo map are the times played.
        let timed = messages(file).filter { if case .noteOn = $0.message { true } else { false } }
        #expect(abs(timed[0].seconds - (0.1 + 60.0 / 132)) < 0.002, "\(timed[0].seconds)")
    }

    @Test func aChangingClockWritesAtMostOneTempoPerBar() {
        var track = ClockTempoTrack()
        var written: [(Double, UInt32)] = []
        var t = 0.0
        // 100 bars accelerating from 100 to 150 BPM, a tick at a time.
        for i in 0..<(96 * 100) {
            let bpm = 100 + 50 * Double(i) / 9600
            if let set = track.receive(0xF8, at: t) { written.append((set.seconds, set.microseconds)) }
            t += 60 / (bpm * 24)
        }
        #expect(written.count <= 101 && written.count > 20, "\(written.count)")
        for pair in zip(written, written.dropFirst()) {
            #expect(abs(Double(pair.1.1) - Double(pair.0.1)) > 0.005 * Double(pair.0.1))
        }
        // A steady clock: one.
        var steady = ClockTempoTrack()
        let sets = (0..<960).compactMap { steady.receive(0xF8, at: Double($0) * 60 / (132 * 24)) }
        #expect(sets.count == 1 && sets[0].seconds == 0)
    }

    /// Issue 36: a demo take had Set Tempo 119.681 then 120.968 4 ms later. Ticks quantised to 256-frame
    /// periods (as the demo's and many senders' are) move a beat's span by up to 1 %; the tempo is now the
    /// least-squares slope of the window, so a steady clock gives one tempo, however its ticks fall.
    @Test(arguments: [64, 256, 1024])
    func aSteadyClockQuantisedToPeriodsGivesOneTempo(period: Int) throws {
        for bpm in [90.0, 120.0, 133.0] {
            var recording = MIDIRecording(sampleRate: rate, startFrame: 0)
            let interval = 60 / (bpm * 24)
            // A tick lands at the start of the period it fell in: up to a period late.
            func quantised(_ seconds: Double) -> Double { (seconds * rate / Double(period)).rounded(.down) * Double(period) / rate }
            var events = (0..<Int(20 / interval)).map { event(quantised(0.013 + Double($0) * interval), [0xF8]) }
            events += (0..<20).map { event(quantised(0.5 + Double($0) * 0.9), [0x90, 60, 100]) }
            events.sort { $0.frameTime < $1.frameTime }
            for e in events { recording.add(e, message: MIDIMessage(e.message)) }
            let file = try StandardMIDIFile(bytes: recording.fileBytes())
            let tempos = file.tracks.flatMap { $0 }.compactMap { if case .meta(let m) = $0.event { m.tempo } else { nil } }
            #expect(tempos.dropFirst().count == 1, "\(bpm) BPM in \(period)-frame periods: \(tempos.map { 60_000_000 / Double($0) })")
            #expect(abs(60_000_000 / Double(tempos.last ?? 1) - bpm) < bpm * 0.005, "\(tempos)")
        }
    }

    /// Issue 36: "saved 246 MIDI events" for a file holding 79 (clock ticks were counted); and the take's End
    /// of Track was at its last event (3.3 s) where the press that stopped it came later (the audio take ran
    /// 4.5 s): it is at the stop now, in every track.
    @Test func theTakeCountsWhatItHoldsAndEndsAtTheStop() throws {
        var recording = MIDIRecording(sampleRate: rate, startFrame: 0)
        var events = clock(bpm: 120, from: 0.1, seconds: 3)
        events += [event(1, [0x90, 60, 100]), event(2, [0x80, 60, 0]), event(2.5, [0xFE]), event(3.3, [0xB0, 7, 90])]
        events.sort { $0.frameTime < $1.frameTime }
        for e in events { recording.add(e, message: MIDIMessage(e.message)) }
        #expect(recording.count == events.count, "every message received")
        #expect(recording.written == 4, "Start as a marker and three channel messages, not \(recording.written)")
        recording.end(atFrame: UInt32(4.5 * rate))
        recording.add(event(4.6, [0x90, 62, 100]), message: MIDIMessage(ShortMessage(status: 0x90, data1: 62, data2: 100)))
        #expect(recording.written == 4, "nothing after the end")
        func ends(_ file: StandardMIDIFile) -> [Double] {
            file.timedEvents().compactMap { if case .meta(let m) = $0.event, m.isEndOfTrack { $0.seconds } else { nil } }
        }
        let file = try StandardMIDIFile(bytes: recording.fileBytes())
        #expect(ends(file).count == file.tracks.count && ends(file).allSatisfy { abs($0 - 4.5) < 0.002 }, "End of Track at \(ends(file)) s")
        // The streaming writer, batch by batch, leaves the same file.
        let folder = try makeTemporaryDirectory("backbeat-take-end")
        let path = folder.appendingPathComponent("take.mid").path
        let writer = try SMFStreamWriter(path: path)
        var again = MIDIRecording(sampleRate: rate, startFrame: 0)
        for e in events { again.add(e, message: MIDIMessage(e.message)); try writer.append(again.takeEvents()) }
        again.end(atFrame: UInt32(4.5 * rate))
        try writer.append(again.takeEvents(all: true))
        let streamed = try StandardMIDIFile(bytes: try writer.contents())
        #expect(ends(streamed).count == 1 && abs(ends(streamed)[0] - 4.5) < 0.002, "\(ends(streamed))")
        #expect(SMFStreamWriter.finished(try writer.contents(), options: MIDITakeOptions()) == recording.fileBytes())
    }

    @Test func channelStateIsRestoredAtTheStart() throws {
        var channels = ChannelStateTracker()
        let before: [[UInt8]] = [[0xB1, 0, 2], [0xB1, 32, 1], [0xC1, 40], [0xB1, 7, 90], [0xB1, 74, 20], [0xB1, 101, 0], [0xB1, 100, 0],
                                 [0xB1, 6, 12], [0xB1, 101, 127], [0xB1, 100, 127], [0xE1, 0, 0x50], [0xB1, 1, 9], [0xB1, 121, 0],
                                 [0xB1, 1, 3]]
        for b in before { channels.apply(MIDIMessage(ShortMessage(status: b[0], data1: b[1], data2: b.count > 2 ? b[2] : 0))!) }
        #expect(channels[1].controllers[74] == nil, "Reset All Controllers cleared the cutoff (74), kept volume (7)")
        #expect(channels[1].program == 40 && channels[1].controllers[7] == 90 && channels[1].bend == nil, "121 reset the bend")
        #expect(channels[1].bendRange?.semitones == 12)
        var recording = MIDIRecording(sampleRate: rate, startFrame: 0, channels: channels)
        let on = event(0.5, [0x91, 64, 100])
        recording.add(on, message: MIDIMessage(on.message))
        let file = try StandardMIDIFile(bytes: recording.fileBytes())
        let setup = messages(file).filter { $0.seconds == 0 }.map(\.message)
        func cc(_ c: UInt8, _ v: UInt8) -> MIDIMessage { .controlChange(ControlChange(channel: 1, controller: c, value: v)) }
        #expect(setup == [cc(0, 2), cc(32, 1), .programChange(ProgramChange(channel: 1, program: 40)),
                          cc(1, 3), cc(7, 90), cc(10, 64), cc(11, 127), cc(64, 0), cc(91, 40), cc(93, 0),
                          cc(101, 0), cc(100, 0), cc(6, 12), cc(38, 0), cc(101, 127), cc(100, 127)], "\(setup)")
        // A channel first played during the take gets its state (here: power-on, program 3) at tick 0 too, in
        // both formats (streamed just before its first event, moved when the take is finished).
        for format in [1, 0] {
            var fresh = MIDIRecording(sampleRate: rate, startFrame: 0, options: MIDITakeOptions(format: format),
                                      setup: { $1.setupMessages(channel: $0, program: 3) })
            let later = event(1, [0x92, 60, 1])
            fresh.add(later, message: MIDIMessage(later.message))
            let freshFile = try StandardMIDIFile(bytes: fresh.fileBytes())
            let played = messages(freshFile)
            #expect(played.first?.message == .programChange(ProgramChange(channel: 2, program: 3)) && played.first?.seconds == 0, "format \(format)")
            #expect(played.filter { $0.seconds > 0 }.map(\.message) == [MIDIMessage(later.message)], "format \(format): \(played)")
            // No private marks are left in the finished file.
            let metas = freshFile.tracks.flatMap { $0 }.compactMap { e -> StandardMIDIFile.MetaEvent? in if case .meta(let m) = e.event { m } else { nil } }
            #expect(!metas.contains { $0.type == StandardMIDIFile.MetaType.sequencerSpecific }, "format \(format)")
        }
    }

    @Test func builtInSynthWritesTheProgramThatSelectsThePatchPlaying() {
        let synth = DSP.Synth(voices: 4, patch: 2) // square bass, a named patch: program 32 stands for it
        let first = UInt8(SynthPatch.program(forPatch: 2) ?? -1)
        #expect(first == 32)
        var state = ChannelState()
        #expect(CaptureController.setup(channel: 0, state: state, synth: synth).contains(.programChange(ProgramChange(channel: 0, program: first))))
        state.apply(.programChange(ProgramChange(channel: 0, program: 40)))  // violin: strings, not what plays
        #expect(CaptureController.setup(channel: 0, state: state, synth: synth).contains(.programChange(ProgramChange(channel: 0, program: first))))
        let strings = DSP.Synth(voices: 4, patch: SynthPatch.generalMIDI(program: 40))
        #expect(CaptureController.setup(channel: 0, state: state, synth: strings).contains(.programChange(ProgramChange(channel: 0, program: 40))))
        state.apply(.programChange(ProgramChange(channel: 0, program: 35)))  // fretless bass: its own patch
        let fretless = DSP.Synth(voices: 4, patch: SynthPatch.generalMIDI(program: 35))
        #expect(CaptureController.setup(channel: 0, state: state, synth: fretless).contains(.programChange(ProgramChange(channel: 0, program: 35))))
        #expect(CaptureController.setup(channel: 0, state: state, synth: synth).contains(.programChange(ProgramChange(channel: 0, program: first))))
    }

    @Test func sysexSplitAcrossPacketsIsF0ThenF7() throws {
        var recording = MIDIRecording(sampleRate: rate, startFrame: 0)
        recording.add(.systemExclusive(SystemExclusive(data: [0x43, 0x10], isTerminated: false)), at: 0.1, port: 0)
        recording.add(.systemExclusive(SystemExclusive(data: [0x4C, 0x00], isTerminated: true)), at: 0.2, port: 0)
        recording.add(.systemExclusive(SystemExclusive(data: [0x7E, 0x7F, 0x09, 0x01])), at: 0.3, port: 0)
        let file = try StandardMIDIFile(bytes: recording.fileBytes())
        let kinds = file.tracks.flatMap { $0 }.compactMap { e -> String? in
            switch e.event {
            case .sysex(let s): "F0 \(s.data) \(s.isTerminated)"
            case .escape(let b): "F7 \(b)"
            default: nil
            }
        }
        #expect(kinds == ["F0 [67, 16] false", "F7 [76, 0, 247]", "F0 [126, 127, 9, 1] true"])
    }

    @Test func format0AndRawKeepOneTrack() throws {
        for options in [MIDITakeOptions(format: 0), MIDITakeOptions(format: 0, raw: true)] {
            var recording = MIDIRecording(sampleRate: rate, startFrame: 0, options: options)
            for e in [event(0.1, [0xF8]), event(0.2, [0x90, 60, 1], source: .demo), event(0.3, [0x90, 61, 1])] {
                recording.add(e, message: MIDIMessage(e.message))
            }
            let file = try StandardMIDIFile(bytes: recording.fileBytes())
            #expect(file.format == 0 && file.tracks.count == 1)
            let escapes = file.tracks[0].filter { if case .escape = $0.event { true } else { false } }
            #expect(escapes.count == (options.raw ? 1 : 0), "raw keeps the clock byte")
        }
        // Format 1: a track per port, named, in the order they first played.
        var recording = MIDIRecording(sampleRate: rate, startFrame: 0)
        for e in [event(0.2, [0x90, 60, 1], source: .demo), event(0.3, [0x90, 61, 1]), event(0.4, [0x80, 60, 0], source: .demo)] {
            recording.add(e, message: MIDIMessage(e.message))
        }
        let file = try StandardMIDIFile(bytes: recording.fileBytes())
        let names = file.tracks.map { $0.compactMap { if case .meta(let m) = $0.event, m.type == 3 { m.text } else { nil } }.first }
        #expect(names == ["tempo", "demo", "JACK midi_in"])
        #expect(file.tracks[1].filter { if case .message(.noteOn) = $0.event { true } else { false } }.count == 1)
        #expect(!file.tracks.flatMap { $0 }.contains { if case .meta(let m) = $0.event { m.type == 0x7F } else { false } }, "port marks removed")
    }

    @Test func anEmptyTakeIsNotSaved() throws {
        let directory = try makeTemporaryDirectory("backbeat-take")
        let path = directory.appendingPathComponent("empty.mid").path
        let capture = CaptureController(engine: Engine(options: EngineOptions(), log: { _ in }))
        try capture.startMIDIRecording(to: path)
        let summary = try #require(try capture.stopMIDIRecording())
        #expect(summary.message == "nothing recorded: no MIDI arrived, so no take was saved to \(path)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
