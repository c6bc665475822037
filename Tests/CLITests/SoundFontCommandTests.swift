// `backbeat soundfont info` end to end: the built binary on the real TimGM6mb font and on broken files.
import Foundation
import Testing
import TestSupport

private let timGM = "/usr/share/sounds/sf2/TimGM6mb.sf2"

private func runInfo(_ arguments: [String]) throws -> Output {
    let executable = try #require(backbeatBinary, "backbeat executable not built: run swift build --build-tests")
    return try runToEnd(executable, ["soundfont", "info"] + arguments)
}

@Suite struct SoundFontCommandTests {
    @Test(.needs(file: timGM, package: "timgm6mb-soundfont"))
    func infoListsTheRealFontsPresets() throws {
        let r = try runInfo([timGM])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("name: "))
        let count = try #require(Int(lines[1].dropFirst("presets: ".count)))
        #expect(count >= 129 && lines.count == 2 + count)
        #expect(lines[2].hasPrefix("0:0 "), "sorted: the piano first")
        #expect(lines.contains { $0.hasPrefix("128:0 ") }, "the drum kit")

        let j = try runInfo(["--json", timGM])
        #expect(j.status == 0)
        let objects = j.stdout.split(separator: "\n")
        #expect(objects.count == 1 + count)
        #expect(objects[0].hasPrefix(#"{"type":"font","path":"\#(timGM)","name":"#))
        #expect(objects[0].contains(#""presets":\#(count)"#))
        #expect(objects[1].hasPrefix(#"{"type":"preset","bank":0,"program":0,"name":"#))
    }

    @Test func aBrokenFontPrintsTheErrorAndExitsTwo() throws {
        let directory = try makeTemporaryDirectory("backbeat-sf")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("broken.sf2").path
        // A RIFF sfbk whose only chunk claims more bytes than the file has.
        let bytes: [UInt8] = Array("RIFF".utf8) + [16, 0, 0, 0] + Array("sfbkLIST".utf8) + [0xFF, 0xFF, 0, 0] + Array("INFO".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let r = try runInfo([path])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "backbeat soundfont: \(path): chunk 'LIST' at byte 12: bad size 65535: only 4 bytes left in 'RIFF'\n")

        let missing = try runInfo([directory.appendingPathComponent("none.sf2").path])
        #expect(missing.status == 2 && missing.stderr.contains("cannot open: No such file or directory"))
    }
}
