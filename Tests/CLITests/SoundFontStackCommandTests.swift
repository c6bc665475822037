// Stacked fonts from the command line: `--soundfont A --soundfont B` (B on top, as FluidSynth stacks the
// fonts it loads), the GS fallback's warning once per channel, `soundfont info A B`. Debian's FluidR3_GS.sf2 is
// an add-on to FluidR3_GM.sf2 (GS variation banks and sound effects, no bank 0): alone it has no flute; on
// top of FluidR3_GM the flute comes from the font below.
import Foundation
import MIDI
import Testing
import TestSupport

enum StackFonts {
    static let directory = "/usr/share/sounds/sf2/"
    static let timGM = directory + "TimGM6mb.sf2", fluidGM = directory + "FluidR3_GM.sf2", fluidGS = directory + "FluidR3_GS.sf2"
    static var fluidsynth: String? { FluidSynthComparison.fluidsynth }

    /// `backbeat render` of `midi` through `fonts` (bottom first); the WAV's mono mix and the run's stderr.
    static func render(_ midi: [UInt8], fonts: [String], name: String) throws -> (samples: [Float], stderr: String) {
        let directory = try makeTemporaryDirectory("stack-\(name)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("in.mid").path, out = directory.appendingPathComponent("out.wav").path
        try Data(midi).write(to: URL(fileURLWithPath: file))
        let result = try backbeat(["render", file, "-o", out, "--voices", "256"] + fonts.flatMap { ["--soundfont", $0] })
        guard result.status == 0 else { throw HarnessError("backbeat render exited \(result.status): \(result.stderr)") }
        return (AudioComparison.mono(try WAVRecording(path: out)), result.stderr)
    }

    /// `fluidsynth -F` of `midi` with `fonts` in that order (reverb and chorus off, 48 kHz).
    static func fluidsynthRender(_ midi: [UInt8], fonts: [String], name: String) throws -> [Float] {
        let directory = try makeTemporaryDirectory("stack-fluid-\(name)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("in.mid").path, out = directory.appendingPathComponent("out.wav").path
        try Data(midi).write(to: URL(fileURLWithPath: file))
        let result = try run(fluidsynth!, ["-ni", "-R", "0", "-C", "0", "-r", "48000", "-F", out] + fonts + [file])
        guard result.status == 0 else { throw HarnessError("fluidsynth exited \(result.status): \(result.output)") }
        return AudioComparison.mono(try WAVRecording(path: out))
    }

    /// The flute's A4 of GeneralMIDITestFiles.melodic(): frequency and strength over its steady part.
    static func fluteA4(_ samples: [Float]) -> (frequency: Double, strength: Double, level: Double) {
        let note = GeneralMIDITestFiles.melodicNotes.first { $0.program == 73 && $0.key == 69 }!
        let steady = AudioComparison.slice(samples, from: note.start + 0.3, to: note.end - 0.1, rate: 48_000)
        let found = AudioComparison.strongestFrequency(steady, rate: 48_000, low: 440 * 0.97, high: 440 * 1.03)
        return (found.frequency, found.strength, AudioComparison.rms(steady))
    }
}

@Suite struct SoundFontStackCommandTests {
    @Test(.needs(file: StackFonts.fluidGM, package: "fluid-soundfont-gm"), .needs(file: StackFonts.fluidGS, package: "fluid-soundfont-gs"),
          .needsFluidSynth)
    func fluidR3GSOnTopOfFluidR3GMPlaysTheFluteAtA4AsFluidSynthDoes() throws {
        let midi = GeneralMIDITestFiles.melodic()
        let ours = try StackFonts.render(midi, fonts: [StackFonts.fluidGM, StackFonts.fluidGS], name: "gs-on-gm")
        let theirs = try StackFonts.fluidsynthRender(midi, fonts: [StackFonts.fluidGM, StackFonts.fluidGS], name: "gs-on-gm")
        let a = StackFonts.fluteA4(ours.samples), b = StackFonts.fluteA4(theirs)
        let cents = 1200 * log2(a.frequency / 440), apart = 1200 * log2(a.frequency / b.frequency)
        print(String(format: "flute A4, FluidR3_GS on FluidR3_GM: backbeat %.2f Hz (%.2f cents, strength %.2f), fluidsynth %.2f Hz (strength %.2f), apart %.2f cents",
                     a.frequency, cents, a.strength, b.frequency, b.strength, apart))
        #expect(a.strength > 0.03, "no component near 440 Hz (strength \(a.strength))")
        #expect(abs(cents) < 5 && abs(apart) < 5)
        // The flute (0:73) is in the lower font only: found there, so nothing is substituted, nothing said.
        #expect(!ours.stderr.contains("warning"), "\(ours.stderr)")
        // The GS font alone has no bank 0: the flute channel is silent and says so.
        let alone = try StackFonts.render(midi, fonts: [StackFonts.fluidGS], name: "gs-alone")
        #expect(StackFonts.fluteA4(alone.samples).level < 1e-4)
        #expect(alone.stderr.contains("warning: channel 1: the font has no bank 0 program 0, nor a preset to fall back on"),
                "\(alone.stderr)")
    }

    @Test(.needs(file: StackFonts.timGM, package: "timgm6mb-soundfont"), .needs(file: StackFonts.fluidGM, package: "fluid-soundfont-gm"),
          .needsFluidSynth)
    func theLaterFontIsOnTopAsInFluidSynth() throws {
        // Both fonts have the flute: the stack plays the top one's, in both orders, as FluidSynth does.
        let midi = GeneralMIDITestFiles.melodic()
        let note = GeneralMIDITestFiles.melodicNotes.first { $0.program == 73 && $0.key == 69 }!
        func bands(_ samples: [Float]) -> [Double] {
            AudioComparison.bandEnergies(AudioComparison.slice(samples, from: note.start + 0.3, to: note.end - 0.1, rate: 48_000), rate: 48_000)
        }
        for order in [[StackFonts.timGM, StackFonts.fluidGM], [StackFonts.fluidGM, StackFonts.timGM]] {
            let top = order[1].split(separator: "/").last!
            let stacked = bands(try StackFonts.render(midi, fonts: order, name: "order-\(top)").samples)
            let alone = bands(try StackFonts.render(midi, fonts: [order[1]], name: "alone-\(top)").samples)
            let below = bands(try StackFonts.render(midi, fonts: [order[0]], name: "below-\(top)").samples)
            let reference = bands(try StackFonts.fluidsynthRender(midi, fonts: order, name: "order-\(top)"))
            let rTop = AudioComparison.pearson(stacked, alone), rBelow = AudioComparison.pearson(stacked, below)
            let rFluid = AudioComparison.pearson(stacked, reference)
            print(String(format: "%@ on top: flute spectrum r = %.4f with the top font alone, %.4f with the one below, %.4f with fluidsynth's stack", String(top), rTop, rBelow, rFluid))
            #expect(stacked == alone, "the stack's flute is the top font's")
            #expect(rFluid > 0.9)
        }
    }

    @Test(.needs(file: StackFonts.timGM, package: "timgm6mb-soundfont"), .needs(file: StackFonts.fluidGS, package: "fluid-soundfont-gs"))
    func aBankNoFontHasFallsBackAndRenderWarnsOncePerChannel() throws {
        // Channel 1 asks for bank 50 (no font has it) and plays three notes; channel 3 plays 0:0 (TimGM6mb);
        // channel 2 asks for 2:122 (FluidR3_GS's thunder); channel 10 asks for kit 60 (no font has it).
        var events: [(seconds: Double, message: MIDIMessage)] = [
            (0, .controlChange(.init(channel: 0, controller: 0, value: 50))),
            (0, .programChange(.init(channel: 0, program: 0))),
            (0, .controlChange(.init(channel: 1, controller: 0, value: 2))),
            (0, .programChange(.init(channel: 1, program: 122))),
            (0, .programChange(.init(channel: 9, program: 60))),
        ]
        for (i, channel) in [UInt8(0), 0, 0, 1, 2, 9].enumerated() {
            let t = 0.1 + Double(i) * 0.3
            events.append((t, .noteOn(.init(channel: channel, note: channel == 9 ? 38 : 60, velocity: 100))))
            events.append((t + 0.2, .noteOff(.init(channel: channel, note: channel == 9 ? 38 : 60, velocity: 0))))
        }
        let result = try StackFonts.render(StandardMIDIFile.format0(events), fonts: [StackFonts.timGM, StackFonts.fluidGS], name: "fallback")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("warning") }
        print(warnings.joined(separator: "\n"))
        #expect(warnings.count == 2, "\(result.stderr)")
        #expect(warnings.contains { $0.contains("channel 1: no font of the stack has bank 50 program 0; playing 000:000") && $0.contains("TimGM6mb.sf2") })
        #expect(warnings.contains { $0.contains("channel 10: no font of the stack has drum kit 128:60; playing 128:000") })
        #expect(AudioComparison.rms(AudioComparison.slice(result.samples, from: 0.1, to: 0.3, rate: 48_000)) > 1e-3, "the fallback plays")
    }

