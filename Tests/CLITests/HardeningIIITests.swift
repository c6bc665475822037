import Foundation
import Testing

/// Issue 41 from the command line: every path option on a device node copy, a FIFO and an endless or
/// oversized input (refused at once, exit 2, the path and the reason named, nothing removed); the log kept
/// from the takes; the argument parser's echoes escaped; every numeric option's bad values refused with
/// the accepted range. No JACK server: each of these ends before the engine starts.
@Suite struct HardeningIIITests {
    let folder: URL
    init() throws { folder = try makeTemporaryDirectory("backbeat-hardening3") }
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A two-note Standard MIDI File.
    static let song: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + [0, 0, 0, 12]
        + [0x00, 0x90, 60, 100, 0x60, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00]

    /// `backbeat ARGS` with a time limit: a hang is a failure, not a stuck suite. Standard input from `stdin`
    /// (a path), else /dev/null.
    func backbeatWithin(_ seconds: Double, _ arguments: [String], stdin: String = "/dev/null") throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: backbeatExecutable())
        process.arguments = arguments
        process.standardInput = FileHandle(forReadingAtPath: stdin)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        if ended.wait(timeout: .now() + seconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            ended.wait()
            Issue.record("backbeat \(arguments.joined(separator: " ")) did not end within \(seconds) s")
        }
        return Output(status: process.terminationStatus,
                      stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                      stderr: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    func type(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    /// Device node copies (mknod in the test's folder, never the real ones) and a FIFO, as every path option
    /// that writes: refused before anything starts, still there afterwards.
    @Test func noPathOptionWritesRemovesOrWaitsOnADeviceNodeOrFIFO() throws {
        let full = path("full"), null = path("null"), fifo = path("fifo")
        #expect(mknod(full, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0)
        #expect(mknod(null, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
        #expect(mkfifo(fifo, 0o600) == 0)
        let input = path("song.mid")
        try Data(Self.song).write(to: URL(fileURLWithPath: input))
        for target in [full, null, fifo] {
            for option in ["--record-midi", "--record-audio"] {
                let result = try backbeatWithin(20, ["--headless", "--server", "bbtest-none-\(getpid())", option, target])
                #expect(result.status == 2, "\(option) \(target): \(result.stderr)")
                #expect(result.stderr.contains("'\(target)': it is a") && result.stderr.contains("not a regular file"), "\(result.stderr)")
                #expect(!result.stderr.contains("ready:"), "the engine started: \(result.stderr)")
            }
        }
        // render writes into a device as `cat > /dev/null` would, and into a FIFO once a program reads it:
        // with nobody reading, it gives up after 10 s instead of waiting in open(2) for ever.
        let render = try backbeatWithin(30, ["render", input, "-o", fifo])
        #expect(render.status == 2 && render.stderr.contains("it is a FIFO and no program opened it for reading within 10"), "\(render.stderr)")
        // A quit signal while it waits ends it at once (the first one: it used to be swallowed by open(2)).
        let waiting = try RunningProgram(backbeatExecutable(), ["render", input, "-o", fifo], server: nil)
        // Its quit signals are handled once they are blocked for its thread that waits for them (before that,
        // SIGINT would kill it): the kernel shows the mask in /proc/PID/status.
        #expect(waitUntil(timeout: 10) {
            let status = (try? String(contentsOfFile: "/proc/\(waiting.process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let mask = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }.flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) }
            return (mask ?? 0) & (1 << UInt64(SIGINT - 1)) != 0
        })
        waiting.signal(SIGINT)
        let interrupted = Date()
        #expect(try waiting.waitForExit(timeout: 5) == 130, "\(waiting.output)")
        // The process's own end (its pipes may stay open a moment longer in a program another test spawns).
        #expect(try #require(waiting.exitedAt).timeIntervalSince(interrupted) < 3)
        #expect(waiting.output.joined().contains("a quit signal came while waiting for a program to read the FIFO"), "\(waiting.output)")
        let toNull = try backbeatWithin(20, ["render", input, "-o", null, "--rate", "8000"])
        #expect(toNull.status == 0, "\(toNull.stderr)")
        let toFull = try backbeatWithin(20, ["render", input, "-o", full, "--rate", "8000"])
        #expect(toFull.status == 2 && toFull.stderr.contains("No space left on device"), "\(toFull.stderr)")
        let svg = try backbeatWithin(20, ["lifecycle", "run", "midikit-swiftui", "--svg", full])
        #expect(svg.status == 2 && svg.stderr.contains("No space left on device"), "\(svg.stderr)")
        for (file, fileType) in [(full, S_IFCHR), (null, S_IFCHR), (fifo, S_IFIFO), (input, S_IFREG)] {
            #expect(type(file) == fileType, "\(file)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["fifo", "full", "null", "song.mid"])
    }

    /// Every command that reads a file whole, on a character device, a FIFO with no writer, and a sparse file
    /// past its kind's limit: one line naming the file and the reason or the limit, exit 2, within seconds.
    @Test(.needs(file: "/usr/share/sounds/sf2/TimGM6mb.sf2", package: "timgm6mb-soundfont"))
    func noReadGrowsPastItsLimitOrBlocks() throws {
        let fifo = path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let bigText = path("big.toml"), bigMIDI = path("big.mid"), bigPlist = path("big.plist")
        for (file, size) in [(bigText, 2 << 20), (bigMIDI, 300 << 20), (bigPlist, 20 << 20)] {
            #expect(FileManager.default.createFile(atPath: file, contents: nil) && truncate(file, off_t(size)) == 0)
        }
        let out = path("out.wav")
        let commands: [(arguments: (String) -> [String], limit: String)] = [
            ({ ["smf", $0] }, "256 MiB, the most a MIDI file may be"),
            ({ ["render", $0, "-o", out] }, "256 MiB, the most a MIDI file may be"),
            ({ ["soundfont", "info", "/usr/share/sounds/sf2/TimGM6mb.sf2", "--for", $0] }, "256 MiB, the most a MIDI file may be"),
            ({ ["lifecycle", "run", $0] }, "1 MiB, the most a scenario may be"),
            ({ ["lifecycle", "check", $0] }, "16 MiB, the most an Info.plist may be"),
            ({ ["--headless", "--preset", $0] }, "1 MiB, the most a preset may be"),
            ({ ["--headless", "--config", $0] }, "1 MiB, the most a config file may be"),
            ({ ["--headless", "--scenario", $0] }, "1 MiB, the most a scenario may be"),
            ({ ["--theme", $0] }, "1 MiB, the most a theme may be"),
        ]
        for (arguments, limit) in commands {
            let big = limit.contains("MIDI") ? bigMIDI : limit.contains("plist") ? bigPlist : bigText
            for (file, reason) in [("/dev/zero", "it is a character device, not a regular file"), (fifo, "it is a FIFO, not a regular file"),
                                   (big, "it is larger than \(limit)")] {
                let args = arguments(file)
                // `--theme` is read before the workstation wants a terminal.
                let result = try backbeatWithin(20, args)
                #expect(result.status == 2, "\(args): \(result.stderr)")
                #expect(result.stderr.contains(file) && result.stderr.contains(reason), "\(args): \(result.stderr)")
            }
        }
        // An endless standard input: cut off at the limit, not read until memory runs out.
        let endless = try backbeatWithin(60, ["smf", "-"], stdin: "/dev/zero")
        #expect(endless.status == 2 && endless.stderr.contains("standard input")
                && endless.stderr.contains("larger than 256 MiB, the most a MIDI file may be"), "\(endless.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `--log` is kept from the takes (it was replaced by a take naming it), and a FIFO as the log is refused.
    @Test func theLogIsNoTakeAndNoFIFO() throws {
        let log = path("session.log")
        try Data("earlier\n".utf8).write(to: URL(fileURLWithPath: log))
        for option in ["--record-midi", "--record-audio"] {
            let result = try backbeatWithin(20, ["--headless", "--server", "bbtest-none-\(getpid())", "--log", log, option, log])
            #expect(result.status == 2 && result.stderr.contains("is the log file '\(log)'"), "\(option): \(result.stderr)")
            #expect(try String(contentsOfFile: log, encoding: .utf8).hasPrefix("earlier\n"))
        }
        let fifo = path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try backbeatWithin(20, ["--headless", "--log", fifo])
        #expect(result.status == 2 && result.stderr.contains("cannot write the log file '\(fifo)': it is a FIFO"), "\(result.stderr)")
    }

    /// `--headless` reads and checks the config as the workstation does (it used to check only that the file
    /// existed): a broken one ends it before the engine starts, naming file and line.
    @Test func headlessReadsAndChecksTheConfig() throws {
        let config = path("config.toml")
        for (text, said) in [("[", "config.toml:1"), ("[engine]\nvoices = 9999\n", "config.toml:2"), ("[engine]\nsoundfont = \"/nonexistent.sf2\"\n", "/nonexistent.sf2")] {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            for extra in [[String](), ["--scenario", "midikit-swiftui"]] {
                let result = try backbeatWithin(20, ["--headless", "--server", "bbtest-none-\(getpid())", "--config", config] + extra)
                #expect(result.status == 2 && result.stderr.contains(said), "\(text) \(extra): \(result.stderr)")
                #expect(!result.stderr.contains("ready:") && !result.stderr.contains("started a private JACK server"), "\(result.stderr)")
            }
        }
    }

    /// Values the parser quotes back reach the terminal escaped: `\x1B`, never the escape byte.
    @Test func echoedOptionValuesAreEscaped() throws {
        for arguments in [["monitor", "--hide", "\u{1B}[31mclock\u{07}"], ["render", "x.mid", "-o", "x.wav", "--voices", "\u{1B}[2J"],
                          ["--headless", "--middle-c", "\u{9B}31m"], ["decode", "--bogus\u{1B}"]] {
            let result = try backbeatWithin(20, arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, "\(arguments)")
            #expect(result.stderr.contains("\\x1B") || result.stderr.contains("\\x9B"), "\(result.stderr)")
        }
    }

    /// Every numeric option and the values the adversarial round tried: each refused with exit 64, the
    /// option named and the accepted range given; the edges of each range accepted.
    @Test func everyNumericOptionRefusesBadValuesNamingItsRange() throws {
        let whole: [(command: [String], option: String, range: String, good: [String])] = [
            ([], "--rate", "from 8000 to 192000", ["8000", "192000"]),
            ([], "--period", "power of two from 16 to 8192", ["16", "8192"]),
            ([], "--voices", "from 1 to 4096", ["1", "4096"]),
            ([], "--channel", "from 1 to 16", ["1", "16"]),
            ([], "--patch", "its number (0 to 140) or its name", ["0", "140"]),
            ([], "--program", "from 0 to 127", ["0", "127"]),
            ([], "--record-midi-format", "from 0 to 1", ["0", "1"]),
            ([], "--periods", "from 2 to 16", ["2", "16"]),
            ([], "--sample-cache", "from 1 to 1048576", ["1", "1048576"]),
            ([], "--octave", "from 0 to 8", ["0", "8"]),
            ([], "--velocity", "from 1 to 127", ["1", "127"]),
            (["render", "x.mid", "-o", "x.wav"], "--rate", "from 8000 to 384000", ["384000"]),
            (["render", "x.mid", "-o", "x.wav"], "--voices", "from 1 to 4096", ["4096"]),
            (["render", "x.mid", "-o", "x.wav"], "--channel", "from 1 to 16", ["16"]),
            (["render", "x.mid", "-o", "x.wav"], "--patch", "its number (0 to 140) or its name", ["140"]),
            (["render", "x.mid", "-o", "x.wav"], "--program", "from 0 to 127", ["127"]),
            (["soak"], "--period", "power of two from 16 to 4096", ["4096"]),
            (["soak"], "--voices", "from 1 to 2048", ["2048"]),
            (["soak"], "--events-per-second", "from 1 to 20000", ["20000"]),
        ]
        let decimal: [(command: [String], option: String, range: String, good: [String])] = [
            ([], "--gate", "from 0.02 to 10 (seconds)", ["0.02", "10", "1e-1"]),
            (["bench"], "--seconds", "from 0.5 to 600 (seconds)", ["0.5", "600"]),
            (["soak"], "--minutes", "from 0.1 to 1440 (minutes)", ["0.1", "1440"]),
            (["soak"], "--reference-minutes", "from 0.1 to 1440 (minutes)", ["1440"]),
        ]
        let badWhole = ["-1", "0x10", " 1", "1 ", "1.5", "1e3", "nan", "inf", "", "abc", "99999999999999999999", "+", "--voices"]
        let badDecimal = ["-1", "0x10", " 1", "nan", "inf", "-inf", "1e308", "1e-320", "", "abc", "0x1p3", "1,5", "--x"]
        for (list, bad) in [(whole, badWhole), (decimal, badDecimal)] {
            for (command, option, range, good) in list {
                for value in bad {
                    let result = try backbeatWithin(20, command + [option, value])
                    #expect(result.status == 64, "\(command) \(option) '\(value)': \(result.stderr)")
                    #expect(result.stderr.contains("'\(option) <") && result.stderr.contains(range), "\(command) \(option) '\(value)': \(result.stderr)")
                }
                // Accepted: the command goes on to fail on something else, which nothing starts before.
                let stop = ["render": [String](), "soak": ["--report", ""], "bench": ["--only", "bogus"]][command.first ?? ""] ?? ["--server", "bad name"]
                for value in good {
                    let result = try backbeatWithin(20, command + [option, value] + stop)
                    #expect(result.status != 0 && !result.stderr.contains("invalid for '\(option) <"), "\(command) \(option) \(value): \(result.stderr)")
                }
            }
        }
        // --max-duration: plain seconds or units, at least a tenth of a second.
        for value in ["0x10", " 1", "1e-320", "0.01", "nan", "-5"] {
            let result = try backbeatWithin(20, ["render", "x.mid", "-o", "x.wav", "--max-duration", value])
            #expect(result.status == 64 && result.stderr.contains("0.1 s to 100000h"), "'\(value)': \(result.stderr)")
        }
    }
}
