// `backbeat render` against hostile and huge inputs and awkward outputs: the built binary, as a user meets it.
import Foundation
import Testing
import TestSupport
@testable import Engine

private func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let n = UInt32(body.count)
    return Array(type.utf8) + [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + body
}

private func vlq(_ value: Int) -> [UInt8] {
    var bytes = [UInt8(value & 0x7F)]
    var rest = value >> 7
    while rest > 0 { bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0); rest >>= 7 }
    return bytes
}

/// Format 0, 1000 ticks per quarter at the default 120 BPM (2000 ticks a second): a short note at the start
/// and one ending at `seconds`.
private func fileLasting(_ seconds: Double) -> [UInt8] {
    let ticks = Int((seconds - 0.2) * 2_000)
    let track: [UInt8] = [0x00, 0x90, 60, 100] + vlq(200) + [0x80, 60, 0]
        + vlq(ticks) + [0x90, 64, 100] + vlq(200) + [0x80, 64, 0] + [0x00, 0xFF, 0x2F, 0x00]
    return chunk("MThd", [0, 0, 0, 1, 0x03, 0xE8]) + chunk("MTrk", track)
}

/// A program run to its end with its peak resident memory (GNU time's %M, so only that program counts).
private struct MeasuredRun {
    var status: Int32
    var output: String
    var maxResidentKiB: Int
    var seconds: Double

    /// Runs under GNU time, which forks it from a small process: spawned straight from this test process
    /// (posix_spawn shares its memory until exec), the child's peak would start at the whole test run's.
    init(_ executable: String, _ arguments: [String], log: String) throws {
        let peakFile = log + ".peak"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = (["/usr/bin/time", "-f", "%M", "-o", peakFile, executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let start = ContinuousClock.now
        let spawned = posix_spawn(&pid, "/usr/bin/time", &actions, nil, argv, environ)
        guard spawned == 0 else { throw HarnessError("posix_spawn \(executable): \(String(cString: strerror(spawned)))") }
        var raw: Int32 = 0
        var usage = rusage()
        while wait4(pid, &raw, 0, &usage) < 0 {
            guard errno == EINTR else { throw HarnessError("wait4: \(String(cString: strerror(errno)))") }
        }
        let elapsed = ContinuousClock.now - start
        seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        let peak = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
        guard let kib = peak.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw HarnessError("/usr/bin/time wrote no peak to \(peakFile): '\(peak)'")
        }
        maxResidentKiB = kib
        output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    }
}

@Suite struct RenderLimitsTests: FolderTest {
    let directory: URL

    init() throws { directory = try makeTemporaryDirectory("backbeat-render") }

