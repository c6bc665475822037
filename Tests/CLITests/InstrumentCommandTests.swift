// `backbeat instrument info` end to end: the built binary on an SFZ instrument over samples sox makes, and on
// files it cannot read.
import Foundation
import Testing
import TestSupport

private func runInfo(_ arguments: [String]) throws -> Output {
    let executable = try #require(backbeatBinary, "backbeat executable not built: run swift build --build-tests")
    return try runToEnd(executable, ["instrument", "info"] + arguments)
}

@Suite struct InstrumentCommandTests {
    @Test(.needs(executable: "/usr/bin/sox", package: "sox"))
    func infoReportsTheSamplesHeadersAndTheMissingOnes() throws {
        let directory = try makeTemporaryDirectory("backbeat-sfz")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.path
        try FileManager.default.createDirectory(atPath: folder + "/samples", withIntermediateDirectories: true)
        // 0.5 s mono 16-bit at 44100 Hz and 0.25 s stereo 24-bit FLAC at 48000 Hz.
        #expect(try runToEnd("/usr/bin/sox", ["-n", "-r", "44100", "-b", "16", folder + "/samples/low.wav", "synth", "0.5", "sine", "220"]).status == 0)
        #expect(try runToEnd("/usr/bin/sox", ["-n", "-r", "48000", "-c", "2", "-b", "24", folder + "/samples/high note.flac", "synth", "0.25", "sine", "880"]).status == 0)
        let sfz = folder + "/piano.sfz"
        try """
            <control> default_path=samples\\
            <region> sample=low.wav lokey=c3 hikey=b3
            <region> sample=high note.flac lokey=c4 hikey=c5 fancy_opcode=1
            <region> sample=absent.wav key=90
            """.write(toFile: sfz, atomically: true, encoding: .utf8)
        let r = try runInfo([sfz])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("regions: 3"))
        #expect(lines.contains("samples: 3 files, 1 missing; 0 regions play a generator"))
        // 22050 frames x 1 x 4 + 12000 x 2 x 4.
        #expect(lines.contains("sample memory: 184200 bytes as 32-bit float (0.2 MiB)"))
        #expect(lines.contains { $0.hasPrefix("missing sample: \(folder)/samples/absent.wav (wanted at \(sfz):4): ") })
        #expect(lines.contains("  48-59 samples/low.wav (mono, 44100 Hz, 22050 frames, WAV 16-bit)"))
        #expect(lines.contains("  60-72 samples/high note.flac (2 channels, 48000 Hz, 12000 frames, FLAC 24-bit)"))
        #expect(lines.contains("unknown opcodes: 1 (fancy_opcode ×1)"))

        let j = try runInfo(["--json", sfz])
        #expect(j.status == 0)
        #expect(j.stdout.hasPrefix(#"{"type":"instrument","path":"\#(sfz)","regions":3,"sampleFiles":3,"missingSamples":1,"#))
    }

    /// The opcodes played per note (filter tracking, bend ranges, velocity curves, envelope velocity and start)
    /// are listed with their regions, and none of them is counted as unknown.
    @Test func infoListsTheNoteFollowingOpcodes() throws {
        let folder = try makeTemporaryDirectory("backbeat-sfz-following")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sfz = folder.appendingPathComponent("following.sfz").path
        try ("<group> sample=*sine cutoff=800 fil_keytrack=100\n<region> key=60 fil_veltrack=1200 amp_velcurve_64=1\n"
            + "<region> key=62 bend_up=1200 bend_down=-100 ampeg_vel2attack=0.2 ampeg_start=20\n<region> key=64\n"
            + "<region> key=66 cutoff_oncc20=1200 pitcheg_depth=100 pitcheg_vel2attack=0.1 ampeg_start_oncc21=50\n")
            .write(toFile: sfz, atomically: true, encoding: .utf8)
        let r = try runInfo([sfz])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("note-following opcodes: 9 (fil_keytrack ×4, fil_veltrack ×1, bend_up/bend_down ×1, amp_velcurve_N ×1, ampeg_vel2* ×1, ampeg_start ×1, "
                                + "ampeg_*_onccN ×1, fileg/pitcheg_vel2*, *_onccN ×1, cutoff_onccN/resonance_onccN ×1)"),
                "\(lines)")
        #expect(lines.contains("unknown opcodes: 0"))
        let j = try runInfo(["--json", sfz])
        #expect(j.stdout.contains(#"{"type":"noteFollowing","name":"bend_up/bend_down","regions":1}"#))
    }

    @Test func anUnreadableFileExitsTwo() throws {
        let r = try runInfo(["/nonexistent/instrument.sfz"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "backbeat instrument: '/nonexistent/instrument.sfz': No such file or directory\n")
        let directory = try makeTemporaryDirectory("backbeat-sfz")
        defer { try? FileManager.default.removeItem(at: directory) }
        let d = try runInfo([directory.path])
        #expect(d.status == 2)
        #expect(d.stderr.contains("not a regular file"))
    }
}
