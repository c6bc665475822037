// Zones: the bags of phdr/inst, their generators and modulators, read as the specification says and with the
// tolerances FluidSynth applies to real fonts (its sffile.c and fluid_defsfont.c):
// - keyRange counts only as a zone's first generator, velRange only after nothing or keyRange;
// - the zone's last generator is `instrument` (preset level) or `sampleID` (instrument level): generators after
//   it are ignored; a zone without it is a global zone, kept only when it is the first zone;
// - a generator given twice keeps the last value; unknown or reserved generators, and at preset level those the
//   specification allows only in instruments, are ignored;
// - of two identical modulators in one zone only the last counts; modulators whose destination is another
//   modulator (0x8000, linked modulators) are dropped; a zone keeps at most `maxModulators` distinct ones
//   (FluidSynth's limit, 64), which also bounds the work a hostile zone of 65535 modulators can cause.

enum ZoneLevel {
    case preset, instrument

    var name: String { self == .preset ? "p" : "i" }
    /// The generator that ends a zone and names what it plays.
    var terminal: Int { self == .preset ? SoundFontGenerator.instrument : SoundFontGenerator.sampleID }

    /// Whether a generator may appear at this level (other than the ranges and the terminal generator).
    func allows(_ generator: Int) -> Bool {
        guard generator >= 0, generator <= SoundFontGenerator.overridingRootKey else { return false }
        switch generator {
        case 14, 18, 19, 20, 42, 49, 55, 59: return false  // unused and reserved: no names (59 is Backbeat's initialPitch)
        case SoundFontGenerator.instrument, SoundFontGenerator.sampleID: return false
        default: return self == .instrument || !ZoneLevel.instrumentOnly(generator)
        }
    }

    /// Generators the specification (8.1.3) allows only at instrument level: sample address offsets, keynum,
    /// velocity, sampleModes, exclusiveClass and overridingRootKey. At preset level they are ignored.
    static func instrumentOnly(_ generator: Int) -> Bool {
        switch generator {
        case SoundFontGenerator.startAddressOffset, SoundFontGenerator.endAddressOffset,
             SoundFontGenerator.startLoopAddressOffset, SoundFontGenerator.endLoopAddressOffset,
             SoundFontGenerator.startAddressCoarseOffset, SoundFontGenerator.endAddressCoarseOffset,
             SoundFontGenerator.startLoopAddressCoarseOffset, SoundFontGenerator.endLoopAddressCoarseOffset,
             SoundFontGenerator.keynum, SoundFontGenerator.velocity, SoundFontGenerator.sampleModes,
             SoundFontGenerator.exclusiveClass, SoundFontGenerator.overridingRootKey: true
        default: false
        }
    }
}

