import DSP
import Foundation
import Testing
import TestSupport
@testable import TUI

/// The preset browser's SFZ instruments (`instrument_dir`), on the cell grid: the folder's `.sfz` files after
/// the programs, found by name; a chosen one is loaded on a thread of its own and handed to the engine, and
/// what went wrong (a sample missing, an engine that cannot change) is said on the status line.
@Suite struct InstrumentBrowserTests {
    func workstation(_ folder: String) -> Workstation {
        let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
        w.instrumentDirectory = folder
        w.tick(now: 0)
        w.handle(.tab, layout: nil, now: 0)  // meters
        w.handle(.tab, layout: nil, now: 0)  // synth
        return w
    }

    /// Ticks until the status line says something other than `loading`, at most 10 s (the loader thread's
    /// result is what it waits for).
    func settle(_ w: Workstation) -> String {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            w.tick(now: 0)
            if !w.statusMessage.hasPrefix("loading") { return w.statusMessage }
            usleep(2_000)
        }
        return w.statusMessage
    }

    @Test func theFoldersInstrumentsAreOfferedAndLoadedOffTheScreensThread() throws {
        let folder = try makeTemporaryDirectory("bbinstruments").path
        try "<region> sample=*sine\n".write(toFile: folder + "/Tenor.sfz", atomically: true, encoding: .utf8)
        try "<region> sample=missing.wav\n".write(toFile: folder + "/broken.sfz", atomically: true, encoding: .utf8)
        try "not an instrument".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        #expect(InstrumentLoad.files(in: folder) == ["broken.sfz", "Tenor.sfz"])
        #expect(InstrumentLoad.files(in: folder + "/none").isEmpty)
        #expect(InstrumentLoad.defaultDirectory(environment: ["XDG_DATA_HOME": "/d"]) == "/d/backbeat/instruments")

        let w = workstation(folder)
        w.handle(.enter, layout: nil, now: 0)
        let browser = try #require(w.browser)
        #expect(browser.presets.count == 130, "128 programs and 2 instruments")
        for c in "sfz" { w.handle(.char(c), layout: nil, now: 0) }
        #expect(w.browser?.matches.map { w.browser!.presets[$0].label } == ["    SFZ broken.sfz", "    SFZ Tenor.sfz"])

        // A sample missing: said with the file and line that wants it.
        w.handle(.enter, layout: nil, now: 0)
        #expect(w.statusMessage.hasPrefix("loading broken.sfz for channel 1"))
        let broken = settle(w)
        #expect(broken.contains("instrument not loaded") && broken.contains("missing.wav") && broken.contains("broken.sfz:1"), "\(broken)")

        // One that loads, on an engine that cannot change instrument (the tests' own): said, nothing changed.
        w.handle(.enter, layout: nil, now: 0)
        for c in "tenor.sfz" { w.handle(.char(c), layout: nil, now: 0) }
        w.handle(.enter, layout: nil, now: 0)
        let refused = settle(w)
        #expect(refused == "instrument Tenor.sfz not loaded: this engine was not started for live instrument changes", "\(refused)")
    }
}
