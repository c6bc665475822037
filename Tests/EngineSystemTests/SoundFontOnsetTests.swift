import Bench
import Foundation
import Testing

/// Onsets over JACK with a SoundFont: Backbeat (`--soundfont`) and FluidSynth on the same font play the same
/// notes from one `jack_midiseq`, recorded together by one `jack_rec`, so both channels share a timeline.
/// Backbeat starts each note at its event's frame; FluidSynth ignores the frame offsets and starts every note
/// at the start of the period its event falls in (measured: 6 and 145 frames before Backbeat's onsets, the
/// events' offsets into their periods).
extension JACK.JackIntegrationTests {
    static let timGM6mb = "/usr/share/sounds/sf2/TimGM6mb.sf2"

    @Test(.needsFluidSynth, .needs(file: timGM6mb, package: "timgm6mb-soundfont"))
    func soundFontNotesStartAtTheirFrameWhereFluidSynthsStartAtThePeriod() throws {
        // 0 and 48011 frames into a 96000-frame loop (2 s, so the piano's release has died before the next
        // note): 48011 is not a multiple of the 256-frame period.
        let server = try JackTestServer()
        defer { server.stop() }
        let sequencer = try startSequencer(server: server, loop: 96_000, notes: [(0, 69, 2400), (48_011, 69, 2400)])
        defer { sequencer.signal(SIGTERM) }
        // FluidSynth plays dry (-R 0 -C 0), so Backbeat does too: a reverb tail would fill the silence the onsets are found in.
        let backbeat = try startBackbeat(server: server.name, ["--no-autoconnect", "--connect-midi", "seq:out", "--soundfont", Self.timGM6mb, "--no-reverb", "--no-chorus"])
        defer { backbeat.signal(SIGTERM) }
        // FluidSynth's shell keeps it running while its stdin is open: ReferenceClient holds it open.
        let fluidsynth = try #require(try ReferenceClient.start(["fluidsynth", "-a", "jack", "-m", "jack", "-R", "0", "-C", "0", "-r", "48000",
                                                                 "-o", "audio.jack.id=fluid", "-o", "midi.jack.id=fluid",
                                                                 "-o", "audio.jack.autoconnect=0", Self.timGM6mb],
                                                                server: server.name, waitingFor: "fluid:midi_00"))
        defer { fluidsynth.stop() }
        try server.waitForPort("fluid:left")
        #expect(try run("/usr/bin/jack_connect", ["seq:out", "fluid:midi_00"], server: server.name).status == 0)
        // FluidSynth loads the font after its ports appear and says nothing when done (no signal to wait
        // for): let one loop go by before recording; a note it still missed would fail the counts below.
        Thread.sleep(forTimeInterval: 2.5)

        // Under a loaded machine an xrun can make the sequencer's loop lag a whole period behind the clock
        // (seen in CI: 73 xruns in 6 s, every distance one period off): record again, up to three times,
        // when xruns happened and the distances are not the events' own.
        var ours: [Int] = [], theirs: [Int] = [], xruns = 0
        for attempt in 1...3 {
            let path = temporary.appendingPathComponent("sf-onsets-\(attempt).wav").path
            let xrunsBefore = try xrunCount(backbeat)
            let result = try run("/usr/bin/jack_rec", ["-f", path, "-d", "6", "-b", "32", "-B", "262144", "backbeat:out_L", "fluid:left"], server: server.name)
            xruns = try xrunCount(backbeat) - xrunsBefore
            #expect(result.status == 0 && !result.output.contains("overrun"), "jack_rec: \(result.output)")
            let recording = try WAVRecording(path: path)
            // An onset needs 4000 silent frames before it: one in the recording's first 4000 frames may be a
            // release tail crossing the threshold, not a note's start.
            ours = AudioAnalysis.onsets(recording.channels[0], threshold: 1e-6, quietFrames: 4000).filter { $0 >= 4000 }
            theirs = AudioAnalysis.onsets(recording.channels[1], threshold: 1e-6, quietFrames: 4000).filter { $0 >= 4000 }
            let exactDistances = zip(ours.dropFirst(), ours).filter { [48_011, 47_989].contains($0 - $1) }.count
            if xruns == 0 || exactDistances >= 2 { break }
            print("SoundFont onsets over JACK: \(xruns) xruns spoilt attempt \(attempt) (onsets \(ours))")
        }
        let distances = zip(ours.dropFirst(), ours).map { $0 - $1 }
        let lateness = ours.compactMap { onset in theirs.first { abs($0 - onset) < 512 }.map { $0 - onset } }
        print("SoundFont onsets over JACK: backbeat \(ours), distances \(distances); fluidsynth \(theirs), relative to backbeat's \(lateness); period \(server.period), \(xruns) xruns")
        #expect(distances.count >= 3, "onsets found: \(ours)")
        // Backbeat: every distance exactly 48011 or 47989 frames, unless an xrun spoilt it in a way an xrun can.
        let exact = expectDistances(between: ours, eachOf: [48_011, 47_989], period: server.period, xruns: xruns)
        #expect(exact >= 2, "backbeat's onset distances \(distances), \(xruns) xruns while recording")
        #expect(distances.contains { abs($0 - 48_011) <= 1 })
        // FluidSynth: every onset at the start of a period, so the distances between its onsets are whole
        // periods (47872 or 48128 frames), never the events' 48011 or 47989, and each onset is 0 to 255
        // frames before Backbeat's (the event's offset into its period). An xrun may spoil one of each.
        let theirDistances = zip(theirs.dropFirst(), theirs).map { $0 - $1 }
        #expect(theirs.count >= 3, "fluidsynth's onsets: \(theirs)")
        let wholePeriods = theirDistances.filter { min($0 % server.period, server.period - $0 % server.period) <= 1 }.count
        #expect(wholePeriods >= max(2, theirDistances.count - 1), "fluidsynth's onset distances \(theirDistances)")
        let withinPeriod = lateness.filter { $0 <= 0 && $0 > -server.period }.count
        #expect(withinPeriod >= max(2, lateness.count - 1), "fluidsynth's onsets relative to backbeat's: \(lateness)")
        #expect(lateness.contains { $0 < -1 }, "fluidsynth matched Backbeat's exact onsets: \(lateness)")
        // Both synths hear each event in the same cycle, so what an xrun does to the sequencer moves both alike:
        // Backbeat's lead over FluidSynth differs between the two notes by the events' offsets into their
        // periods (0 and 48011 % 256 = 139 frames).
        // An onset an xrun moved spoils the two leads it is part of (seen in CI: 108 xruns in 6 s, lateness
        // [-6, -145, 250, -145, -6, -145]: three leads of 139 and two of 395).
        let leads = zip(lateness.dropFirst(), lateness).map { abs($0 - $1) }
        let spoilable = xruns > 0 ? 2 : 1
        #expect(leads.filter { abs($0 - 48_011 % server.period) <= 1 }.count >= max(2, leads.count - spoilable),
                "backbeat's lead over fluidsynth \(lateness), \(xruns) xruns")
    }
}