extension SoundFontParser {
    static func readZones(_ r: RIFFReader, owners: [(owner: ParsedBagOwner, bag: Int, offset: Int)],
                          bags: RIFFChunk, gens: RIFFChunk, mods: RIFFChunk, level: ZoneLevel,
                          targetCount: Int) throws(SoundFontError) -> [ParsedBagOwner] {
        let prefix = level.name
        let bagCount = bags.size / 4
        let genCount = gens.size / 4
        let modCount = mods.size / 10
        // The owners' terminal record ends the last owner's bags: it must name an existing bag (the bag list
        // has a terminal record of its own that ends the last zone).
        if let last = owners.last, last.bag > bagCount - 1 {
            let header = level == .preset ? "phdr" : "inst"
            throw r.error("pdta/\(header)", last.offset, "bag index \(last.bag) out of range (\(prefix)bag has \(bagCount - 1) zones)")
        }
        // Each bag's generator and modulator indices must not decrease and must stay inside their chunks.
        var previous = (gen: 0, mod: 0)
        for b in 0 ..< bagCount {
            let o = bags.dataStart + b * 4
            let gen = Int(r.u16(o)), mod = Int(r.u16(o + 2))
            guard gen >= previous.gen, mod >= previous.mod else {
                throw r.error("pdta/\(prefix)bag", o, gen < previous.gen
                    ? "generator indices not increasing: bag \(b) starts at \(gen), after \(previous.gen)"
                    : "modulator indices not increasing: bag \(b) starts at \(mod), after \(previous.mod)")
            }
            guard gen <= genCount else {
                throw r.error("pdta/\(prefix)bag", o, "generator index \(gen) out of range (\(prefix)gen has \(genCount) records)")
            }
            guard mod <= modCount else {
                throw r.error("pdta/\(prefix)bag", o, "modulator index \(mod) out of range (\(prefix)mod has \(modCount) records)")
            }
            previous = (gen, mod)
        }

        var result: [ParsedBagOwner] = []
        result.reserveCapacity(max(owners.count - 1, 0))
        for i in 0 ..< max(owners.count - 1, 0) {
            var owner = owners[i].owner
            for b in owners[i].bag ..< owners[i + 1].bag {
                let o = bags.dataStart + b * 4
                let genRange = Int(r.u16(o)) ..< Int(r.u16(o + 4))
                let modRange = Int(r.u16(o + 2)) ..< Int(r.u16(o + 6))
                var zone = try readGenerators(r, gens, genRange, level: level, targetCount: targetCount)
                zone.modulators = readModulators(r, mods, modRange)
                if zone.target != nil {
                    owner.zones.append(zone)
                } else if b == owners[i].bag {
                    owner.global = zone
                }  // a global zone anywhere but first is dropped, as FluidSynth does
            }
            result.append(owner)
        }
        return result
    }

    static func readGenerators(_ r: RIFFReader, _ chunk: RIFFChunk, _ range: Range<Int>, level: ZoneLevel,
                               targetCount: Int) throws(SoundFontError) -> ParsedZone {
        var zone = ParsedZone()
        var onlyRangesSoFar = true, sawKeyRange = false, sawVelocityRange = false
        for g in range {
            let o = chunk.dataStart + g * 4
            let generator = Int(r.u16(o))
            let low = r.u8(o + 2), high = r.u8(o + 3)
            switch generator {
            case SoundFontGenerator.keyRange:
                if onlyRangesSoFar && !sawKeyRange && !sawVelocityRange { zone.keyRange = (low, high); sawKeyRange = true }
            case SoundFontGenerator.velRange:
                if onlyRangesSoFar && !sawVelocityRange { zone.velocityRange = (low, high); sawVelocityRange = true }
            case level.terminal:
                let index = Int(r.u16(o + 2))
                guard index < targetCount else {
                    let what = level == .preset ? "instrument" : "sample"
                    throw r.error("pdta/\(level.name)gen", o, "\(what) index \(index) out of range (\(targetCount) \(what)s)")
                }
                zone.target = index
                return zone  // the terminal generator is the last: what follows it is ignored
            default:
                onlyRangesSoFar = false
                if level.allows(generator) { zone.set(generator, Int32(r.i16(o + 2))) }
            }
        }
        return zone
    }

    /// The most modulators one zone keeps (FluidSynth's FLUID_NUM_MOD).
    static var maxModulators: Int { 64 }

    static func readModulators(_ r: RIFFReader, _ chunk: RIFFChunk, _ range: Range<Int>) -> [SoundFontModulator] {
        var list: [SoundFontModulator] = []
        for m in range {
            let o = chunk.dataStart + m * 10
            let mod = SoundFontModulator(source: r.u16(o), destination: r.u16(o + 2), amount: Int32(r.i16(o + 4)),
                                         amountSource: r.u16(o + 6), transform: r.u16(o + 8))
            guard mod.destination & 0x8000 == 0, Int(mod.destination) < SoundFontGenerator.count else { continue }
            if let i = list.firstIndex(where: { $0.isIdentical(to: mod) }) {
                list.remove(at: i)  // the later of two identical modulators wins, in the later's place
            } else if list.count == maxModulators {
                continue
            }
            list.append(mod)
        }
        return list
    }
}
