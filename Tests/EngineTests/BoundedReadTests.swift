import Foundation
import Testing
@testable import Engine
import SystemPackage

/// Issue 41: no read without a bound, no open that hangs. `SystemCall.readFile` is every file Backbeat reads
/// whole (MIDI files, configs, themes, presets, scenarios, plists); the command-line tests run each command
/// on the same kinds of file.
@Suite struct BoundedReadTests {
    let folder: URL
    init() throws { folder = try makeTemporaryDirectory("backbeat-bounded-read") }
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @Test func aFileLargerThanItsLimitIsRefusedBeforeItIsRead() throws {
        let big = path("big.toml")
        // Sparse: 2 MiB of size, no disk.
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, 2 << 20) == 0)
        #expect(throws: ReadFailure.tooLarge(limit: ReadLimit.text, what: "a scenario")) {
            try SystemCall.readFile(big, limit: ReadLimit.text, what: "a scenario")
        }
        #expect(ReadFailure.tooLarge(limit: ReadLimit.text, what: "a scenario").description
                == "it is larger than 1 MiB, the most a scenario may be")
        #expect(try SystemCall.readFile(big, limit: 4 << 20, what: "x").count == 2 << 20)
    }

    /// /dev/zero never ends; a FIFO with no writer used to block in open(2), one with a writer that never
    /// stops would never end either.
    @Test func aDeviceOrFIFOIsRefusedAtOnce() throws {
        let fifo = path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = ContinuousClock.now
        #expect(throws: ReadFailure.notRegular("a FIFO")) { try SystemCall.readFile(fifo, limit: 1 << 20, what: "x") }
        #expect(throws: ReadFailure.notRegular("a character device")) { try SystemCall.readFile("/dev/zero", limit: 1 << 20, what: "x") }
        #expect(throws: ReadFailure.notRegular("a directory")) { try SystemCall.readFile(folder.path, limit: 1 << 20, what: "x") }
        #expect(throws: ReadFailure.system(.noSuchFileOrDirectory)) { try SystemCall.readFile(path("missing"), limit: 1, what: "x") }
        #expect(ContinuousClock.now - started < .seconds(5), "nothing waited")
    }

    /// /proc files say they are empty: the limit is checked while reading too.
    @Test func aFileThatGrowsPastItsSizeIsCutOffAtTheLimit() throws {
        #expect(throws: ReadFailure.tooLarge(limit: 16, what: "x")) { try SystemCall.readFile("/proc/self/status", limit: 16, what: "x") }
        #expect(try SystemCall.readFile("/proc/self/status", limit: 1 << 20, what: "x").count > 16)
    }

    /// A FIFO as an output: written into once a program reads it; refused when none does within the wait (it
    /// used to wait in open(2) for ever, where a quit signal could not end it).
    @Test func aFIFONobodyReadsIsRefusedAsAnOutput() throws {
        let fifo = path("out.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = ContinuousClock.now
        #expect {
            try OutputFile(path: fifo, readerWait: .milliseconds(300))
        } throws: { error in
            ((error as? SystemError)?.description ?? "").contains("it is a FIFO and no program opened it for reading within 0.3 seconds")
        }
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}

/// The one number grammar of the command line (`DecimalText`, behind every numeric option).
@Suite struct DecimalTextTests {
    @Test func onlyPlainDecimalDigitsAreNumbers() {
        for (text, value) in [("12", 12), ("-1", -1), ("+3", 3), ("0048", 48)] { #expect(DecimalText.integer(text) == value, "\(text)") }
        for text in ["", " 1", "1 ", "0x10", "1e3", "1.0", "+", "-", "١٢", "9223372036854775808", "1_000", "--1"] {
            #expect(DecimalText.integer(text) == nil, "\(text)")
        }
        for (text, value) in [("2.5", 2.5), ("-.5", -0.5), ("1e3", 1000), ("10.", 10), ("1E-2", 0.01), ("+7", 7)] {
            #expect(DecimalText.decimal(text) == value, "\(text)")
        }
        for text in ["", " 1", "0x10", "nan", "inf", "-inf", "1e", "e5", ".", "1e308e", "1e400", "1..2", "0x1p3", "1,5"] {
            #expect(DecimalText.decimal(text) == nil, "\(text)")
        }
    }

    /// Random strings over the characters numbers are made of: whatever is accepted is what Swift reads
    /// for the same text, and made only of the grammar's characters.
    @Test func randomTextIsANumberOnlyWhenItIsPlainDigits() {
        var generator = SplitMix64(seed: 41)
        let alphabet = Array("0123456789+-.eExXabinf _")
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 8)
            let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            if let value = DecimalText.integer(text) {
                #expect(text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "+" || $0 == "-") } && Int(text.replacingOccurrences(of: "+", with: "")) == value, "\(text)")
            }
            if let value = DecimalText.decimal(text) {
                #expect(value.isFinite && Double(text) == value, "\(text)")
                #expect(!text.contains { "xXabinf _".contains($0) }, "\(text)")
            }
        }
    }
}
