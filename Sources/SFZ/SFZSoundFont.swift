import DSP
import Glibc

// An SFZ instrument made playable by the SoundFont sample voices: its regions become `SoundFontZone`s (one
// per region, two for a stereo sample, panned left and right as an SF2 stereo pair), its samples are decoded
// through libsndfile into the font's 16-bit frames and low bytes, and its opcodes become SF2 generators and
// modulator amounts (SFZRegion+Generators.swift; the table is in docs/sfz.md). The work is done here, off
// the real-time thread, once: the voices play the result exactly as they play a SoundFont.

/// An SFZ instrument that cannot play: what is wrong and, when the text says it, where.
public struct SFZPlayError: Error, Sendable, CustomStringConvertible {
    public var location: SFZLocation?
    public var message: String

    public init(_ location: SFZLocation?, _ message: String) { (self.location, self.message) = (location, message) }

    /// "file:line: message", or "message".
    public var description: String { location.map { "\($0): \(message)" } ?? message }
}

/// An instrument as a font: the font, the preset each MIDI channel plays (regions with `lochan`/`hichan`
/// make channels differ; most instruments have one preset for all 16), and what was approximated or left
/// out, one line per kind with a count.
public struct SFZSoundFont {
    public var font: SoundFont
    /// Preset key (bank << 7 | program) of channel 0...15's preset.
    public var channelPresetKeys: [Int32]
    public var notes: [String]
}

extension SFZInstrument {
    /// The bank numbers the instrument's presets take from `bank` up (at most 16 of them): banks no MIDI bank
    /// select reaches (above 255), so stacking it over a SoundFont shadows none of its presets.
    public static let firstBank = 0x400

