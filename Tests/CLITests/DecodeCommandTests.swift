// `backbeat decode` end to end: the built binary reading stdin, files and pipes.
import Foundation
import Testing

/// Runs the built `backbeat` executable, found next to the test bundle (or under .build/debug).
private func runDecode(_ arguments: [String], stdin: [UInt8]) throws -> (status: Int32, out: String, err: String) {
    let executable = try #require(backbeatBinary, "backbeat executable not built: run swift build --build-tests")
    let r = try runToEnd(executable, ["decode"] + arguments, stdin: stdin)
    return (r.status, r.stdout, r.stderr)
}

@Suite(.serialized) struct DecodeCommandTests {
    @Test func binaryFromStdin() throws {
        let r = try runDecode([], stdin: [0x90, 0x3C, 0x64, 0x3E, 0x00, 0xF8, 0x05])
        #expect(r.status == 0)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].contains("Note On") && lines[0].contains("C4 (60)") && lines[0].hasSuffix("90 3C 64"))
        #expect(lines[1].contains("D4 (62)") && lines[1].hasSuffix("90 3E 00"))
        #expect(lines[2].contains("Clock"))
        #expect(lines[3] == "3 messages, 1 error")
    }

    @Test func hexJSON() throws {
        let r = try runDecode(["--hex", "--json", "-"], stdin: Array("0x90 3c 64 B0 7B 00\nE00040 F0 7E 01 F7 F2 00 01 C1 05".utf8))
        #expect(r.status == 0)
        #expect(r.out.split(separator: "\n") == [
            #"{"type":"note-on","channel":1,"note":60,"velocity":100}"#,
            #"{"type":"control-change","channel":1,"controller":123,"value":0}"#,
            #"{"type":"pitch-bend","channel":1,"bend":0}"#,
            #"{"type":"sysex","data":"7E01","terminated":true,"truncated":false}"#,
            #"{"type":"song-position","position":128}"#,
            #"{"type":"program-change","channel":2,"program":5}"#,
            #"{"type":"summary","messages":6,"errors":0}"#,
        ])
    }

    @Test func fileArgument() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-decode-\(getpid()).mid.raw")
        try Data([0xFA, 0xFC]).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let r = try runDecode(["--json", path.path], stdin: [])
        #expect(r.out.split(separator: "\n") == [#"{"type":"start"}"#, #"{"type":"stop"}"#,
                                                 #"{"type":"summary","messages":2,"errors":0}"#])
    }

    @Test func badHex() throws {
        let r = try runDecode(["--hex"], stdin: Array("90 3C 6Z".utf8))
        #expect(r.status == 2)
        #expect(r.out.isEmpty)
        #expect(r.err == "backbeat decode: bad hex token '6Z' (token 3, at character 6): 'Z' is not a hex digit\n")
    }

    @Test func emptyInput() throws {
        let r = try runDecode([], stdin: [])
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("backbeat decode: empty input"))
        #expect(try runDecode(["--hex"], stdin: Array(" \n".utf8)).status == 2)
    }

    @Test func unreadableFile() throws {
        let r = try runDecode(["/nonexistent/backbeat.raw"], stdin: [])
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("backbeat decode: cannot read '/nonexistent/backbeat.raw'"))
        #expect(r.err.split(separator: "\n").count == 1)
    }
}