    @Test(.needs(file: StackFonts.timGM, package: "timgm6mb-soundfont"), .needs(file: StackFonts.fluidGS, package: "fluid-soundfont-gs"))
    func soundfontInfoShowsTheStackAndWhatIsShadowed() throws {
        let result = try backbeat(["soundfont", "info", StackFonts.timGM, StackFonts.fluidGS, StackFonts.fluidGS])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "stack: 3 fonts, the last named on top; a preset is looked up from the top down")
        #expect(lines.contains("font 3 (top): \(StackFonts.fluidGS)") && lines.contains("font 1 (bottom): \(StackFonts.timGM)"))
        // The middle font is the same as the top one: all of its 33 presets shadowed.
        #expect(lines.contains("presets: 33, 0 played, 33 shadowed"))
        #expect(lines.contains("1:120 Gtr. Cut Noise (shadowed by FluidR3_GS.sf2)"))
        #expect(lines.contains("presets: 33, 33 played, 0 shadowed"))
        let json = try backbeat(["soundfont", "info", "--json", StackFonts.timGM, StackFonts.fluidGS])
        #expect(json.status == 0)
        #expect(json.stdout.contains(#""type":"stack","fonts":2"#))
        #expect(json.stdout.contains(#""layer":1,"top":true"#))
        // A font that does not load names itself, as for one font.
        let broken = try backbeat(["soundfont", "info", StackFonts.timGM, "/nonexistent.sf2"])
        #expect(broken.status == 2 && broken.stderr.contains("/nonexistent.sf2: cannot open"))
    }
}