    /// Decodes the samples and builds the font. Throws for a sample file that is missing or unreadable (naming
    /// the `sample=` line that wants it) and for an instrument with no region that can play. With
    /// `sampleCacheBytes`, an instrument whose samples decoded take more is streamed: only the heads are read
    /// now (SFZSampleData+Streaming.swift), the font's `sampleStream` reads the rest.
    public func soundFont(bank: Int = SFZInstrument.firstBank, sampleCacheBytes: Int? = nil,
                          headFrames: Int = SampleStreamStore.headFrames) throws(SFZPlayError) -> SFZSoundFont {
        var data = SFZSampleData()
        var lookup = SFZSampleLookup()
        if let sampleCacheBytes, SFZSampleData.decodedBytes(streamCandidates(&lookup)) > sampleCacheBytes {
            data.stream = SFZSampleData.Stream(headFrames: max(headFrames, 1))
        }
        var sampleSpans: [Int] = []
        var files: [String: SFZSampleData.File] = [:]
        var waves: [SFZGenerator: SFZSampleData.Span] = [:]
        var samples: [SoundFontSample] = [], names: [String] = []
        var regionZones: [[SoundFontZone]] = [], regionRules: [SampleZoneRule] = []
        var notes = SFZNotes()
        var modulators = SFZModulators()
        // sfizz follows CC 7 and 11 (the level) and CC 10 (the pan) only in an instrument that uses none of them
        // itself: the SF2 default modulators for them go where the instrument takes the CC.
        modulators.replacedDefaults = regions.reduce(into: Set<Int>()) { $0.formUnion($1.controllersUsed) }.intersection([7, 10, 11])

        for region in regions {
            regionRules.append(SampleZoneRule())
            guard let source = region.sample else { notes.add("regions without a sample= (skipped)"); regionZones.append([]); continue }
            guard var rule = region.noteRule(notes: &notes) else { regionZones.append([]); continue }
            rule.level.controllerLevels = region.controllerLevels(curves: curves, notes: &notes)
            regionRules[regionRules.count - 1] = rule
            var sides: [(span: SFZSampleData.Span, rate: Int, type: UInt16)] = []
            var fileLoop: SampleLoop?, fileRoot: Int?, periodic = false
            switch source {
            case .file(let path):
                if files[path] == nil {
                    guard let found = lookup.find(path) else {
                        throw SFZPlayError(region.sampleLocation ?? region.location, "sample '\(path)' is missing")
                    }
                    do {
                        files[path] = try data.appendFile(found)
                    } catch {
                        throw SFZPlayError(region.sampleLocation ?? region.location, "sample \(error.description)")
                    }
                }
                let file = files[path]!
                fileLoop = file.loop
                fileRoot = file.rootKey
                if file.channels.count == 2 {
                    sides = [(file.channels[0], file.sampleRate, 4), (file.channels[1], file.sampleRate, 2)]
                } else if let mono = file.channels.first {
                    sides = [(mono, file.sampleRate, 1)]
                }
            case .generator(let generator):
                if waves[generator] == nil { waves[generator] = data.appendWave(generator) }
                periodic = generator != .noise && generator != .gaussianNoise
                // One cycle at the key centre's pitch (noise at 48 kHz, whatever the key).
                let hertz = 440 * pow(2, Double(region.pitchKeycenter - 69) / 12)
                let rate = periodic ? Int((hertz * Double(SFZSampleData.cycleFrames)).rounded()) : 48_000
                sides = [(waves[generator]!, max(rate, 1), 1)]
            }
            guard !sides.isEmpty else { regionZones.append([]); continue }
            if sides.count == 1 && (region.width != 100 || region.position != 0) { notes.add("width/position on a mono sample (ignored)") }
            let root = region.pitchKeycenterFromSample ? (fileRoot ?? 60) : region.pitchKeycenter
            var zones: [SoundFontZone] = []
            let first = samples.count
            for (side, entry) in sides.enumerated() {
                // `count`: the passes written out as one sample (SFZRegion+Count.swift), offset and end in it.
                let (span, cut) = region.repeatedSpan(entry.span, generated: source.isGenerator, data: &data, notes: &notes)
                var played = region
                if cut { (played.offset, played.end) = (0, nil) }
                guard let header = played.sampleHeader(span, rate: entry.rate, root: root, fileLoop: fileLoop,
                                                       generated: source.isGenerator, notes: &notes) else { break }
                var header2 = header
                header2.type = entry.type
                header2.link = sides.count == 2 ? UInt16(truncatingIfNeeded: first + 1 - side) : 0
                samples.append(header2)
                sampleSpans.append(span.start)
                names.append(region.sampleName)
                // A stereo sample's sides go where `width` and `position` put them, each as a pan and a gain.
                let placed = sides.count == 2 ? region.stereoSide(side) : (pan: 0, gain: 1)
                var zone = region.zone(sample: samples.count - 1, root: root, stereoPan: placed.pan,
                                       loops: periodic || region.loops(fileLoop: fileLoop), notes: &notes)
                zone.gain *= Float(placed.gain)
                modulators.assign(&zone, region: region, notes: &notes)
                zones.append(zone)
            }
            regionZones.append(zones.count == sides.count ? zones : [])
        }

        let regionLimits = voiceLimits()
        // One preset per distinct set of regions the channels play (lochan/hichan), channels sharing it.
        var presets: [SoundFontPreset] = [], allZones: [SoundFontZone] = [], allRules: [SampleZoneRule] = []
        var keys = [Int32](repeating: -1, count: 16)
        var presetOfSet: [[Int]: Int32] = [:]
        for channel in 0..<16 {
            let set = regions.indices.filter { !regionZones[$0].isEmpty && regions[$0].channels.low <= channel + 1 && channel + 1 <= regions[$0].channels.high }
            if let key = presetOfSet[set] { keys[channel] = key; continue }
            let presetBank = bank + presets.count
            let key = Int32(presetBank << 7)
            let start = allZones.count
            for r in set {
                allZones += regionZones[r]
                for side in regionZones[r].indices {
                    var rule = regionRules[r]
                    rule.limits = regionLimits[r]
                    rule.limits.sister = side > 0 && rule.limits.endsVoices
                    allRules.append(rule)
                }
            }
            var preset = SoundFontPreset(name: presets.isEmpty ? displayName : "\(displayName) (channel \(channel + 1))",
                                         bank: UInt16(truncatingIfNeeded: presetBank), program: 0,
                                         zoneStart: Int32(start), zoneCount: Int32(allZones.count - start))
            for (cc, value) in initialControls where cc < 128 { preset.controllers[UInt8(cc)] = UInt8(clamping: value) }
            presets.append(preset)
            presetOfSet[set] = key
            keys[channel] = key
        }
        guard !allZones.isEmpty else {
            throw SFZPlayError(nil, "'\(path)': no region can play (\(regions.isEmpty ? "it has no <region>" : "none has a sample and keys to play"))")
        }
        let rules = allRules.allSatisfy { $0 == SampleZoneRule() } ? [] : allRules
        let font: SoundFont
        if data.stream != nil, let sampleCacheBytes {
            let store: SampleStreamStore
            do { store = try data.streamStore(sampleSpans: sampleSpans, limitBytes: sampleCacheBytes) } catch { throw SFZPlayError(nil, "'\(path)': \(error)") }
            font = SoundFont(path: path, name: displayName, presets: presets, zones: allZones, modulators: modulators.table,
                             samples: samples, sampleData: store.sampleData, sampleLowBytes: store.sampleLowBytes, sampleNames: names,
                             sampleStream: store, zoneRules: rules)
        } else {
            let memory = data.memory()
            font = SoundFont(path: path, name: displayName, presets: presets, zones: allZones, modulators: modulators.table,
                             samples: samples, sampleData: memory.data, sampleLowBytes: memory.low, sampleNames: names,
                             zoneRules: rules, release: memory.release)
        }
        return SFZSoundFont(font: font, channelPresetKeys: keys, notes: notes.lines)
    }

