// Writes valid SoundFont 2 bytes (RIFF 'sfbk') from a small description, so tests can make the fonts they
// need: SoundFont.load(bytes:) reads them back. Samples go into smpl one after another, each followed by the
// 46 zero frames the specification asks for; a zone's `target` becomes its terminal generator (instrument
// for a preset zone, sampleID for an instrument zone), and a zone without one is a global zone.
@testable import DSP

struct SoundFontBuilder {
    struct Zone {
        /// (generator, raw 16-bit amount) in file order; use `range` for keyRange and velRange.
        var generators: [(UInt16, UInt16)] = []
        var modulators: [SoundFontModulator] = []
        /// The instrument (preset zone) or sample (instrument zone); nil makes a global zone.
        var target: Int?

        init(_ generators: [(UInt16, UInt16)] = [], modulators: [SoundFontModulator] = [], target: Int? = nil) {
            self.generators = generators
            self.modulators = modulators
            self.target = target
        }

        static func gen(_ generator: Int, _ value: Int) -> (UInt16, UInt16) {
            (UInt16(generator), UInt16(bitPattern: Int16(value)))
        }

        static func range(_ generator: Int, _ low: UInt8, _ high: UInt8) -> (UInt16, UInt16) {
            (UInt16(generator), UInt16(low) | UInt16(high) << 8)
        }
    }

    struct Preset {
        var name: String
        var bank: UInt16 = 0
        var program: UInt16 = 0
        var zones: [Zone]

        /// A preset of one zone that plays the first instrument.
        static func playing(_ name: String, bank: UInt16, program: UInt16) -> Preset {
            Preset(name: name, bank: bank, program: program, zones: [Zone(target: 0)])
        }

        /// Such presets from (name, bank, program).
        static func playing(_ list: [(String, UInt16, UInt16)]) -> [Preset] {
            list.map { playing($0.0, bank: $0.1, program: $0.2) }
        }
    }

    struct Instrument {
        var name: String
        var zones: [Zone]
    }

    struct Sample {
        var name: String
        var frames: [Int16]
        /// Loop points relative to the sample's first frame.
        var loopStart: UInt32 = 0
        var loopEnd: UInt32 = 0
        var sampleRate: UInt32 = 44_100
        var originalPitch: UInt8 = 60
        var pitchCorrection: Int8 = 0
        var type: UInt16 = 1
    }

    var name = "Test Font"
    var version: (UInt16, UInt16) = (2, 1)
    var presets: [Preset] = []
    var instruments: [Instrument] = []
    var samples: [Sample] = []
    /// Write an sm24 chunk (its low bytes all `sm24Value`) and declare version 2.04.
    var sm24Value: UInt8?

    /// One instrument with one sample (a short sine-ish ramp) and one preset at bank/program: the smallest
    /// playable font.
    static func minimal(bank: UInt16 = 0, program: UInt16 = 0, frames: Int = 64) -> SoundFontBuilder {
        var b = SoundFontBuilder()
        b.samples = [Sample(name: "ramp", frames: (0 ..< frames).map { Int16($0 * 100) }, loopStart: 8, loopEnd: UInt32(frames - 8))]
        b.instruments = [Instrument(name: "inst", zones: [Zone([Zone.gen(54, 1)], target: 0)])]
        b.presets = [Preset(name: "preset", bank: bank, program: program, zones: [Zone(target: 0)])]
        return b
    }

