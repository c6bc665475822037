import Glibc
import Testing
@testable import DSP
import TestSupport

// The loader on real fonts and on hostile bytes: every structural error names the chunk, never a crash.

private let timGM = "/usr/share/sounds/sf2/TimGM6mb.sf2"
private let fluidR3 = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

private func readFile(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { return [] }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        bytes += buffer[0 ..< n]
    }
    return bytes
}

/// The error loading `bytes` gives (nil if it loads).
private func loadError(_ bytes: [UInt8]) -> SoundFontError? {
    do {
        _ = try SoundFont.load(bytes: bytes, path: "hostile.sf2")
        return nil
    } catch {
        return error
    }
}

@Suite struct SoundFontLoaderTests {
    @Test(.needs(file: timGM, package: "timgm6mb-soundfont"))
    func timGM6mbLoadsWithGeneralMIDIPresetsAndADrumKit() throws {
        let font = try SoundFont.load(path: timGM)
        #expect(font.path == timGM)
        #expect(!font.name.isEmpty)
        let melodic = font.presets.filter { $0.bank == 0 }
        #expect(Set(melodic.map(\.program)) == Set(0 ... 127), "all 128 General MIDI programs in bank 0")
        let drums = try #require(font.exactPreset(bank: 128, program: 0), "a drum kit in bank 128")
        #expect(font.presets[drums].zoneCount > 40, "a kit has a zone per drum sound")
        #expect(font.presetCount == font.presets.count && font.presetCount >= 129)
        #expect(font.zones.count > 300)
        #expect(font.sampleData.count > 1_000_000)
        // Every zone points at a sample inside the data, and its modulators inside the list.
        for zone in font.zones {
            let sample = font.samples[Int(zone.sample)]
            #expect(sample.start < sample.end && Int(sample.end) <= font.sampleData.count)
            #expect(sample.loopStart <= sample.loopEnd && sample.loopEnd <= sample.end)
            #expect(Int(zone.modulatorStart + zone.modulatorCount) <= font.modulators.count)
        }
        // Every preset's zones together cover the keys: the piano answers every key from A0 to C8.
        let piano = font.presets[try #require(font.exactPreset(bank: 0, program: 0))]
        let pianoZones = font.zones[Int(piano.zoneStart) ..< Int(piano.zoneStart + piano.zoneCount)]
        for key in UInt8(21) ... 108 {
            #expect(pianoZones.contains { $0.contains(key: key, velocity: 100) }, "piano key \(key)")
        }
        // The drum kit's zones are single keys or small ranges within the GM percussion map.
        let kit = font.presets[drums]
        let kitZones = font.zones[Int(kit.zoneStart) ..< Int(kit.zoneStart + kit.zoneCount)]
        #expect(kitZones.contains { $0.contains(key: 36, velocity: 100) }, "bass drum 1")
        #expect(kitZones.contains { $0.contains(key: 38, velocity: 100) }, "acoustic snare")
        #expect(kitZones.contains { $0.contains(key: 42, velocity: 100) }, "closed hi-hat")
    }

    @Test(.needs(file: fluidR3, package: "fluid-soundfont-gm"))
    func aLargeFontIsMappedNotRead() throws {
        func residentKB() -> Int {
            let status = readFile("/proc/self/status")
            let text = String(decoding: status, as: UTF8.self)
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return -1 }
            return Int(line.split(separator: " ")[1]) ?? -1
        }
        /// The resident kB of this process's mappings of the font file (/proc/self/smaps): exact, whatever
        /// other tests running in parallel allocate.
        func mappedResidentKB() -> Int {
            let text = String(decoding: readFile("/proc/self/smaps"), as: UTF8.self)
            var total = 0, inFont = false
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if let first = fields.first, first.contains("-"), first.last != ":" {
                    inFont = line.hasSuffix(fluidR3)
                } else if inFont, fields.first == "Rss:", fields.count > 1 {
                    total += Int(fields[1]) ?? 0
                }
            }
            return total
        }
        var info = stat()
        #expect(stat(fluidR3, &info) == 0)
        let before = residentKB()
        let font = try SoundFont.load(path: fluidR3)
        let growth = residentKB() - before
        let mapped = mappedResidentKB()
        #expect(font.presetCount > 128)
        #expect(font.sampleData.count * 2 > Int(info.st_size) / 2, "the sample data is most of the file")
        #expect(mapped > 0 && mapped < 40_000, "\(mapped) kB of the \(info.st_size / 1024) kB file resident")
        // The whole process's growth also counts what tests running beside this one allocate: a looser bound
        // that a loader reading the file would still break.
        #expect(growth < Int(info.st_size) / 1024 / 2, "resident memory grew \(growth) kB")
        print("FluidR3_GM: \(info.st_size / 1024) kB file; after loading \(mapped) kB of it resident, process grew \(growth) kB; \(font.zones.count) zones")
    }

    @Test func missingFileAndNonFontsGiveClearErrors() throws {
        #expect(throws: SoundFontError.self) { try SoundFont.load(path: "/nonexistent/font.sf2") }
        do {
            _ = try SoundFont.load(path: "/nonexistent/font.sf2")
        } catch {
            #expect(error.description.hasPrefix("/nonexistent/font.sf2: cannot open"))
        }
        do {
            _ = try SoundFont.load(path: "/proc")
        } catch {
            #expect(error.reason == "not a regular file")
        }
        #expect(loadError([])?.chunk == "RIFF")
        #expect(loadError(Array("RIFF\u{4}\0\0\0WAVE____".utf8))?.reason.contains("not a SoundFont") == true)
        #expect(loadError(Array("RIFX\u{4}\0\0\0sfbk____".utf8))?.reason.contains("not a RIFF file") == true)
    }

    /// One copy of the font in a file, cut shorter and shorter in place (`ftruncate`) and loaded from the file
    /// as a user's font is (mapped): no copy of megabytes per cut, which took 20 s through `load(bytes:)`.
    @Test(.needs(file: timGM, package: "timgm6mb-soundfont"))
    func truncatingTheRealFontAnywhereGivesAnErrorNeverACrash() throws {
        let bytes = readFile(timGM)
        #expect(bytes.count > 1_000_000)
        let tmp = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        let path = "\(tmp)/backbeat-cut-font-\(getpid())-\(UInt32.random(in: 0 ... UInt32.max)).sf2"
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0, "cannot create \(path)")
        defer { close(fd); unlink(path) }
        let cuts = (1 ..< 50).map { bytes.count * $0 / 50 }.reversed()
        func cutFont(at cut: Int, riffSize: UInt32? = nil) throws -> SoundFontError? {
            try #require(ftruncate(fd, off_t(cut)) == 0)
            if var size = riffSize?.littleEndian { try #require(pwrite(fd, &size, 4, 4) == 4) }
            do { _ = try SoundFont.load(path: path); return nil } catch { return error }
        }

        try #require(bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == bytes.count)
        for cut in cuts {
            let error = try cutFont(at: cut)
            #expect(error?.chunk == "RIFF", "cut at \(cut): \(String(describing: error))")
            #expect(error?.reason.contains("truncated") == true)
        }
        // Fix the RIFF size to match, so the cut is found inside the chunks instead.
        try #require(bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == bytes.count)
        for cut in cuts {
            let error = try cutFont(at: cut, riffSize: UInt32(cut - 8))
            #expect(error != nil, "cut at \(cut) loaded")
            #expect(error?.offset ?? -1 >= 0 && error?.offset ?? Int.max <= cut)
        }
    }

    @Test func wrongSizesAreNamedWithTheirChunk() throws {
        let good = SoundFontBuilder.minimal().bytes()
        #expect(loadError(good) == nil)

        var huge = good
        let pgen = SoundFontBuilder.offset(of: "pgen", in: huge)
        SoundFontBuilder.poke32(&huge, pgen + 4, 0xFFFF_FFFF)
        let hugeError = try #require(loadError(huge))
        #expect(hugeError.chunk == "pdta/pgen" && hugeError.offset == pgen && hugeError.reason.hasPrefix("bad size"))

        var odd = good
        SoundFontBuilder.poke32(&odd, pgen + 4, 6)
        #expect(loadError(odd)?.chunk.hasPrefix("pdta/") == true, "a size that shifts the next chunk header")

        var riff = good
        SoundFontBuilder.poke32(&riff, 4, 0xFFFF_FFFF)
        #expect(loadError(riff)?.chunk == "RIFF")

        var shdr = good
        let s = SoundFontBuilder.offset(of: "shdr", in: shdr)
        SoundFontBuilder.poke32(&shdr, s + 4, 91)  // 92 bytes with the pad: the walk stays aligned
        let shdrError = try #require(loadError(shdr))
        #expect(shdrError.chunk == "pdta/shdr", "\(shdrError)")
        #expect( shdrError.reason.contains("not a multiple of the 46-byte record"))
    }

    @Test func zeroLengthPdtaAndMissingChunksAreNamed() throws {
        let good = SoundFontBuilder.minimal().bytes()
        // pdta's LIST cut to its type: every hydra chunk is missing.
        var empty = good
        let pdta = SoundFontBuilder.offset(of: "pdta", in: empty) - 8
        empty = Array(empty[0 ..< pdta + 12])
        SoundFontBuilder.poke32(&empty, pdta + 4, 4)
        SoundFontBuilder.poke32(&empty, 4, UInt32(empty.count - 8))
        let error = try #require(loadError(empty))
        #expect(error.chunk == "pdta/phdr" && error.reason.hasPrefix("missing chunk"))

        /// `good` with the chunk `tag` renamed `other`: the chunk is missing.
        func renaming(_ tag: String, to other: String) -> [UInt8] {
            var bytes = good
            let at = SoundFontBuilder.offset(of: tag, in: bytes)
            bytes.replaceSubrange(at ..< at + 4, with: Array(other.utf8))
            return bytes
        }
        #expect(loadError(renaming("phdr", to: "xxxx"))?.chunk == "pdta/phdr")
        let smplError = try #require(loadError(renaming("smpl", to: "junk")))
        #expect(smplError.chunk == "sdta/smpl" && smplError.reason.hasPrefix("missing chunk"))
        #expect(loadError(renaming("ifil", to: "ifix"))?.chunk == "INFO/ifil")
    }

    @Test func badIndicesAreNamedWithTheirChunkAndOffset() throws {
        var b = SoundFontBuilder.minimal()
        b.instruments[0].zones = [SoundFontBuilder.Zone([SoundFontBuilder.Zone.gen(17, 0)], target: 0),
                                  SoundFontBuilder.Zone([SoundFontBuilder.Zone.gen(17, 1)], target: 0)]
        let good = b.bytes()
        #expect(loadError(good) == nil)

        // ibag: the second zone's generator index below the first's.
        var decreasing = good
        let ibag = SoundFontBuilder.offset(of: "ibag", in: decreasing)
        SoundFontBuilder.poke16(&decreasing, ibag + 8 + 4, 0)
        SoundFontBuilder.poke16(&decreasing, ibag + 8, 1)
        let bagError = try #require(loadError(decreasing))
        #expect(bagError.chunk == "pdta/ibag" && bagError.reason.contains("not increasing"))
        #expect(bagError.offset == ibag + 8 + 4)

        // igen: sampleID out of range.
        var sampleID = good
        let igen = SoundFontBuilder.offset(of: "igen", in: sampleID)
        SoundFontBuilder.poke16(&sampleID, igen + 8 + 4 + 2, 9)
        let igenError = try #require(loadError(sampleID))
        #expect(igenError.chunk == "pdta/igen" && igenError.offset == igen + 8 + 4)
        #expect(igenError.reason == "sample index 9 out of range (1 samples)")

        // pgen: instrument out of range.
        var instrument = good
        let pgen = SoundFontBuilder.offset(of: "pgen", in: instrument)
        SoundFontBuilder.poke16(&instrument, pgen + 8 + 2, 3)
        #expect(loadError(instrument)?.chunk == "pdta/pgen")
        #expect(loadError(instrument)?.reason.contains("instrument index 3 out of range") == true)

        // phdr: bag indices decreasing.
        var phdr = good
        let p = SoundFontBuilder.offset(of: "phdr", in: phdr)
        SoundFontBuilder.poke16(&phdr, p + 8 + 24, 1)  // the first preset starts at bag 1, the terminal at 1
        SoundFontBuilder.poke16(&phdr, p + 8 + 38 + 24, 0)
        #expect(loadError(phdr)?.chunk == "pdta/phdr")
    }

    @Test func samplePointsAreCheckedAgainstSmpl() throws {
        let good = SoundFontBuilder.minimal(frames: 64).bytes()
        let shdr = SoundFontBuilder.offset(of: "shdr", in: good) + 8
        // end < start.
        var backwards = good
        SoundFontBuilder.poke32(&backwards, shdr + 20, 50)
        SoundFontBuilder.poke32(&backwards, shdr + 24, 10)
        let error = try #require(loadError(backwards))
        #expect(error.chunk == "pdta/shdr" && error.offset == shdr && error.reason.contains("ends (10) before it starts (50)"))
        // start far outside smpl.
        var outside = good
        SoundFontBuilder.poke32(&outside, shdr + 20, 1_000_000)
        SoundFontBuilder.poke32(&outside, shdr + 24, 1_000_010)
        #expect(loadError(outside)?.reason.contains("sample points outside smpl") == true)
        // Issue 27: the sample's name, from the file, reached the terminal raw in this error.
        var hostile = backwards
        for (i, byte) in [0x1B, 0x5B, 0x32, 0x4A, 0x07, 0x5C].enumerated() { hostile[shdr + i] = UInt8(byte) }  // ESC [ 2 J BEL backslash
        let named = try #require(loadError(hostile))
        #expect(named.reason.contains("'\\x1B[2J\\x07\\\\"), "\(named.reason)")
        #expect(!"\(named)".unicodeScalars.contains { $0.value < 0x20 }, "no control character in \(named)")
        // end slightly past the data: clamped; loop points reversed: no loop.
        var past = good
        SoundFontBuilder.poke32(&past, shdr + 24, 64 + 46 + 10)
        SoundFontBuilder.poke32(&past, shdr + 28, 40)
        SoundFontBuilder.poke32(&past, shdr + 32, 20)
        let font = try SoundFont.load(bytes: past)
        #expect(font.samples[0].end == 64 + 46)
        #expect(font.samples[0].loopStart == 0 && font.samples[0].loopEnd == 0)
    }

    @Test func hugeZoneProductsAndModulatorListsAreBounded() throws {
        typealias Zone = SoundFontBuilder.Zone
        // 520 preset zones on an instrument of 2048 zones: more pairs than the loader considers.
        var b = SoundFontBuilder.minimal()
        b.instruments[0].zones = (0 ..< 2048).map { _ in Zone([Zone.range(43, 0, 0)], target: 0) }
        b.presets[0].zones = (0 ..< 520).map { _ in Zone([Zone.range(43, 127, 127)], target: 0) }
        let bytes = b.bytes()
        let error = try #require(loadError(bytes))
        #expect(error.chunk == "pdta/phdr" && error.reason.hasPrefix("too many zones"))
        #expect(error.offset == SoundFontBuilder.offset(of: "phdr", in: bytes) + 8)

        // A zone with 100 distinct modulators keeps 64 (FluidSynth's limit), plus the 10 defaults.
        var many = SoundFontBuilder.minimal()
        many.instruments[0].zones[0].modulators = (0 ..< 100).map {
            SoundFontModulator(source: UInt16(0x80 | $0 % 120), destination: UInt16(8 + $0 / 120), amount: 1, amountSource: 0, transform: 0)
        }
        let font = try SoundFont.load(bytes: many.bytes())
        #expect(font.zones[0].modulatorCount == 10 + 64)
    }
}