    /// The sample files the regions name that are found (for the streaming decision: their decoded size).
    func streamCandidates(_ lookup: inout SFZSampleLookup) -> [String] {
        var seen = Set<String>(), found: [String] = []
        for region in regions {
            guard case .file(let path)? = region.sample, seen.insert(path).inserted, let file = lookup.find(path) else { continue }
            found.append(file)
        }
        return found
    }

    /// The instrument's name: its file name without `.sfz`.
    var displayName: String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.lowercased().hasSuffix(".sfz") ? String(file.dropLast(4)) : file
    }
}

extension SFZSample {
    var isGenerator: Bool { if case .generator = self { true } else { false } }
}

/// What the translation approximated or left out, counted per kind, said once each.
struct SFZNotes {
    private var counts: [String: Int] = [:]
    private var order: [String] = []

    mutating func add(_ note: String) {
        if counts[note] == nil { order.append(note) }
        counts[note, default: 0] += 1
    }

    var lines: [String] { order.map { "\($0): \(counts[$0]!) region\(counts[$0]! == 1 ? "" : "s")" } }
}

/// The zones' modulator lists: SoundFont 2's defaults, velocity to attenuation scaled by `amp_veltrack`, no
/// velocity to filter cutoff (SFZ's `fil_veltrack` is 0 unless given), no vibrato from the mod wheel or
/// channel pressure (sfizz has none) and the pitch wheel bending by `bend_up`/`bend_down`; then the region's
/// LFO depths moved by CCs, `fil_keytrack`/`fil_veltrack` and the envelopes' `vel2depth`; one list per distinct
/// content. (`volume_onccN`, `amplitude_onccN` and `pan_onccN` are the zone rule's: SFZRegion+ControllerLevels.swift.)
struct SFZModulators {
    private(set) var table: [SoundFontModulator] = []
    /// Of CC 7, 10 and 11, those the instrument uses itself: their SF2 default modulators are left out.
    var replacedDefaults: Set<Int> = []
    private var starts: [[Int32]: Int32] = [:]