    func bytes() -> [UInt8] {
        var info = chunk("ifil", le16(sm24Value == nil ? version.0 : 2) + le16(sm24Value == nil ? version.1 : 4))
        info += chunk("INAM", zeroTerminated(name))
        var smpl: [UInt8] = []
        var headers: [UInt8] = []
        var position: UInt32 = 0
        for s in samples {
            for f in s.frames { smpl += le16(UInt16(bitPattern: f)) }
            smpl += [UInt8](repeating: 0, count: 46 * 2)
            let start = position, end = position + UInt32(s.frames.count)
            headers += fixed(s.name, 20) + le32(start) + le32(end) + le32(start + s.loopStart) + le32(start + s.loopEnd)
            headers += le32(s.sampleRate) + [s.originalPitch, UInt8(bitPattern: s.pitchCorrection)] + le16(0) + le16(s.type)
            position = end + 46
        }
        headers += fixed("EOS", 20) + [UInt8](repeating: 0, count: 26)
        var sdta = chunk("smpl", smpl)
        if let low = sm24Value {
            let frames = smpl.count / 2
            sdta += chunk("sm24", [UInt8](repeating: low, count: frames + frames % 2))
        }
        let (pbag, pmod, pgen) = bags(presets.map(\.zones), terminal: 41)
        let (ibag, imod, igen) = bags(instruments.map(\.zones), terminal: 53)
        var phdr: [UInt8] = [], inst: [UInt8] = []
        var bag = 0
        for p in presets {
            phdr += fixed(p.name, 20) + le16(p.program) + le16(p.bank) + le16(UInt16(bag)) + [UInt8](repeating: 0, count: 12)
            bag += p.zones.count
        }
        phdr += fixed("EOP", 20) + le16(0) + le16(0) + le16(UInt16(bag)) + [UInt8](repeating: 0, count: 12)
        bag = 0
        for i in instruments {
            inst += fixed(i.name, 20) + le16(UInt16(bag))
            bag += i.zones.count
        }
        inst += fixed("EOI", 20) + le16(UInt16(bag))
        let pdta = chunk("phdr", phdr) + chunk("pbag", pbag) + chunk("pmod", pmod) + chunk("pgen", pgen)
            + chunk("inst", inst) + chunk("ibag", ibag) + chunk("imod", imod) + chunk("igen", igen) + chunk("shdr", headers)
        let body = Array("sfbk".utf8) + list("INFO", info) + list("sdta", sdta) + list("pdta", pdta)
        return chunk("RIFF", body)
    }

    /// The bag, modulator and generator chunks' data for one level, terminal records included.
    private func bags(_ owners: [[Zone]], terminal: UInt16) -> (bag: [UInt8], mod: [UInt8], gen: [UInt8]) {
        var bag: [UInt8] = [], mod: [UInt8] = [], gen: [UInt8] = []
        var genCount = 0, modCount = 0
        for zones in owners {
            for zone in zones {
                bag += le16(UInt16(genCount)) + le16(UInt16(modCount))
                var generators = zone.generators
                if let target = zone.target { generators.append((terminal, UInt16(target))) }
                for (g, amount) in generators { gen += le16(g) + le16(amount) }
                for m in zone.modulators {
                    mod += le16(m.source) + le16(m.destination) + le16(UInt16(bitPattern: Int16(truncatingIfNeeded: m.amount)))
                    mod += le16(m.amountSource) + le16(m.transform)
                }
                genCount += generators.count
                modCount += zone.modulators.count
            }
        }
        bag += le16(UInt16(genCount)) + le16(UInt16(modCount))
        gen += [0, 0, 0, 0]
        mod += [UInt8](repeating: 0, count: 10)
        return (bag, mod, gen)
    }

    /// The offset of the first chunk header with this id (e.g. "pgen") in `bytes`, past the RIFF header.
    static func offset(of id: String, in bytes: [UInt8]) -> Int {
        let pattern = Array(id.utf8)
        for i in 12 ..< bytes.count - 4 where Array(bytes[i ..< i + 4]) == pattern { return i }
        fatalError("no chunk \(id)")
    }

    /// Writes a little-endian 16- or 32-bit value into `bytes` at `offset`.
    static func poke16(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt16) {
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8(value >> 8)
    }

    static func poke32(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        poke16(&bytes, offset, UInt16(value & 0xFFFF))
        poke16(&bytes, offset + 2, UInt16(value >> 16))
    }
}

private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
private func le32(_ v: UInt32) -> [UInt8] { le16(UInt16(v & 0xFFFF)) + le16(UInt16(v >> 16)) }
private func chunk(_ id: String, _ data: [UInt8]) -> [UInt8] {
    Array(id.utf8) + le32(UInt32(data.count)) + data + (data.count % 2 == 1 ? [0] : [])
}
private func list(_ type: String, _ data: [UInt8]) -> [UInt8] { chunk("LIST", Array(type.utf8) + data) }
private func fixed(_ s: String, _ length: Int) -> [UInt8] {
    let bytes = Array(s.utf8.prefix(length - 1))
    return bytes + [UInt8](repeating: 0, count: length - bytes.count)
}
private func zeroTerminated(_ s: String) -> [UInt8] {
    let bytes = Array(s.utf8) + [0]
    return bytes.count % 2 == 1 ? bytes + [0] : bytes
}
