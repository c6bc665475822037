import DSP
import Engine
import MIDI
import Testing
@testable import TUI
import TextOutput

@Suite struct GridAndTextTests {
    @Test func putClipsToLimitAndGrid() {
        var g = Grid(width: 10, height: 2)
        let end = g.put(8, 0, "abcdef")
        #expect(g.row(0) == "        ab")
        #expect(end == 10)
        g.put(0, 1, "hello", limit: 3)
        #expect(g.row(1) == "hel       ")
    }

    @Test func controlCharactersNeverReachTheGrid() {
        var g = Grid(width: 20, height: 1)
        g.put(0, 0, "a\u{1B}[31mb\u{07}\u{9B}c")
        #expect(g.allPrintable)
        #expect(!g.row(0).contains("\u{1B}"))
    }

    @Test func sanitizedEscapesControlsAndBidi() {
        #expect(TerminalText.sanitized("port\u{1B}]0;pwned\u{07}") == "port\\x1B]0;pwned\\x07")
        #expect(TerminalText.sanitized("a\\b") == "a\\\\b")
        #expect(TerminalText.sanitized("x\u{202E}y") == "x\\u{202E}y")
        #expect(TerminalText.sanitized("\u{85}") == "\\x85")
        #expect(TerminalText.sanitized(bytes: [0x41, 0x1B, 0x5B, 0x7F]) == "A\\x1B[\\x7F")
        #expect(TerminalText.sanitized("Ünïcode ok") == "Ünïcode ok")
    }

    @Test func boxDrawsCornersAndTitle() {
        var g = Grid(width: 12, height: 3)
        g.box(Rect(x: 0, y: 0, width: 12, height: 3), title: "Hi", glyphs: .ascii)
        #expect(g.row(0) == "+- Hi -----+")
        #expect(g.row(1) == "|          |")
        #expect(g.row(2) == "+----------+")
    }
}

@Suite struct LayoutTests {
    @Test(arguments: [(80, 24), (120, 40), (200, 60), (300, 100), (81, 25)])
    func panelsFitWithoutOverlap(width: Int, height: Int) throws {
        let layout = try #require(Layout.compute(width: width, height: height))
        let rects = [layout.header, layout.status, layout.monitor, layout.meters, layout.synth, layout.keyboard, layout.lifecycle].filter { !$0.isEmpty }
        for r in rects {
            #expect(r.x >= 0 && r.y >= 0 && r.maxX <= width && r.maxY <= height, "\(r) outside \(width)x\(height)")
        }
        for (i, a) in rects.enumerated() {
            for b in rects[(i + 1)...] {
                let overlap = a.x < b.maxX && b.x < a.maxX && a.y < b.maxY && b.y < a.maxY
                #expect(!overlap, "\(a) overlaps \(b)")
            }
        }
        #expect(layout.keyboard.width == width)
        #expect(layout.monitor.height >= 10)
    }

    @Test func tooSmallBelowTheMinimum() {
        #expect(Layout.compute(width: 79, height: 24) == nil)
        #expect(Layout.compute(width: 80, height: 23) == nil)
        var g = Grid(width: 20, height: 6)
        Layout.drawTooSmall(into: &g)
        #expect(g.contains("terminal too small"))
        #expect(g.contains("(need 80x24)"))
        var wide = Grid(width: 60, height: 10)
        Layout.drawTooSmall(into: &wide)
        #expect(wide.row(5).trimmingCharacters(in: .whitespaces) == "terminal too small (need 80x24)")
    }

    @Test(arguments: [(80, 24), (200, 60)])
    func workstationDrawsEveryPanel(width: Int, height: Int) {
        let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
        w.tick(now: 0)
        let g = render(w, width, height)
        for title in ["MIDI monitor", "Meters", "Synth", "Keyboard", "Backbeat", "active"] { #expect(g.contains(title), "\(title) at \(width)x\(height)") }
        #expect(g.allPrintable)
    }
}

@Suite struct MeterTests {
    @Test func scaleMapsDecibelsLinearly() {
        #expect(MetersPanel.cells(for: 0, width: 60) == 60)
        #expect(MetersPanel.cells(for: -60, width: 60) == 0)
        #expect(MetersPanel.cells(for: -40, width: 100) == 15)
        #expect(MetersPanel.cells(for: -20, width: 100) == 40)
        #expect(MetersPanel.cells(for: -30, width: 100) == 28)
        #expect(MetersPanel.cells(for: -6, width: 100) == 82)
        #expect(MetersPanel.cells(for: -12, width: 100) == 64)
        #expect(MetersPanel.cells(for: -70, width: 60) == 0)
        // Monotonic: a louder signal never lights fewer cells.
        var last = 0
        for tenth in -700...30 {
            let n = MetersPanel.cells(for: Float(tenth) / 10, width: 37)
            #expect(n >= last)
            last = n
        }
        #expect(MetersPanel.cells(for: 3, width: 60) == 60)
        #expect(MetersPanel.cells(for: -.infinity, width: 60) == 0)
        #expect(MetersPanel.column(ofMark: 0, width: 40) == 39)
        #expect(MetersPanel.column(ofMark: -60, width: 40) == 0)
    }