    /// Points `zone` at the list for `region`'s velocity tracking and CC modulations (with `amp_veltrack`
    /// below 0 or `amp_velcurve_N` the zone's rule plays it, the modulator's amount 0).
    mutating func assign(_ zone: inout SoundFontZone, region: SFZRegion, notes: inout SFZNotes) {
        var list = SoundFontModulator.defaults
        list[0].amount = Int32((960 * max(region.ampVeltrack, 0) / 100).rounded()) // velocity → attenuation
        if !region.ampVelcurve.isEmpty { list[0].amount = 0 } // amp_velcurve_N: the zone's rule gives the level
        list[1].amount = 0      // velocity → filter cutoff
        list[2].amount = 0      // channel pressure → vibrato: sfizz has neither
        list[3].amount = 0      // CC1 → vibrato
        if replacedDefaults.contains(7) { list[4].amount = 0 }  // CC7 → attenuation
        if replacedDefaults.contains(10) { list[5].amount = 0 } // CC10 → pan
        if replacedDefaults.contains(11) { list[6].amount = 0 } // CC11 → attenuation
        // The pitch wheel bends by the region's bend_up (wheel up) and bend_down (wheel down), in cents, not by
        // RPN 0's range: one modulator when they are symmetric; else the up one gated by a switch on the
        // wheel's upper half and a second for the lower half (both 0 at the centre, where the wheel is 0).
        list[9].source = 0x020E // pitch wheel, bipolar, linear
        list[9].amount = Int32(region.bendUp)
        list[9].amountSource = 0
        if region.bendUp != -region.bendDown {
            list[9].amountSource = 0x0C0E // pitch wheel, switch: 1 from the centre up
            var down = list[9]
            down.amount = Int32(-region.bendDown)
            down.amountSource = 0x0D0E // the same, negative: 1 from the centre down
            list.append(down)
        }
        func controller(_ cc: Int, to destination: Int, amount: Double) {
            var modulator = SoundFontModulator.defaults[0]
            modulator.source = 0x80 | UInt16(cc) // CC, unipolar, positive, linear
            modulator.destination = UInt16(destination)
            modulator.amount = Int32(amount.rounded())
            modulator.amountSource = 0
            modulator.transform = 0
            list.append(modulator)
        }
        // The LFOs' depths moved by CCs (`lfoN_volume_onccN`...): dB as centibels, cents as cents.
        let lfos = region.lfoPlan
        for (lfo, pitchDestination) in [(lfos.vibrato, SoundFontGenerator.vibLFOToPitch), (lfos.modulation, SoundFontGenerator.modLFOToPitch)] {
            guard let lfo else { continue }
            for (cc, cents) in lfo.pitchOnCC.sorted(by: { $0.key < $1.key }) { controller(cc, to: pitchDestination, amount: cents) }
            for (cc, decibels) in lfo.volumeOnCC.sorted(by: { $0.key < $1.key }) { controller(cc, to: SoundFontGenerator.modLFOToVolume, amount: 10 * decibels) }
            for (cc, cents) in lfo.cutoffOnCC.sorted(by: { $0.key < $1.key }) { controller(cc, to: SoundFontGenerator.modLFOToFilterFc, amount: cents) }
        }
        // fil_keytrack and fil_veltrack: cents per key (key / 127 times 127 keys' worth) and cents at full
        // velocity (velocity / 127, sfizz's normalised velocity), both linear, added to the cutoff (SF2 sources 3
        // and 2: the note-on key and velocity).
        if region.cutoff != nil, SFZRegion.filterShape(region.filterType) != nil {
            for (source, amount) in [(UInt16(3), region.filterKeytrack * 127), (UInt16(2), region.filterVeltrack)] where amount != 0 {
                var modulator = SoundFontModulator.defaults[0]
                (modulator.source, modulator.destination) = (source, UInt16(SoundFontGenerator.initialFilterFc))
                (modulator.amount, modulator.amountSource, modulator.transform) = (Int32(amount), 0, 0)
                list.append(modulator)
            }
            // cutoff_onccN (cents at CC 127) and resonance_onccN (dB, as centibels of the Q): linear in the CC's
            // value / 127 and followed while the note sounds, as sfizz's controller modulations of the filter
            // (its `cutoff_curveccN` and `cutoff_smoothccN` are not read).
            for (cc, cents) in region.cutoffOnCC.sorted(by: { $0.key < $1.key }) where cc < 128 {
                controller(cc, to: SoundFontGenerator.initialFilterFc, amount: cents)
            }
            for (cc, decibels) in region.resonanceOnCC.sorted(by: { $0.key < $1.key }) where cc < 128 {
                controller(cc, to: SoundFontGenerator.initialFilterQ, amount: 10 * decibels)
            }
            if region.cutoffOnCC.keys.contains(where: { $0 >= 128 }) || region.resonanceOnCC.keys.contains(where: { $0 >= 128 }) {
                notes.add("cutoff_onccN/resonance_onccN above CC 127 (ignored)")
            }
        }
        // fileg_vel2depth and pitcheg_vel2depth: cents at full velocity, linear in velocity / 127, added to the
        // modulation envelope's depth, as sfizz adds them.
        for (eg, destination) in [(region.filterEG, SoundFontGenerator.modEnvToFilterFc), (region.pitchEG, SoundFontGenerator.modEnvToPitch)] {
            guard let cents = eg.velocity[.depth], cents != 0 else { continue }
            var modulator = SoundFontModulator.defaults[0]
            (modulator.source, modulator.destination) = (2, UInt16(destination)) // note-on velocity, linear
            (modulator.amount, modulator.amountSource, modulator.transform) = (Int32(cents.rounded()), 0, 0)
            list.append(modulator)
        }
        // fileg_depth_onccN and pitcheg_depth_onccN: cents at CC 127, linear, added to the depth while the note
        // sounds, as sfizz's controller modulation of the envelope's depth.
        for (eg, destination) in [(region.filterEG, SoundFontGenerator.modEnvToFilterFc), (region.pitchEG, SoundFontGenerator.modEnvToPitch)] {
            for (cc, cents) in (eg.onCC[.depth] ?? [:]).sorted(by: { $0.key < $1.key }) where cc < 128 {
                controller(cc, to: destination, amount: cents)
            }
        }
        let key = list.flatMap { [Int32($0.source), Int32($0.destination), $0.amount, Int32($0.amountSource), Int32($0.transform)] }
        let start: Int32
        if let known = starts[key] { start = known } else {
            start = Int32(table.count)
            table += list
            starts[key] = start
        }
        zone.modulatorStart = start
        zone.modulatorCount = Int32(list.count)
    }
}
