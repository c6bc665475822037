// OutputFile (Sources/Engine/Capture/OutputFile.swift) and the RF64 switch of the WAV writer.
import Foundation
import Testing
@testable import Engine

@Suite struct OutputFileTests {
    let directory: URL

    init() throws { directory = try makeTemporaryDirectory("backbeat-output") }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func fileType(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    @Test func anOutputThatIsTheInputIsRefusedAlsoThroughLinks() throws {
        let input = path("in.mid")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: input))
        try FileManager.default.createSymbolicLink(atPath: path("soft.mid"), withDestinationPath: "in.mid")
        #expect(link(input, path("hard.mid")) == 0)
        for output in [input, path("soft.mid"), path("hard.mid")] {
            #expect {
                try OutputFile.write([9, 9], to: output, inputs: [input])
            } throws: { error in
                let text = (error as? SystemError)?.description ?? ""
                return text.contains("'\(output)'") && text.contains("'\(input)'") && text.contains("is the input")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == Data([1, 2, 3]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["hard.mid", "in.mid", "soft.mid"])
        // Another file is fine.
        try OutputFile.write([7], to: path("other.mid"), inputs: [input])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("other.mid"))) == Data([7]))
    }

    @Test func aSymbolicLinkKeepsItsLinkAndItsTargetIsReplaced() throws {
        let target = path("real.wav")
        try Data([1]).write(to: URL(fileURLWithPath: target))
        #expect(chmod(target, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: path("link.wav"), withDestinationPath: "real.wav")
        try OutputFile.write([4, 5, 6], to: path("link.wav"))
        #expect(fileType(path("link.wav")) == S_IFLNK)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data([4, 5, 6]))
        var status = stat()
        #expect(stat(target, &status) == 0 && status.st_mode & 0o777 == 0o600, "the replacement keeps the permissions")
        // A dangling link creates its target.
        try FileManager.default.createSymbolicLink(atPath: path("new-link.wav"), withDestinationPath: "new.wav")
        try OutputFile.write([8], to: path("new-link.wav"))
        #expect(fileType(path("new-link.wav")) == S_IFLNK)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("new.wav"))) == Data([8]))
    }

    @Test func aFIFOIsWrittenIntoNotReplaced() throws {
        let fifo = path("pipe.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = ReceivedBytes()
        let reader = Thread {
            let handle = FileHandle(forReadingAtPath: fifo)
            received.set(handle?.readDataToEndOfFile() ?? Data())
        }
        reader.start()
        let file = try OutputFile(path: fifo)
        #expect(!file.isRegular && !file.isSeekable && file.temporaryPath == nil)
        try file.write([1, 2, 3, 4])
        try file.commit()
        #expect(received.wait() == Data([1, 2, 3, 4]))
        #expect(fileType(fifo) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["pipe.wav"])
    }

    @Test func aRegularFileIsAllOrNothing() throws {
        let target = path("out.wav")
        try Data([1]).write(to: URL(fileURLWithPath: target))
        let file = try OutputFile(path: target)
        let temporary = try #require(file.temporaryPath)
        #expect(OutputFile.temporaries.contains(temporary), "registered for quit signals")
        try file.write([2, 2, 2])
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data([1]), "untouched until commit")
        file.discard()
        #expect(!FileManager.default.fileExists(atPath: temporary) && !OutputFile.temporaries.contains(temporary))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data([1]))
        #expect(throws: SystemError.self) { try OutputFile(path: directory.path) }
        #expect(throws: SystemError.self) { try OutputFile(path: path("missing/out.wav")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.wav"])
    }

    // MARK: RF64

    func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
    func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32 }
    func tag(_ bytes: [UInt8], _ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }

    /// soxi's sample count and duration of a file (sox reads RF64).
    func soxi(_ path: String) throws -> (samples: Int, seconds: Double) {
        let samples = try run("/usr/bin/soxi", ["-s", path])
        let seconds = try run("/usr/bin/soxi", ["-D", path])
        #expect(samples.status == 0 && seconds.status == 0, "\(samples.output) \(seconds.output)")
        return (Int(samples.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1,
                Double(seconds.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1)
    }

    @Test func theWAVWriterSwitchesToRF64WhenTheDataPassesTheLimit() throws {
        let target = path("big.wav")
        let limit = 1_000  // RIFF sizes above 1000 bytes are "over 4 GiB" for this test
        let writer = try WAVStreamWriter(output: OutputFile(path: target, mode: .growing), sampleRate: 8_000, rf64Above: limit)
        let left = (0..<1_000).map { Float($0) / 1_000 }, right = left.map { -$0 }
        try writer.append(left: left, right: right, count: 100)  // 800 bytes of data: RIFF size 886
        try writer.patchHeader()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: target)))
        #expect(tag(bytes, 0) == "RIFF" && tag(bytes, 12) == "JUNK" && u32(bytes, 4) == 886)
        #expect(u32(bytes, 90) == 800 && u32(bytes, 82) == 100)

        try writer.append(left: Array(left[100...]), right: Array(right[100...]), count: 900)
        try writer.close()
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: target)))
        #expect(bytes.count == WAVFile.headerSize + 8_000)
        #expect(tag(bytes, 0) == "RF64" && u32(bytes, 4) == 0xFFFF_FFFF && tag(bytes, 8) == "WAVE")
        #expect(tag(bytes, 12) == "ds64" && u32(bytes, 16) == 28)
        #expect(u64(bytes, 20) == UInt64(bytes.count - 8), "RIFF size")
        #expect(u64(bytes, 28) == 8_000, "data size")
        #expect(u64(bytes, 36) == 1_000, "sample count")
        #expect(u32(bytes, 44) == 0, "no table")
        #expect(tag(bytes, 48) == "fmt " && tag(bytes, 74) == "fact" && u32(bytes, 82) == 0xFFFF_FFFF)
        #expect(tag(bytes, 86) == "data" && u32(bytes, 90) == 0xFFFF_FFFF)
        let read = try WAVFile.read(target)
        #expect(read.left == left && read.right == right && read.sampleRate == 8_000)
        let sox = try soxi(target)
        #expect(sox.samples == 1_000 && abs(sox.seconds - 0.125) < 1e-6, "soxi: \(sox)")
    }

    @Test func belowTheLimitTheFileIsPlainWAVThatSoxReads() throws {
        let target = path("small.wav")
        let left: [Float] = Array(repeating: 0.25, count: 4_000), right = left
        try WAVFile.write(left: left, right: right, sampleRate: 8_000, to: target)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: target)))
        #expect(tag(bytes, 0) == "RIFF" && u32(bytes, 4) == UInt32(bytes.count - 8) && tag(bytes, 12) == "JUNK")
        let sox = try soxi(target)
        #expect(sox.samples == 4_000 && abs(sox.seconds - 0.5) < 1e-6, "soxi: \(sox)")
        // The real limit: a RIFF size of 0xFFFFFFFE is still plain WAV, one byte more is RF64.
        let lastPlain = (Int(UInt32.max) - 1 - (WAVFile.headerSize - 8)) / 8
        #expect(tag(WAVFile.header(frames: lastPlain, sampleRate: 8_000), 0) == "RIFF")
        #expect(tag(WAVFile.header(frames: lastPlain + 1, sampleRate: 8_000), 0) == "RF64")
        // At 48 kHz three hours (4.15 GB) still fit; 3 h 8 min (4.33 GB) used to wrap and is RF64 with its true size.
        let threeHours = WAVFile.header(frames: 3 * 3_600 * 48_000, sampleRate: 48_000)
        #expect(tag(threeHours, 0) == "RIFF" && u32(threeHours, 90) == UInt32(3 * 3_600 * 48_000 * 8))
        let longer = 11_280 * 48_000
        let rf64 = WAVFile.header(frames: longer, sampleRate: 48_000)
        #expect(tag(rf64, 0) == "RF64" && u64(rf64, 28) == UInt64(longer * 8) && u64(rf64, 36) == UInt64(longer))
        // Unknown length (a pipe): sox's "unspecified" data size.
        let unknown = WAVFile.header(frames: nil, sampleRate: 8_000)
        #expect(tag(unknown, 0) == "RIFF" && u32(unknown, 90) == 0x7FFF_F000 && u32(unknown, 4) == 0x7FFF_F000 + 86)
    }
}

/// Bytes a reader thread received, handed to the test.
private final class ReceivedBytes: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()
    func set(_ data: Data) { self.data = data; done.signal() }
    func wait() -> Data? { done.wait(timeout: .now() + 10) == .success ? data : nil }
}
