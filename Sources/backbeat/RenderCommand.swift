import ArgumentParser
import DSP
import Engine
import Foundation
import MIDI
import SystemPackage
import TextOutput

/// `backbeat render`: a Standard MIDI File through the synth, offline, to a WAV file.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a Standard MIDI File to WAV through the synth.",
        discussion: """
            Plays IN (format 0, 1 or 2, tempo map respected; format 2's tracks one after another) through the same synth and the same sample-accurate \
            event split as the live engine, as fast as the machine can, until every voice and the reverb and chorus tails have fallen silent. \
            Writes a stereo WAV of 32-bit float samples, streamed to disk in bounded memory; RF64 (64-bit \
            WAV) when the data passes 4 GiB. A regular file is written completely or not at all (Ctrl-C, \
            SIGTERM or SIGHUP leave neither it nor a temporary file); a device or FIFO is written into, and a \
            symbolic link's target is written, the link kept. The output may not be the input. \
            Patches: \(SynthPatch.numberedNames); every channel starts on General MIDI program 0's \
            (\(SynthPatch.defaultPatch) \(SynthPatch.builtIn[SynthPatch.defaultPatch].name)) unless --patch or --program says otherwise; \
            a program change in the file selects the patch nearest its General MIDI program and drum parts \
            (channel 10) play a built-in drum kit (docs/builtin-programs.md); with --soundfont they choose the \
            font's presets. \
            The render lasts until the file's last End-of-Track or the last release tail, whichever is later. \
            A file with faults plays what can be played: each kind of fault is one warning line on stderr with \
            its count and first byte offset (--strict refuses such a file instead). Exit code 2 for a missing, \
            unreadable or non-MIDI input (or any fault with --strict), one longer than --max-duration, or an \
            unwritable output; 128 + the signal when interrupted.
            """
    )

    @Argument(help: ArgumentHelp("The Standard MIDI File to render.", valueName: "in.mid"), completion: .file(extensions: ["mid", "midi", "smf", "kar"]))
    var input: String

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The WAV file to write.", valueName: "out.wav"), completion: .file(extensions: ["wav"]))
    var output: String

    @Option(parsing: .unconditional, help: "Sample rate in Hz (8000...384000).", transform: NumberArgument.whole(8_000...384_000))
    var rate: Int = 48_000

    @Option(parsing: .unconditional, help: "Voices that can sound at once (1...4096; 256 by default, as FluidSynth: a stereo SoundFont preset takes two voices a note).", transform: NumberArgument.whole(1...4096))
    var voices: Int = Synth.defaultVoices

    @Option(parsing: .unconditional, help: ArgumentHelp(PatchHelp.patch, valueName: "name|number"),
            completion: .list(SynthPatch.builtIn.map { $0.name.replacingOccurrences(of: " ", with: "-") }), transform: NumberArgument.patch)
    var patch: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(PatchHelp.program, valueName: "program"), transform: NumberArgument.whole(0...127))
    var program: Int?

    @Option(parsing: .unconditional, help: "Play only this MIDI channel (1...16); all channels by default.", transform: NumberArgument.whole(1...16))
    var channel: Int?

    @OptionGroup var sound: SoundArguments

    @OptionGroup(title: "Song") var changes: SongArguments

    @Option(name: .customLong("max-duration"), parsing: .unconditional,
            help: ArgumentHelp("Refuse a file longer than this (to its last event): 3h, 90m, 45s, 1h30m or seconds.",
                               valueName: "duration"),
            transform: { text in
                guard let seconds = HumanDuration.parse(text) else {
                    throw ValidationError("'\(text)' is not a duration: use e.g. 3h, 90m, 45s, 1h30m or plain seconds (0.1 s to 100000h)")
                }
                return seconds
            })
    var maxDuration: Double = 3_600

    @Flag(help: "After the summary, report on stderr the system exclusive messages received and those the synth ignored (with the first few ignored ones' bytes).")
    var report = false

    @Flag(help: "Refuse a file with any fault (exit 2 with its byte offset) instead of playing what can be played.")
    var strict = false

    func validate() throws {
        try PatchHelp.validate(patch: patch, program: program)
    }

    func run() throws {
        // Signals become a flag the render loop polls, so an interrupted render removes its temporary file.
        let signals = QuitSignals.install()
        let file: StandardMIDIFile
        do throws(MIDIFileInput.Refusal) { file = try MIDIFileInput.read(input, strict: strict, prefix: "backbeat render: ") } catch { throw failure(error.message) }
        OutputFile.protect(input)
        // --start, --tempo, --transpose, --mute, --solo: as `play` applies them.
        let whole = Song(name: input, file: file)
        if let refusal = changes.edit.startRefusal(for: whole, file: file) { throw failure(refusal) }
        let song = changes.edit.apply(to: whole, file: file)
        let messages = song.messages
        // Before anything is written: a few bytes of MIDI can ask for years of audio.
        let fileEnd = song.duration
        let duration = max(OfflineRenderer.duration(of: messages), fileEnd)
        guard duration <= maxDuration else {
            throw failure("'\(input)' lasts \(HumanDuration.format(duration)) (\(String(cFormat: "%.0f", duration)) s to its last event), "
                          + "longer than --max-duration \(HumanDuration.format(maxDuration)); raise --max-duration to render it")
        }

        // A broken font ends here, before the output is opened.
        let soundFont = sound.soundFont.isEmpty ? nil : SoundFontFile.loadOrExit(sound.soundFont, command: "render", sampleCacheMiB: sound.sampleCache)
        let font = InstrumentFile.loadOrExit(sound.instrument, over: soundFont, command: "render", sampleCacheMiB: sound.sampleCache)
        // A streamed instrument: between periods the render reads what the notes asked for (`catchUp`), so no
        // voice is late; the render waits for the disk instead (it is not real time).
        let streams = font?.stack.compactMap(\.sampleStream) ?? []
        // SoundFont 3: the samples the file reaches are decoded now, so a bad stream ends the render here.
        do {
            try OfflineRenderer.decodeSamples(messages, soundFont: font, channel: channel.map { UInt8($0 - 1) })
        } catch {
            throw failure(error.description)
        }

        let writer: WAVStreamWriter
        do {
            writer = try WAVStreamWriter(output: try OutputFile(path: output), sampleRate: rate)
        } catch {
            // A quit signal while a FIFO waited for its reader ends the render as one during it does.
            throw failure(error.description, code: signals.signal.map { 128 + $0 } ?? 2)
        }
        // A summary on stdout would land inside the audio when the output is stdout itself.
        let toStdout = Self.sameFile(writer.output.fd, STDOUT_FILENO)

        // On stderr, so stdout keeps its one summary line: the output is open and Ctrl-C is handled from here.
        Console.message("rendering '\(input)' (\(HumanDuration.format(duration)) to its last event) to '\(output)'", prefix: "backbeat render: ")

        struct Interrupted: Error { let signal: Int32 }
        let start = ContinuousClock.now
        var peak: Float = 0
        var rendered = OfflineRenderer.Report(sysexReceived: 0, sysexIgnored: 0)
        do {
            rendered = try OfflineRenderer.render(messages, sampleRate: Double(rate), voices: voices,
                                       patch: PatchHelp.startingPatch(patch: patch, program: program) ?? SynthPatch.defaultPatch,
                                       channel: channel.map { UInt8($0 - 1) }, soundFont: font, until: fileEnd,
                                       reverb: !sound.noReverb, chorus: !sound.noChorus,
                                       interpolation: sound.interpolation ?? .cubic,
                                       substitutions: { substitution in
                                           Console.message("warning: " + substitution.message(font), prefix: "backbeat render: ")
                                       }) { left, right in
                if let signal = signals.signal { throw Interrupted(signal: signal) }
                for store in streams { store.catchUp() }
                try writer.append(left: left.baseAddress!, right: right.baseAddress!, count: left.count)
                for i in 0..<left.count { peak = max(peak, abs(left[i]), abs(right[i])) }
            }
            try writer.close()
        } catch let interrupted as Interrupted {
            writer.discard()
            let name = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][interrupted.signal] ?? "signal \(interrupted.signal)"
            let kept = writer.output.isRegular ? "nothing was written to '\(output)'" : "'\(output)' got the first part only"
            throw failure("interrupted by \(name); \(kept)", code: 128 + interrupted.signal)
        } catch {
            writer.discard()
            throw failure(String(describing: error))
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(writer.frames) / Double(rate)
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let notes = messages.count { $0.message.kind == .noteOn && $0.message.data2 > 0 }
        let speed = wall > 0 ? String(cFormat: "%.0fx real time", seconds / wall) : "instant"
        // A silent render has no peak in decibels: -inf, as the meters say it.
        let peakText = peak > 0 ? String(cFormat: "%.1f", 20 * log10(Double(peak))) : "-inf"
        let summary = "\(output): \(counted(notes, "note")), " + String(cFormat: "%.2f", seconds)
            + " s of stereo 32-bit float at \(rate) Hz, peak \(peakText) dBFS (\(speed))"
        for store in font?.sampleStores ?? [] {
            let status = store.status
            guard status.missedNotes > 0 || status.overLimit > 0 else { continue }
            // `overLimit` counts distinct samples: the render asks for the file's samples twice (decodeSamples above,
            // then render).
            Console.message("\(counted(status.missedNotes, "voice")) did not sound (a note starts one per zone): \(status.overLimit) of the \(counted(status.requestedSamples, "sample")) the file needs did not fit in the sample cache (--sample-cache \(status.limitBytes >> 20) MiB)",
                            prefix: "backbeat render: ")
        }
        for store in streams {
            Console.message("streamed instrument: " + SampleStreamLoader.summary(store.status), prefix: "backbeat render: ")
        }
        if toStdout {
            Console.message(summary, prefix: "")
        } else {
            print(summary)
        }
        if report { Self.report(rendered, messages: messages) }
    }

    /// `--report`: the sysex the synth acted on and ignored; the first ignored ones by time and bytes.
    private static func report(_ rendered: OfflineRenderer.Report, messages: [TimedMessage]) {
        Console.message("system exclusive: \(rendered.sysexReceived) received, \(rendered.sysexReceived - rendered.sysexIgnored) obeyed, "
                        + "\(rendered.sysexIgnored) ignored", prefix: "backbeat render: report: ")
        let ignored = messages.filter { m in
            m.message.isSystemExclusive && m.sysex.withUnsafeBufferPointer { UniversalSystemExclusive($0) } == nil
        }
        for m in ignored.prefix(8) {
            let shown = m.sysex.count > 16 ? hexString(Array(m.sysex.prefix(16))) + " ... (\(counted(m.sysex.count, "byte")))" : hexString(m.sysex)
            Console.message(String(cFormat: "ignored at %.3f s: ", m.seconds) + shown, prefix: "backbeat render: report: ")
        }
        if ignored.count > 8 { Console.message("... and \(ignored.count - 8) more ignored", prefix: "backbeat render: report: ") }
    }

    /// Whether two descriptors are the same file.
    private static func sameFile(_ a: Int32, _ b: Int32) -> Bool {
        var x = stat(), y = stat()
        return fstat(a, &x) == 0 && fstat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Prints one clear line on stderr; the caller throws the returned exit code 2 (no stack trace).
    private func failure(_ message: String, code: Int32 = 2) -> ExitCode {
        Console.message(message, prefix: "backbeat render: ")
        return ExitCode(code)
    }
}
