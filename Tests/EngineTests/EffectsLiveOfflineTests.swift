// Issue 22: with the send effects on (the default) and sounding, live and offline stay sample-identical.
// The live half is SysexPathTests' period loop (the JACK callback's steps without a server).
@testable import Engine
import DSP
import Foundation
import MIDI
import Testing

@Suite struct EffectsLiveOfflineTests {
    @Test func liveAndOfflineStaySampleIdenticalWithReverbAndChorus() {
        // Frames off the period grid; reverb and chorus sends raised, notes overlapping, a send changed
        // while they sound, then the tails.
        let events: [(frame: Int, bytes: [UInt8])] = [
            (10, [0xB0, 91, 127]), (10, [0xB0, 93, 100]), (10, [0xB1, 91, 60]),
            (1_000, [0x90, 69, 100]), (1_000, [0x91, 64, 90]), (7_777, [0xB0, 93, 20]),
            (9_001, [0x80, 69, 0]), (13_000, [0x90, 72, 110]), (17_777, [0x80, 72, 0]), (20_001, [0x81, 64, 0]),
        ]
        let frames = 96_000
        let (live, offline) = SysexPathTests.expectLiveEqualsOffline(events, frames: frames)
        let timed = SysexPathTests.timed(events)
        // The effects sounded: a reverb tail after the last voice ended (sine keys: 0.3 s release).
        #expect(AudioAnalysis.rmsDecibels(live[48_000..<60_000]) > -80, "no reverb tail")
        let dry = OfflineRenderer.render(timed, sampleRate: SysexPathTests.rate, periodFrames: 256, padding: 0,
                                         reverb: false, chorus: false).left
        // The render's tail: to the voices' end dry; wet, on while the reverb is audible (QuietTail: -90 dBFS).
        let wet = OfflineRenderer.render(timed, sampleRate: SysexPathTests.rate, periodFrames: 256, padding: 0).left
        #expect(dry.count < 48_000, "dry render of \(dry.count) frames")
        #expect(wet.count > dry.count + 12_000, "the wet render's tail stops at \(wet.count) frames")
        #expect(AudioAnalysis.rmsDecibels(wet[(wet.count - 2_560)...]) > -110, "the wet render ends on the audible tail")
        #expect(offline.count >= frames)
    }
}
