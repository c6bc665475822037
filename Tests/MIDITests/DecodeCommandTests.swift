import Foundation
import Testing
import MIDI

@Suite struct HexBytesTests {
    @Test(arguments: ["90 3C 64", "903C64", "0x90 0x3c 0X64", "  90\n3c\t64  ", "903c 64"])
    func parses(_ text: String) throws {
        #expect(try HexBytes.parse(text) == [0x90, 0x3C, 0x64])
    }

    @Test func emptyIsNoBytes() throws {
        #expect(try HexBytes.parse("  \n") == [])
    }

    @Test(arguments: [
        ("90 zz", "zz", 2, 3), ("903 64", "903", 1, 0), ("90 0x", "0x", 2, 3), ("90  3G", "3G", 2, 4),
    ])
    func rejects(_ text: String, _ token: String, _ number: Int, _ offset: Int) {
        #expect(throws: HexParseError.self) { try HexBytes.parse(text) }
        do {
            _ = try HexBytes.parse(text)
        } catch {
            #expect(error.token == token)
            #expect(error.tokenNumber == number)
            #expect(error.offset == offset)
            #expect(error.description.contains("'\(token)'"))
        }
    }
}

/// Runs the built `backbeat` executable, found next to the test bundle (or under .build/debug).
private func runDecode(_ arguments: [String], stdin: [UInt8]) throws -> (status: Int32, out: String, err: String) {
    let executable = try #require(backbeatExecutable(), "backbeat executable not built: run swift build --build-tests")
    let process = Process()
    process.executableURL = executable
    process.arguments = ["decode"] + arguments
    let input = Pipe(), output = Pipe(), error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    input.fileHandleForWriting.write(Data(stdin))
    try input.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

private func backbeatExecutable() -> URL? {
    var candidates: [URL] = []
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var dir = me.deletingLastPathComponent()
    for _ in 0..<4 {  // the bundle may be a directory (macOS-style) or a file next to the products
        candidates.append(dir.appendingPathComponent("backbeat"))
        dir = dir.deletingLastPathComponent()
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(root.appendingPathComponent(".build/debug/backbeat"))
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
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
        #expect(lines[3] == "3 messages, 1 errors")
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
