// A stack of two real fonts, live and offline: the same period split as the JACK callback (SysexPathTests'
// `renderLive`, with the stacked font) against `OfflineRenderer`: sample-identical, with voices of both fonts
// sounding at once (TimGM6mb's piano and standard kit under FluidR3_GS's sound effects and SFX kit).
@testable import Engine
import DSP
import Foundation
import MIDI
import Testing
import TestSupport

private enum LiveStackFonts {
    static let bottom = "/usr/share/sounds/sf2/TimGM6mb.sf2", top = "/usr/share/sounds/sf2/FluidR3_GS.sf2"
}

@Suite(.needs(file: LiveStackFonts.bottom, package: "timgm6mb-soundfont"), .needs(file: LiveStackFonts.top, package: "fluid-soundfont-gs"))
struct SoundFontStackLiveTests {
    static let bottom = LiveStackFonts.bottom, top = LiveStackFonts.top
    static let rate = 48_000.0

    /// Piano on channel 1 (TimGM6mb: FluidR3_GS has no bank 0), rain (1:122, FluidR3_GS) on channel 2, the
    /// standard kit (TimGM6mb) then the SFX kit (128:56, FluidR3_GS) on channel 10; frames off the period grid.
    static let events: [(frame: Int, bytes: [UInt8])] = [
        (300, [0xB1, 0, 1]), (301, [0xC1, 122]), (500, [0xC9, 0]),
        (1_000, [0x90, 60, 100]), (1_000, [0x91, 64, 90]), (1_500, [0x99, 38, 110]),
        (9_001, [0xC9, 56]), (9_500, [0x99, 60, 110]), (13_000, [0x90, 67, 110]),
        (17_777, [0x80, 60, 0]), (18_000, [0x81, 64, 0]),
    ]

    static func offline(_ font: SoundFont) -> [Float] {
        OfflineRenderer.render(SysexPathTests.timed(events), sampleRate: rate, voices: 64, soundFont: font, periodFrames: 256, padding: 0).left
    }

    @Test func aStackRendersLiveAndOfflineSampleIdentical() throws {
        let stack = SoundFont.stacked([try SoundFont.load(path: Self.bottom), try SoundFont.load(path: Self.top)])
        let frames = 24_000
        let (_, offline) = SysexPathTests.expectLiveEqualsOffline(Self.events, frames: frames, soundFont: stack)
        // Both fonts sounded: without the top font, channel 2's rain and the SFX kit fall back to TimGM6mb's
        // 0:122 and standard kit, another sound.
        let alone = Self.offline(try SoundFont.load(path: Self.bottom))
        let differs = (0..<frames).first { alone[$0] != offline[$0] }
        #expect(differs != nil && differs! >= 1_000, "the top font's voices changed the sound from their note on (frame \(differs ?? -1))")
        #expect(AudioAnalysis.rmsDecibels(offline[1_000..<9_000]) > -40, "the piano (bottom font) sounds")
    }

    /// Issue 40: with the sinc interpolation too, live and offline are sample-identical, and not the cubic.
    @Test func theSincRendersLiveAndOfflineSampleIdentical() throws {
        let stack = SoundFont.stacked([try SoundFont.load(path: Self.bottom), try SoundFont.load(path: Self.top)])
        let frames = 24_000
        let (_, sinc) = SysexPathTests.expectLiveEqualsOffline(Self.events, frames: frames, soundFont: stack, interpolation: .sinc)
        let cubic = Self.offline(stack)
        #expect((1_000..<frames).contains { sinc[$0] != cubic[$0] })
        #expect(AudioAnalysis.rmsDecibels(sinc[1_000..<9_000]) > -40)
    }
}
