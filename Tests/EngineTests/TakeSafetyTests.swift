import Foundation
import Testing
@testable import Engine
import MIDI
import SystemPackage

/// Issue 41: a take never destroys what was at its path. It is written to a temporary file beside the path
/// and renamed over it with its first events; a take that records nothing leaves the old file as it was; a
/// path that is not a regular file (device node, FIFO, directory) is refused before recording starts and
/// never written, replaced or removed. Device nodes are copies made with mknod in a temporary folder, never
/// the real ones.
@Suite struct TakeSafetyTests {
    let folder: URL
    init() throws { folder = try makeTemporaryDirectory("backbeat-take-safety") }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() }
    func bytes(_ path: String) -> [UInt8]? { (try? Data(contentsOf: URL(fileURLWithPath: path))).map { [UInt8]($0) } }
    func type(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }
    func capture() -> CaptureController { CaptureController(engine: Engine(options: EngineOptions(), log: { _ in })) }

    @Test(arguments: ["midi", "audio"])
    func aTakeThatRecordsNothingLeavesTheOldFileAsItWas(kind: String) throws {
        let song = path(kind == "midi" ? "song.mid" : "song.wav")
        let old: [UInt8] = Array("the song I made yesterday".utf8)
        try Data(old).write(to: URL(fileURLWithPath: song))
        let capture = capture()
        let summary: CaptureSummary?
        if kind == "midi" {
            try capture.startMIDIRecording(to: song)
            #expect(bytes(song) == old, "untouched while recording")
            summary = try capture.stopMIDIRecording()
        } else {
            try capture.prepareAudioRecording(to: song)
            #expect(bytes(song) == old, "untouched while recording")
            summary = capture.stopAudioRecording()
        }
        #expect(summary?.message.hasPrefix("nothing recorded") == true, "\(summary?.message ?? "nil")")
        #expect(bytes(song) == old)
        #expect(contents == [URL(fileURLWithPath: song).lastPathComponent], "no temporary file left: \(contents)")
    }

    /// The streamed take goes in place with its first events; until then the path keeps what it had.
    @Test func theStreamedTakeReplacesTheFileWithItsFirstEvents() throws {
        let song = path("song.mid")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: song))
        let writer = try SMFStreamWriter(path: song)
        #expect(bytes(song) == [1, 2, 3] && contents.count == 2, "beside it until events come: \(contents)")
        try writer.append([TakeEvent(seconds: 0.1, port: 0, event: .message(.noteOn(NoteOn(channel: 0, note: 60, velocity: 100))))])
        #expect(bytes(song) == [1, 2, 3], "the recorder puts it in place after the append")
        try writer.publish()
        #expect(contents == ["song.mid"], "\(contents)")
        let file = try StandardMIDIFile(bytes: try #require(bytes(song)))
        #expect(file.timedEvents().contains { if case .message(.noteOn) = $0.event { true } else { false } })
        try writer.close()
        #expect(contents == ["song.mid"])
    }

    /// What each non-regular path is made of, in the temporary folder.
    func makeSpecialFiles() throws -> [(path: String, type: mode_t)] {
        let full = path("full"), null = path("null"), fifo = path("fifo"), directory = path("folder")
        // Copies of /dev/full (1, 7) and /dev/null (1, 3), device numbers as Linux encodes small ones
        // (major << 8 | minor): as root (the test machines and CI) mknod works.
        #expect(mknod(full, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0, "mknod needs root: \(Errno.last)")
        #expect(mknod(null, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: path("link-to-full"), withDestinationPath: full)
        return [(full, S_IFCHR), (null, S_IFCHR), (fifo, S_IFIFO), (directory, S_IFDIR), (path("link-to-full"), S_IFLNK)]
    }

    /// Before: `--record-midi /dev/full` deleted the device node (the take unlinked its path when the first
    /// write failed), and a FIFO with no reader blocked in open().
    @Test func aDeviceNodeOrFIFOIsRefusedBeforeRecordingAndNeverRemoved() throws {
        let special = try makeSpecialFiles()
        for (file, fileType) in special {
            let capture = capture()
            #expect(throws: SystemError.self, "\(file)") { try CaptureController.checkWritable(file) }
            #expect {
                try capture.startMIDIRecording(to: file)
            } throws: { error in
                let text = (error as? SystemError)?.description ?? ""
                return text.contains(file) && (text.contains("not a regular file") || text.contains("is a directory"))
            }
            #expect(throws: SystemError.self, "\(file)") { try capture.prepareAudioRecording(to: file) }
            #expect(!capture.isRecordingMIDI && !capture.isRecordingAudio)
            #expect(type(file) == fileType, "\(file) is still what it was")
        }
        #expect(contents == ["fifo", "folder", "full", "link-to-full", "null"], "\(contents)")
    }

    /// The log (`--log`) is protected from the takes as the inputs are, and the refusal says it is the log.
    @Test func aTakeMayNotReplaceTheLogFile() throws {
        let log = path("backbeat.log")
        try Data("[1.0] ready: ...\n".utf8).write(to: URL(fileURLWithPath: log))
        OutputFile.protect(log, role: "the log file")
        #expect {
            try CaptureController.checkWritable(log)
        } throws: { error in
            ((error as? SystemError)?.description ?? "").contains("is the log file '\(log)'")
        }
        #expect(bytes(log) == Array("[1.0] ready: ...\n".utf8))
    }
}