    /// 44 bytes: a tempo of 0xFFFFFF us per quarter note, one tick per quarter, and a note held for
    /// 0x0FFFFFFF ticks: about 143 years of audio, which render used to try to hold in memory.
    @Test func aHostile44ByteFileIsRefusedAtOnceWithItsDuration() throws {
        let track: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0xFF, 0xFF, 0xFF, 0x00, 0x90, 60, 100,
                              0xFF, 0xFF, 0xFF, 0x7F, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00]
        let bytes = chunk("MThd", [0, 0, 0, 1, 0, 1]) + chunk("MTrk", track)
        #expect(bytes.count == 44)
        let input = try write(bytes, "hostile.mid")
        let start = ContinuousClock.now
        let result = try run(backbeatExecutable(), ["render", input, "-o", path("out.wav")])
        #expect(ContinuousClock.now - start < .seconds(10), "refused before rendering")
        #expect(result.status == 2, "\(result.output)")
        let seconds = Double(0x0FFF_FFFF) * Double(0xFF_FFFF) / 1_000_000
        #expect(result.output.contains(HumanDuration.format(seconds)) && result.output.contains("--max-duration 1h"),
                "\(result.output)")
        #expect(contents == ["hostile.mid"], "nothing written: \(contents)")
    }

    @Test func aTempoOfZeroIsAnErrorNamingTrackAndOffset() throws {
        let tempo = chunk("MTrk", [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x00, 0xFF, 0x2F, 0x00])
        let notes = chunk("MTrk", [0x00, 0x90, 60, 100, 0x60, 0xFF, 0x51, 0x03, 0, 0, 0, 0x00, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00])
        let input = try write(chunk("MThd", [0, 1, 0, 2, 0, 96]) + tempo + notes, "zero.mid")
        let result = try run(backbeatExecutable(), ["render", input, "-o", path("out.wav"), "--strict"])
        #expect(result.status == 2, "\(result.output)")
        // The tempo event's FF is byte 14 + 19 (tempo track) + 8 (chunk header) + 5.
        #expect(result.output.contains("offset 46") && result.output.contains("track 2") && result.output.contains("tempo"),
                "\(result.output)")
        #expect(contents == ["zero.mid"])
    }

    @Test func maxDurationTakesHoursMinutesAndSeconds() throws {
        let cases: [(String, Double?)] = [("3h", 10_800), ("90m", 5_400), ("45s", 45), ("1h30m", 5_400), ("1h0m5s", 3_605),
                                          ("2.5", 2.5), ("1.5h", 5_400), ("0", nil), ("abc", nil), ("1h1h", nil),
                                          ("30m1h", nil), ("h", nil), ("10", 10), ("-5", nil), ("1e9h", nil)]
        for (text, seconds) in cases { #expect(HumanDuration.parse(text) == seconds, "\(text)") }
        #expect(HumanDuration.format(5_400) == "1h30m" && HumanDuration.format(45) == "45s" && HumanDuration.format(3_600) == "1h")

        let input = try write(fileLasting(2), "two.mid")
        let bad = try run(backbeatExecutable(), ["render", input, "-o", path("out.wav"), "--max-duration", "abc"])
        #expect(bad.status == 64 && bad.output.contains("'abc'") && bad.output.contains("--max-duration"), "\(bad.output)")
        let short = try run(backbeatExecutable(), ["render", input, "-o", path("out.wav"), "--max-duration", "1.5"])
        #expect(short.status == 2 && short.output.contains("lasts 2s") && short.output.contains("--max-duration 1.5s"), "\(short.output)")
        #expect(contents == ["two.mid"])
        let ok = try run(backbeatExecutable(), ["render", input, "-o", path("out.wav"), "--max-duration", "2s", "--rate", "8000"])
        #expect(ok.status == 0, "\(ok.output)")
    }

    /// An hour (and a second) at 8 kHz is 230 MB of samples: render used to hold twice that in memory.
    @Test func anHourLongRenderStaysInBoundedMemory() throws {
        let input = try write(fileLasting(3_601), "hour.mid")
        let output = path("hour.wav")
        let refused = try run(backbeatExecutable(), ["render", input, "-o", output, "--rate", "8000"])
        #expect(refused.status == 2 && refused.output.contains("lasts 1h0m1s"), "longer than the default hour: \(refused.output)")

        let measured = try MeasuredRun(backbeatExecutable(), ["render", input, "-o", output, "--rate", "8000", "--max-duration", "2h"],
                                       log: path("render.log"))
        print(String(format: "hour-long render at 8 kHz: peak resident %.1f MiB, %.1f s", Double(measured.maxResidentKiB) / 1024, measured.seconds))
        #expect(measured.status == 0, "\(measured.output)")
        #expect(measured.maxResidentKiB < 100 * 1024, "peak resident \(measured.maxResidentKiB) KiB")
        var status = stat()
        #expect(stat(output, &status) == 0)
        let frames = (Int(status.st_size) - WAVFile.headerSize) / 8
        #expect(frames > 3_601 * 8_000 && frames < 3_603 * 8_000, "\(frames) frames")
        let header = try #require(FileHandle(forReadingAtPath: output)?.readData(ofLength: WAVFile.headerSize))
        #expect(header.prefix(4).elementsEqual("RIFF".utf8))
        let dataSize = header[90..<94].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(dataSize == frames * 8, "the header holds the streamed length")
        try? FileManager.default.removeItem(atPath: output)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalDuringRenderLeavesNoFileBehind(signal: Int32) throws {
        let input = try write(fileLasting(3_000), "long.mid")
        let output = path("out.wav")
        let render = try RunningProgram(backbeatExecutable(), ["render", input, "-o", output], server: nil)
        // The line comes once the temporary file is open and signals are handled.
        try render.waitForLine(containing: "rendering '\(input)'")
        let temporary = path(".out.wav.backbeat-\(render.process.processIdentifier).tmp")
        #expect(FileManager.default.fileExists(atPath: temporary), "rendering into \(temporary): \(contents)")
        render.signal(signal)
        let status = try render.waitForExit(timeout: 30)
        #expect(status == 128 + signal, "\(render.output)")
        #expect(render.output.contains { $0.contains("interrupted") && $0.contains("nothing was written") }, "\(render.output)")
        #expect(contents == ["long.mid"], "left behind: \(contents)")
    }

    // Issue 27: `render -o F --soundfont F` (or -o a link to the font) replaced the font with the WAV, exit 0.
    @Test func renderRefusesToOverwriteItsSoundFontThroughAnyName() throws {
        let input = try write(fileLasting(0.5), "in.mid")
        let font = path("font.sf2")
        try FileManager.default.copyItem(atPath: "/usr/share/sounds/sf2/TimGM6mb.sf2", toPath: font)
        let original = try Data(contentsOf: URL(fileURLWithPath: font))
        try FileManager.default.createSymbolicLink(atPath: path("soft.sf2"), withDestinationPath: font)
        #expect(link(font, path("hard.sf2")) == 0)
        for output in [font, path("soft.sf2"), path("hard.sf2")] {
            let result = try run(backbeatExecutable(), ["render", input, "--soundfont", font, "-o", output])
            #expect(result.status == 2, "\(result.output)")
            #expect(result.output.contains("'\(output)'") && result.output.contains("is the input '\(font)'"), "\(result.output)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: font)) == original, "the font is untouched")
        #expect(contents == ["font.sf2", "hard.sf2", "in.mid", "soft.sf2"], "no temporary left: \(contents)")
    }

    // Issue 27: a render killed with SIGKILL left its hidden temporary file (449 MB in the probe) for good.
    @Test func aKilledRendersTemporaryIsRemovedByTheNextRender() throws {
        let input = try write(fileLasting(3_000), "long.mid")
        let killed = try RunningProgram(backbeatExecutable(), ["render", input, "-o", path("first.wav"), "--max-duration", "2h"], server: nil)
        try killed.waitForLine(containing: "rendering '\(input)'")
        let abandoned = path(".first.wav.backbeat-\(killed.process.processIdentifier).tmp")
        #expect(FileManager.default.fileExists(atPath: abandoned))
        killed.signal(SIGKILL)
        _ = try killed.waitForExit(timeout: 30)
        #expect(FileManager.default.fileExists(atPath: abandoned), "SIGKILL leaves it: \(contents)")
        // Files of other programs that look alike are never touched.
        for name in [".first.wav.12345.tmp", ".notes.backbeat-.tmp", "x.backbeat-1.tmp"] {
            #expect(FileManager.default.createFile(atPath: path(name), contents: Data([1])))
        }
        let short = try write(fileLasting(0.5), "short.mid")
        let result = try run(backbeatExecutable(), ["render", short, "-o", path("second.wav")])
        #expect(result.status == 0, "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: abandoned), "left behind: \(contents)")
        #expect(contents == [".first.wav.12345.tmp", ".notes.backbeat-.tmp", "long.mid", "second.wav", "short.mid", "x.backbeat-1.tmp"], "\(contents)")
    }

    @Test func renderRefusesToOverwriteItsInputThroughAnyName() throws {
        let original = fileLasting(0.5)
        let input = try write(original, "in.mid")
        try FileManager.default.createSymbolicLink(atPath: path("soft.mid"), withDestinationPath: input)
        #expect(link(input, path("hard.mid")) == 0)
        for output in [input, path("soft.mid"), path("hard.mid")] {
            let result = try run(backbeatExecutable(), ["render", input, "-o", output])
            #expect(result.status == 2, "\(result.output)")
            #expect(result.output.contains("'\(output)'") && result.output.contains("is the input '\(input)'"), "\(result.output)")
        }
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: input))) == original)
        #expect(contents == ["hard.mid", "in.mid", "soft.mid"])
    }

    @Test func renderWritesIntoAFIFOAndThroughALink() throws {
        let input = try write(fileLasting(0.5), "in.mid")
        let fifo = path("pipe.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = Received()
        Thread { received.set(FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data()) }.start()
        let result = try run(backbeatExecutable(), ["render", input, "-o", fifo, "--rate", "8000"])
        #expect(result.status == 0, "\(result.output)")
        let data = try #require(received.wait())
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
        // A stream of unknown length: sox's "unspecified" data size, the samples to the end.
        try data.write(to: URL(fileURLWithPath: path("received.wav")))
        let audio = try WAVFile.read(path("received.wav"))
        #expect(audio.sampleRate == 8_000 && audio.left.count == (data.count - WAVFile.headerSize) / 8 && audio.left.count > 4_000)
        #expect(Array(data[90..<94]) == [0x00, 0xF0, 0xFF, 0x7F])
        let sox = try run("/usr/bin/sox", [path("received.wav"), "-n", "stat"])
        #expect(sox.status == 0 && !sox.output.contains("WARN") && sox.output.contains("Samples read:"), "\(sox.output)")
        let samplesLine = sox.output.split(separator: "\n").first { $0.hasPrefix("Samples read:") } ?? ""
        #expect(Int(samplesLine.split(separator: " ").last ?? "") == audio.left.count * 2, "sox read \(samplesLine)")

        try FileManager.default.createSymbolicLink(atPath: path("link.wav"), withDestinationPath: "real.wav")
        let linked = try run(backbeatExecutable(), ["render", input, "-o", path("link.wav"), "--rate", "8000"])
        #expect(linked.status == 0, "\(linked.output)")
        #expect(lstat(path("link.wav"), &status) == 0 && status.st_mode & S_IFMT == S_IFLNK, "the link is kept")
        #expect(try WAVFile.read(path("real.wav")).left.count == audio.left.count)
    }

    @Test func emitScenarioRefusesToOverwriteThePlist() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.x</string>
            <key>UIBackgroundModes</key><array><string>audio</string></array></dict></plist>
            """
        let input = try write(Array(plist.utf8), "Info.plist")
        try FileManager.default.createSymbolicLink(atPath: path("link.plist"), withDestinationPath: "Info.plist")
        for output in [input, path("link.plist")] {
            let result = try run(backbeatExecutable(), ["lifecycle", "check", input, "--emit-scenario", output, "--lifecycle", "swiftui"])
            #expect(result.status == 2, "\(result.output)")
            #expect(result.output.contains("'\(output)'") && result.output.contains("is the input '\(input)'"), "\(result.output)")
        }
        #expect(try String(contentsOfFile: input, encoding: .utf8) == plist)
        let written = try run(backbeatExecutable(), ["lifecycle", "check", input, "--emit-scenario", path("starter.toml"), "--lifecycle", "swiftui"])
        #expect(written.status == 0, "\(written.output)")
        #expect(contents == ["Info.plist", "link.plist", "starter.toml"])
    }
}

/// Bytes a reader thread received, handed to the test.
private final class Received: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()
    func set(_ data: Data) { self.data = data; done.signal() }
    func wait() -> Data? { done.wait(timeout: .now() + 30) == .success ? data : nil }
}