    @Test func liveMetersComputePeakRMSHoldClipAndLoudness() throws {
        var m = LiveMeters()
        #expect(m.loudness == LoudnessReadout())  // nothing measured: "--"
        // A full-scale square wave left, half scale right, for a second: peak, RMS, clip, LUFS, true peak.
        for _ in 0..<188 {
            m.consume(PeriodMeasure(frames: 256, peakLeft: 1, peakRight: 0.5, sumSquaresLeft: 256, sumSquaresRight: 64,
                                 kSumSquaresLeft: 256, kSumSquaresRight: 64, truePeakLeft: 1, truePeakRight: 0.5), sampleRate: 48_000)
        }
        m.advance(to: 0)
        #expect(abs(m.channels[0].peakDB) < 0.01)
        #expect(abs(m.channels[0].rmsDB) < 0.01)
        #expect(m.channels[0].clip)
        #expect(abs(m.channels[1].peakDB - -6.02) < 0.05)
        #expect(!m.channels[1].clip)
        let momentary = try #require(m.loudness.momentaryLUFS)
        #expect(momentary > -1 && momentary < 1, "\(momentary)")  // -0.691 + 10 log10(1 + 0.25) ≈ +0.3 LUFS
        #expect(m.loudness.shortTermLUFS != nil)
        #expect(abs((m.loudness.truePeakDB ?? -99)) < 0.01)
        // Silence: the clip latch stays until reset; the hold stays for 2 s.
        m.consume(PeriodMeasure(frames: 256, peakLeft: 0, peakRight: 0, sumSquaresLeft: 0, sumSquaresRight: 0), sampleRate: 48_000)
        m.advance(to: 0.5)
        #expect(m.channels[0].clip)
        #expect(abs(m.channels[0].holdDB) < 0.01)
        m.resetClip()
        #expect(!m.channels[0].clip)
    }

    @Test func loudnessLineShowsMomentaryShortTermAndTruePeak() {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        #expect(render(w).contains("M -- · S -- · I -- LUFS · TP -- dBTP"))
        for _ in 0..<200 {
            engine.pending.append(.meter(PeriodMeasure(frames: 256, peakLeft: 0.5, peakRight: 0.5, sumSquaresLeft: 32, sumSquaresRight: 32,
                                                    kSumSquaresLeft: 32, kSumSquaresRight: 32, truePeakLeft: 0.5, truePeakRight: 0.5)))
        }
        w.tick(now: 0)
        w.tick(now: 0.05)
        let g = render(w)
        // Half-scale square on both channels: mean square 0.125 each, -0.691 + 10 log10(0.25) = -6.7 LUFS.
        #expect(g.contains("M -6.7 · S -6.7"), "\((0..<g.height).map(g.row).joined(separator: "\n"))")
        #expect(g.contains("TP -6.0 dBTP"))
        w.handle(.char("x"), layout: nil, now: 0.1)
        #expect(w.statusMessage.contains("reset"))
    }

    final class FakeActions: WorkstationActions {
        var demo = false
        var recorded: [(MonitorEvent, MIDIMessage?)] = []
        var current: [Recording] = []
        func toggleDemo() -> String { demo.toggle(); return demo ? "demo on" : "demo off" }
        func toggleMIDIRecording() -> String { "midi" }
        func toggleAudioRecording() -> String { "audio" }
        var demoPlaying: Bool { demo }
        func record(_ event: MonitorEvent, message: MIDIMessage?) { recorded.append((event, message)) }
        func recordings() -> [Recording] { current }
    }

