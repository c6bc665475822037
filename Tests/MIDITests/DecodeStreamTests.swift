import Foundation
import Testing
@testable import MIDI
import TextOutput

/// Random bytes, the same every run.
func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
    }
}

/// Runs `input` through a stream in chunks of `chunk` bytes; returns (stdout, stderr) text.
func streamed(_ input: [UInt8], format: MIDIDecodeStream.Format, chunk: Int, hex: Bool = false, middleC: MiddleC = .c4) throws -> (out: String, err: String) {
    var stream = MIDIDecodeStream(format: format, middleC: middleC, hex: hex, errorPrefix: "e: ")
    var out = "", err = ""
    func take() {
        out += String(decoding: stream.output.bytes, as: UTF8.self); stream.output.removeAll()
        err += String(decoding: stream.errorOutput.bytes, as: UTF8.self); stream.errorOutput.removeAll()
    }
    var start = 0
    while start < input.count {
        let end = min(input.count, start + chunk)
        try input[start..<end].withUnsafeBufferPointer { try stream.feed($0) }
        take()
        start = end
    }
    try stream.finishInput()
    stream.writeSummary()
    take()
    return (out, err)
}

@Suite struct DecodeStreamTests {
    /// The byte writer prints exactly what the message model and its formatters print, for every kind of
    /// message random bytes make (sysex, running status, system common, real-time in the middle...).
    @Test(arguments: [(1, UInt64(1)), (7, 2), (4096, 3), (1 << 20, 4)])
    func sameLinesAsTheFormatters(chunk: Int, seed: UInt64) throws {
        var input = randomBytes(60_000, seed: seed)
        input += [0xF0, 0x7E, 0x01, 0x02, 0xF7, 0xB0, 0x79, 0x00, 0xE0, 0x7F, 0x7F, 0x90, 0x3C, 0x00, 0xF1, 0x35, 0xF2, 0x10, 0x20]
        let (messages, errors) = MIDIParser.decode(input)
        for middleC in [MiddleC.c4, .c3] {
            let formatter = MonitorFormatter(middleC: middleC)
            var expected = messages.enumerated().map { formatter.line($1, index: $0 + 1) + "\n" }.joined()
            expected += "\(counted(messages.count, "message")), \(counted(errors, "error"))\n"
            let text = try streamed(input, format: .text, chunk: chunk, middleC: middleC)
            #expect(text.out == expected)
            #expect(text.err.split(separator: "\n").count == errors)
        }
        let json = try streamed(input, format: .json, chunk: chunk)
        let lines = json.out.split(separator: "\n").map(String.init)
        #expect(lines.filter { !$0.hasPrefix("{\"type\":\"error\"") } == messages.map(\.json) + [JSONText.summary(messages: messages.count, errors: errors)])
        #expect(lines.filter { $0.hasPrefix("{\"type\":\"error\"") }.count == errors)
        for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)") }
    }

    // Issue 36: "1 messages, 1 errors".
    @Test func oneMessageAndOneErrorAreSaidInTheSingular() throws {
        let r = try streamed([0xF9, 0xF8], format: .text, chunk: 2)
        #expect(r.out.hasSuffix("\n1 message, 1 error\n"), "\(r.out)")
        #expect(try streamed([0xF8, 0xF8], format: .text, chunk: 1).out.hasSuffix("\n2 messages, 0 errors\n"))
        #expect(counted(1, "note") == "1 note" && counted(0, "note") == "0 notes" && counted(2, "event") == "2 events")
    }

    @Test func everyErrorSaysWhereWhatAndWhatWasExpected() throws {
        let r = try streamed([0xF9, 0x05, 0x90, 0x3C, 0x80, 0x40, 0x40, 0xF7, 0xF0, 0x01, 0x92, 0x40], format: .text, chunk: 3)
        #expect(r.err.split(separator: "\n") == [
            "e: offset 0, byte F9: undefined real-time status byte: skipped",
            "e: offset 1, byte 05: data byte with no status byte before it (no running status): expected a status byte",
            "e: offset 4, byte 80: Note On (90) incomplete: expected 1 more data byte, got a status byte",
            "e: offset 7, byte F7: F7 (end of exclusive) with no sysex to end: skipped",
            "e: offset 10, byte 92: the sysex from offset 8 ended without F7: expected data bytes or F7 (end of exclusive)",
            "e: offset 12, end of input: the input ended inside a message: Note On (92) incomplete: expected 1 more data byte",
        ])
        #expect(r.out.hasSuffix("2 messages, 6 errors\n"), "\(r.out)")
        let json = try streamed([0xF9, 0x90, 0x3C], format: .json, chunk: 1)
        #expect(json.out.split(separator: "\n") == [
            #"{"type":"error","offset":0,"byte":"F9","message":"undefined real-time status byte: skipped"}"#,
            #"{"type":"error","offset":3,"message":"the input ended inside a message: Note On (90) incomplete: expected 1 more data byte"}"#,
            #"{"type":"summary","messages":0,"errors":2}"#,
        ])
    }

    @Test func hexArrivesInAnyChunksAndBadTokensAreEscaped() throws {
        let text = Array("0x90 3c\u{A0}64 B07B00\nE00040 F0 7E 01 F7".utf8)
        let whole = try streamed(text, format: .json, chunk: 1 << 16, hex: true)
        for chunk in [1, 2, 3, 5] { #expect(try streamed(text, format: .json, chunk: chunk, hex: true).out == whole.out) }
        #expect(whole.out.hasSuffix(#"{"type":"summary","messages":4,"errors":0}"# + "\n"))
        do {
            _ = try streamed(Array("90 3C 6\u{1B}]0;x\u{07}".utf8), format: .text, chunk: 2, hex: true)
            Issue.record("accepted a bad token")
        } catch {
            #expect("\(error)" == "bad hex token '6\\x1B]0;x\\x07' (token 3, at character 6): '\\x1B' is not a hex digit")
        }
        #expect(throws: HexInputError.notUTF8(byte: 0xFF, byteOffset: 3)) { try streamed([0x39, 0x30, 0x20, 0xFF], format: .text, chunk: 1, hex: true) }
    }

    @Test func jsonStringsEscapeEveryTerminalControl() {
        #expect(JSONText.quote("a\u{1B}b\u{9B}c\u{202E}d\u{7F}é") == "\"a\\u001bb\\u009bc\\u202ed\\u007fé\"")
        #expect(TerminalText.sanitized("x\u{1B}[2J") == "x\\x1B[2J")
    }
}