/// `decode` as a stream: lines while the input is still open, bounded memory, errors, write failures.
@Suite(.serialized) struct DecodeStreamingCommandTests {
    /// A real pipe and a child process: the first message's line arrives while the pipe is still open.
    @Test func linesComeOutBeforeThePipeCloses() throws {
        let executable = URL(fileURLWithPath: try #require(backbeatBinary))
        let process = Process()
        process.executableURL = executable
        process.arguments = ["decode"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        input.fileHandleForWriting.write(Data([0x90, 0x3C, 0x64, 0xB0]))  // a note-on, and a status byte that waits
        var received: [UInt8] = []
        let fd = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(10)
        while !received.contains(0x0A) && Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[..<n]
        }
        let line = String(decoding: received, as: UTF8.self)
        #expect(line.hasPrefix("     1  Note On") && line.contains("90 3C 64\n"), "nothing before the pipe closed: '\(line)'")
        #expect(process.isRunning, "decode ended before its input did")
        try input.fileHandleForWriting.close()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: rest, as: UTF8.self).hasSuffix("1 message, 1 error\n"))
    }

    /// Max RSS of `decode` over 48 MiB of random bytes stays far below the input's size (it read it all
    /// first, and 200 MB took 1.3 GB).
    @Test func memoryStaysBoundedOnALargeInput() throws {
        let executable = URL(fileURLWithPath: try #require(backbeatBinary))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-large-\(getpid()).raw").path
        let report = path + ".rss"
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: report) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var state: UInt64 = 42
        FileManager.default.createFile(atPath: path, contents: nil)
        let file = try #require(FileHandle(forWritingAtPath: path))
        for _ in 0..<48 {
            for i in chunk.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                chunk[i] = UInt8(truncatingIfNeeded: state >> 56)
            }
            file.write(Data(chunk))
        }
        try file.close()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-o", report, "-f", "%M", executable.path, "decode", "--json", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let kib = try #require(Int(try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").last ?? ""))
        #expect(kib < 40 * 1024, "max RSS \(kib) KiB for 48 MiB of input")
    }

    // Issue 36: `echo "90 3C 40" | backbeat decode` printed nine errors, one per character.
    @Test func hexTextWithoutHexSaysSoOnceAndExitsOne() throws {
        for text in ["90 3C 40\n", "0x90 0x3c 0x40", "903C40 803C00\n"] {
            let r = try runDecode([], stdin: Array(text.utf8))
            #expect(r.status == 1, "\(text)")
            #expect(r.out.isEmpty, "\(text): \(r.out)")
            #expect(r.err == "backbeat decode: standard input looks like hex text: did you mean --hex?\n", "\(text): \(r.err)")
            let json = try runDecode(["--json"], stdin: Array(text.utf8))
            #expect(json.status == 1 && json.out.isEmpty && json.err == r.err, "\(json)")
        }
        // With --hex it decodes; text that is not hex, and binary bytes, are decoded as before.
        let hex = try runDecode(["--hex"], stdin: Array("90 3C 40\n".utf8))
        #expect(hex.status == 0 && hex.out.hasSuffix("1 message, 0 errors\n"), "\(hex)")
        let words = try runDecode([], stdin: Array("hello\n".utf8))
        #expect(words.status == 1 && !words.err.contains("--hex") && words.out == "0 messages, 6 errors\n", "\(words)")
    }

    @Test func onlyGarbageSaysWhatWasWrongAndExitsOne() throws {
        let r = try runDecode([], stdin: [0xF9, 0x05])
        #expect(r.status == 1)
        #expect(r.out == "0 messages, 2 errors\n")
        #expect(r.err.split(separator: "\n") == [
            "backbeat decode: offset 0, byte F9: undefined real-time status byte: skipped",
            "backbeat decode: offset 1, byte 05: data byte with no status byte before it (no running status): expected a status byte",
        ])
        let json = try runDecode(["--json"], stdin: [0xF9, 0x05])
        #expect(json.status == 1)
        #expect(json.err.isEmpty)
        #expect(json.out.split(separator: "\n").count == 3)
    }

    @Test func badHexTokenIsEscaped() throws {
        let r = try runDecode(["--hex"], stdin: Array("90 \u{1B}[2J".utf8))
        #expect(r.status == 2)
        #expect(r.err == "backbeat decode: bad hex token '\\x1B[2J' (token 2, at character 3): '\\x1B' is not a hex digit\n")
    }

    @Test func outputThatCannotBeWrittenExitsOne() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-full-\(getpid()).raw")
        try Data([0x90, 0x3C, 0x64, 0xF8]).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        for arguments in [["decode", path.path], ["decode", "--json", path.path]] {
            let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
            let r = try runToEnd(try #require(backbeatBinary), arguments, standardOutput: full)
            #expect(r.status == 1)
            #expect(r.stderr == "backbeat: cannot write the output (standard output): No space left on device\n")
        }
    }
}