    @Test func everyDrainedEventReachesTheCaptureAndAWriteFailureIsReported() {
        let engine = FakeEngine()
        let actions = FakeActions()
        let w = Workstation(engine: engine, settings: WorkstationSettings(), actions: actions)
        engine.midi(0x90, 60, 100)
        engine.pending.append(.meter(PeriodMeasure(frames: 256, peakLeft: 0, peakRight: 0, sumSquaresLeft: 0, sumSquaresRight: 0)))
        actions.current = [Recording(kind: "audio", path: "/full/take.wav", seconds: 2, failure: "No space left on device")]
        // A sysex reaches the capture whole (issue 27: takes lost every sysex): its payload from the sysex ring.
        engine.sysex = [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]
        engine.pending.append(.midi(MonitorEvent(frameTime: 10, message: ShortMessage(status: 0xF0), source: .jack, lost: false,
                                                 sysexLength: 6, sysexBytesQueued: 6)))
        w.tick(now: 0)
        #expect(actions.recorded.count == 2, "the two MIDI events; meters are not recorded")
        #expect(actions.recorded.first?.1 == .noteOn(NoteOn(channel: 0, note: 60, velocity: 100)))
        #expect(actions.recorded.last?.1 == .systemExclusive(SystemExclusive(data: [0x7E, 0x7F, 0x09, 0x01], isTerminated: true, isTruncated: false)))
        #expect(w.statusMessage.contains("audio recording stopped: No space left on device (what was captured so far is kept)"))
        #expect(render(w, 200, 60).row(0).contains("REC audio take.wav 2.0 s, write failed"))
        // D toggles the demo, and the lifecycle panel's demo stream follows.
        w.handle(.char("D"), layout: nil, now: 0.1)
        w.tick(now: 0.2)
        #expect(w.lifecycle.simulator.status(of: "demo")?.isOn == true)
    }

    @Test func headerShowsWhatIsRecording() {
        var info = HeaderInfo()
        info.connected = true
        info.recordings = [Recording(kind: "MIDI", path: "/tmp/take.mid", seconds: 3.25),
                           Recording(kind: "audio", path: "/tmp/take.wav", seconds: 3.2, failure: "disk full")]
        var g = Grid(width: 160, height: 1)
        HeaderPanel.draw(info, into: &g, rect: Rect(x: 0, y: 0, width: 160, height: 1), glyphs: .ascii)
        #expect(g.row(0).contains("REC MIDI take.mid 3.2 s · audio take.wav 3.2 s, write failed"), "\(g.row(0))")
        #expect(g.row(0).hasSuffix(" active "))
        var quiet = Grid(width: 160, height: 1)
        info.recordings = []
        HeaderPanel.draw(info, into: &quiet, rect: Rect(x: 0, y: 0, width: 160, height: 1), glyphs: .ascii)
        #expect(!quiet.row(0).contains("REC"))
    }

    @Test func panelShowsBarsScaleClipAndLoudness() {
        var g = Grid(width: 64, height: 6)
        let readouts = [MeterReadout(peakDB: -3, rmsDB: -10, holdDB: -1, clip: true), MeterReadout()]
        MetersPanel.draw(readouts, loudness: LoudnessReadout(momentaryLUFS: -14.2), into: &g, rect: Rect(x: 0, y: 0, width: 64, height: 6),
                         context: DrawContext(glyphs: .ascii, focused: false))
        #expect(g.row(1).contains("CLIP"))
        #expect(g.row(1).contains("-3.0 pk"))
        #expect(g.row(2).contains("-inf pk"))
        #expect(g.row(2).contains("clip"))
        for mark in ["0", "-6", "-12", "-20", "-60"] { #expect(g.row(3).contains(mark), "\(mark) in \(g.row(3))") }
        #expect(g.row(4).contains("M -14.2"))
        #expect(g.row(4).contains("S --"))
        #expect(g.row(1).contains("#"))
    }
}

@Suite struct HeaderTests {
    @Test func showsServerAndFiguresAndEscapesTheName() {
        var info = HeaderInfo()
        info.serverName = "evil\u{1B}[2J"
        info.serverPrivate = true
        info.driver = "dummy"
        info.connected = true
        info.sampleRate = 48_000; info.periodFrames = 256; info.dspLoad = 4.25; info.xruns = 3
        info.voicesInUse = 5; info.voiceCapacity = 64; info.midiPerSecond = 120; info.ringDrops = 2
        var g = Grid(width: 200, height: 1)
        HeaderPanel.draw(info, into: &g, rect: Rect(x: 0, y: 0, width: 200, height: 1), glyphs: .unicode)
        let row = g.row(0)
        for text in ["evil\\x1B[2J (private, dummy)", "48000 Hz", "period 256 5.3 ms", "DSP 4.2%", "xruns 3", "voices 5/64", "MIDI 120/s", "overflow 2", "active"] {
            #expect(row.contains(text), "\(text) in \(row)")
        }
        #expect(g.allPrintable)
    }
}

@Suite struct DriverTextTests {
    @Test func asciiStandInsCoverThePanelsCharacters() {
        for scalar in ["·", "│", "─", "—", "±", "▶", "…", "█", "▓", "▒", "●", "┌", "┐", "└", "┘", "┴", "é"] {
            let mapped = CursesDriver.ascii(Unicode.Scalar(scalar)!.value)
            #expect(mapped >= 0x20 && mapped < 0x7F, "\(scalar)")
        }
        #expect(CursesDriver.ascii(0xB7) == 0x7C)
    }
}
