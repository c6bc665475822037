import DSP
import Glibc

// One region's opcodes as SoundFont 2 generators (docs/sfz.md has the table: what maps exactly, what is
// approximated, what is left out). Units: SF2 times are timecents (1200 log2 seconds), pitches cents,
// levels centibels of attenuation, the filter cutoff absolute cents (1200 log2 (Hz / 8.176)).

extension SFZRegion {
    /// The region's note-on conditions beyond its key and velocity ranges (round robin, random range, key
    /// switches, the previous note, one CC range, trigger), the level its note gives it (crossfades, velocity
    /// curve, key tracking) and what its velocity does to the volume envelope, or nil when it cannot play: no key, or `end=0` or below.
    func noteRule(notes: inout SFZNotes) -> SampleZoneRule? {
        if keys.low < 0 || keys.high < keys.low || velocities.high < velocities.low { return nil }
        if end.map({ $0 <= 0 }) == true { return nil }
        var rule = SampleZoneRule()
        switch trigger {
        case .attack: break
        case .first: rule.notes = SampleZoneRule.firstNote
        case .legato: rule.notes = SampleZoneRule.legatoNote
        case .release, .releaseKey:
            // At the note-off; `release` waits for the sustain pedal to come up.
            rule.onRelease = true
            rule.waitsForPedal = trigger == .release
            rule.releaseDecay = Float(rtDecay)
        }
        if let switchPrevious { rule.previousKey = Int8(clamping: switchPrevious) }
        if let switchDown { rule.switchDown = Int8(clamping: switchDown) }
        if let switchUp { rule.switchUp = Int8(clamping: switchUp) }
        rule.level = noteLevel(notes: &notes)
        // ampeg_vel2*: seconds (the sustain: percent) at full velocity, added at the note-on.
        let moved = ampEG.velocity
        rule.envelope.delay = Float(moved[.delay] ?? 0)
        rule.envelope.attack = Float(moved[.attack] ?? 0)
        rule.envelope.hold = Float(moved[.hold] ?? 0)
        rule.envelope.decay = Float(moved[.decay] ?? 0)
        rule.envelope.sustain = Float(moved[.sustain] ?? 0)
        rule.envelope.release = Float(moved[.release] ?? 0)
        rule.envelope.start = Float(min(max(ampEG.start, 0), 100) / 100)
        noteEnvelopeControllers(&rule.envelope, notes: &notes)
        // off_mode: how the region's voice ends when off_by or a polyphony limit ends it.
        rule.offMode = offMode == .normal ? SampleZoneRule.offNormal : offMode == .time ? SampleZoneRule.offTime : SampleZoneRule.offFast
        rule.offTime = Float(offTime)
        rule.sequenceLength = UInt8(clamping: seqLength)
        rule.sequencePosition = UInt8(clamping: seqPosition)
        rule.randomLow = Float(random.low)
        rule.randomHigh = Float(random.high)
        rule.sineLFOs = Self.sineLFOs(lfoPlan)
        if let switchLast { rule.switchKey = Int8(clamping: switchLast) }
        if let switchDefault { rule.switchDefault = Int8(clamping: switchDefault) }
        let ranges = ccRanges.filter { $0.value != SFZRange(0, 127) }.sorted { $0.key < $1.key }
        if let (cc, range) = ranges.first {
            guard cc < 128 else {
                notes.add("loccN/hiccN above CC 127 (ignored)")
                return rule
            }
            rule.controller = Int16(cc)
            rule.controllerLow = UInt8(clamping: max(range.low, 0))
            rule.controllerHigh = UInt8(clamping: min(range.high, 127))
            if ranges.count > 1 { notes.add("loccN/hiccN on more than one CC (the lowest CC's range is checked)") }
        }
        return rule
    }

    /// The region's loop mode: its `loop_mode`, else a loop when the file has one.
    func loopMode(fileLoop: SampleLoop?) -> SFZLoopMode { loopMode ?? (fileLoop != nil || loopEnd != nil ? .loopContinuous : .noLoop) }

    func loops(fileLoop: SampleLoop?) -> Bool {
        let mode = loopMode(fileLoop: fileLoop)
        return mode == .loopContinuous || mode == .loopSustain
    }

    var sampleName: String {
        switch sample {
        case .file(let path)?: path.split(separator: "/").last.map(String.init) ?? path
        case .generator(let generator)?: generator.rawValue
        case nil: ""
        }
    }

    /// The sample header of one channel of the region's sample: `offset` and `end` cut it, the loop is the
    /// opcodes' (`loop_start`/`loop_end`, end included) else the file's, else the whole sample (a generated
    /// wave loops whole). Nil when nothing is left to play.
    func sampleHeader(_ span: SFZSampleData.Span, rate: Int, root: Int, fileLoop: SampleLoop?, generated: Bool,
                      notes: inout SFZNotes) -> SoundFontSample? {
        let frames = span.frames
        let first = generated ? 0 : min(offset, frames)
        let last = generated ? frames : min(end.map { $0 + 1 } ?? frames, frames)
        guard last > first else { return nil }
        var loopLow = first, loopHigh = last
        if generated {
            (loopLow, loopHigh) = (0, frames)
        } else if loops(fileLoop: fileLoop) {
            loopLow = min(max(loopStart ?? fileLoop?.start ?? 0, first), last)
            loopHigh = min(max(loopEnd.map { $0 + 1 } ?? fileLoop.map { $0.end + 1 } ?? last, loopLow), last)
        }
        return SoundFontSample(start: UInt32(span.start + first), end: UInt32(span.start + last),
                               loopStart: UInt32(span.start + loopLow), loopEnd: UInt32(span.start + loopHigh),
                               sampleRate: UInt32(clamping: rate), originalPitch: UInt8(clamping: min(max(root, 0), 127)),
                               pitchCorrection: 0, link: 0, type: 1)
    }

    /// The zone that plays sample header `sample` for this region. `stereoPan` is -500 or 500 for the left and
    /// right of a stereo sample (0 mono); `loops` whether the sample loops.
    func zone(sample: Int, root: Int, stereoPan: Int, loops: Bool, notes: inout SFZNotes) -> SoundFontZone {
        typealias G = SoundFontGenerator
        var zone = SoundFontZone()
        zone.keyLow = UInt8(clamping: keys.low)
        zone.keyHigh = UInt8(clamping: min(keys.high, 127))
        zone.velocityLow = UInt8(clamping: max(velocities.low, 0))
        zone.velocityHigh = UInt8(clamping: min(velocities.high, 127))
        zone.sample = Int32(sample)
        zone.generators[G.sampleID] = Int32(sample)
        zone.generators[G.overridingRootKey] = Int32(min(max(root, 0), 127))

        // Pitch: transpose and tune as coarse and fine tune, pitch_keytrack as scale tuning.
        let cents = transpose * 100 + tune
        zone.generators[G.coarseTune] = Int32(cents / 100)
        zone.generators[G.fineTune] = Int32(cents % 100)
        zone.generators[G.scaleTuning] = Int32(pitchKeytrack)

        // Loops: loop_sustain is SF2's "loop until release", one_shot plays on through a long release.
        let mode = loopMode ?? (loops ? .loopContinuous : .noLoop)
        zone.generators[G.sampleModes] = !loops ? 0 : mode == .loopSustain ? 3 : 1

        // Level: volume (dB) and amplitude (%) below 0 dB as attenuation (the voices read the generator at
        // 0.4 of its value, FluidSynth's reading, so it is divided by 0.4 here); what is above 0 dB, and the
        // lift from FluidSynth's level to sfizz's (`sfizzLevel`), as the zone's gain.
        let decibels = volume + 20 * log10(max(amplitude, 0.0001) / 100)
        zone.generators[G.initialAttenuation] = Int32((-10 * min(decibels, 0) / 0.4).rounded())
        zone.gain = Float(pow(10, (Self.sfizzLevel / 10 + max(decibels, 0)) / 20))
        zone.generators[G.pan] = Int32(min(max(Int((pan * 5).rounded()) + stereoPan, -500), 500))

        // The volume envelope: ampeg_*. Its sustain is a level in percent, SF2's centibels below full.
        zone.generators[G.delayVolEnv] = Self.timecents(ampEG.delay + delay)
        zone.generators[G.attackVolEnv] = Self.timecents(ampEG.attack)
        zone.generators[G.holdVolEnv] = Self.timecents(ampEG.hold)
        zone.generators[G.decayVolEnv] = Self.timecents(ampEG.decay)
        zone.generators[G.sustainVolEnv] = Self.centibels(percent: ampEG.sustain)
        zone.generators[G.releaseVolEnv] = Self.timecents(ampEG.release)
        if mode == .oneShot {
            zone.generators[G.releaseVolEnv] = 8000 // the note-off barely touches it: the sample plays to its end
            notes.add("one_shot (played through a 100 s release)")
        }
        if ampEG.start != 0 && ampEG.delay > 0 { notes.add("ampeg_start with a delay (silent through the delay; sfizz sounds the start level)") }
        if delay != 0 { notes.add("delay (the volume envelope's delay: the sample starts at the note)") }

        // The modulation envelope: fileg_* (to the cutoff) or pitcheg_* (to the pitch); one shape for both.
        // `vel2depth` (cents at full velocity) is a modulator from the velocity to the depth (SFZModulators).
        // `depth_onccN` likewise from the CC (SFZModulators), followed while the note sounds, as sfizz's.
        let filterShaped = filterEG.depth != 0 || (filterEG.velocity[.depth] ?? 0) != 0 || !(filterEG.onCC[.depth] ?? [:]).isEmpty
        let pitchShaped = pitchEG.depth != 0 || (pitchEG.velocity[.depth] ?? 0) != 0 || !(pitchEG.onCC[.depth] ?? [:]).isEmpty
        if filterShaped || pitchShaped {
            let eg = filterShaped ? filterEG : pitchEG
            zone.generators[G.delayModEnv] = Self.timecents(eg.delay)
            zone.generators[G.attackModEnv] = Self.timecents(eg.attack)
            zone.generators[G.holdModEnv] = Self.timecents(eg.hold)
            zone.generators[G.decayModEnv] = Self.timecents(eg.decay)
            zone.generators[G.sustainModEnv] = Int32((1000 - 10 * min(max(eg.sustain, 0), 100)).rounded())
            zone.generators[G.releaseModEnv] = Self.timecents(eg.release)
            zone.generators[G.modEnvToFilterFc] = Int32(filterEG.depth.rounded())
            zone.generators[G.modEnvToPitch] = Int32(pitchEG.depth.rounded())
            if filterShaped && pitchShaped { notes.add("fileg_ and pitcheg_ together (pitch follows fileg's shape)") }
        }

        // The filter: the SVF's shapes (SampleFilterShape); the 4- and 6-pole ones as their 2-pole kin.
        if let cutoff {
            if let shape = Self.filterShape(filterType) {
                if let played = Self.playedAs[filterType] { notes.add("fil_type \(filterType.rawValue) (played as \(played))") }
                zone.filterShape = shape
                // fil_keytrack moves the cutoff around fil_keycenter and fil_veltrack with the velocity, as
                // modulators from the key and velocity (SFZModulators); the centre's share is taken off here.
                let cents = min(max(1200 * log2(max(cutoff, 1) / 8.176), 1500), 13500) - Double(filterKeytrack * filterKeycenter)
                zone.generators[G.initialFilterFc] = Int32(cents.rounded())
                // sfizz's Q is the resonance in dB as a factor (0 dB: Q 1); the voice reads initialFilterQ as
                // that peak less 3.01 dB (SF2's flat response at 0), so 3.01 dB more.
                zone.generators[G.initialFilterQ] = Int32(min(max((resonance + 3.0103) * 10, 0), 960).rounded())
            } else {
                notes.add("fil_type \(filterType.rawValue) (no filter)")
            }
        }

        // The LFOs, v1 and v2, on the voice's two (SFZRegion+LFOs.swift).
        let lfos = lfoPlan
        applyLFOs(lfos, to: &zone)
        for note in lfos.notes { notes.add(note) }

        return zone
    }

    /// How much louder sfizz plays a sample than the SoundFont voices play an SF2 zone of the same level
    /// (they play at FluidSynth's gain of 0.2): 9.63 dB, measured by SFZAgainstSfizzTests (a mono sine at
    /// velocity 127, 100 and 64, volume 0 and -12 dB: the same difference each time), in cB.
    static let sfizzLevel = 96.0

    /// Seconds as timecents; 0 (and below a millisecond's tenth) as SF2's instant -12000.
    static func timecents(_ seconds: Double) -> Int32 {
        seconds <= 0.0001 ? -12000 : Int32(min(max(1200 * log2(seconds), -12000), 8000).rounded())
    }

    /// A level in percent as centibels of attenuation (0 % is SF2's 144 dB).
    static func centibels(percent: Double) -> Int32 {
        percent <= 0 ? 1440 : Int32(min(max(-200 * log10(min(percent, 100) / 100), 0), 1440).rounded())
    }

    /// Hz as absolute cents (1200 log2 (Hz / 8.176)).
    static func absoluteCents(_ hertz: Double) -> Int32 { Int32((1200 * log2(hertz / 8.176)).rounded()) }
}

extension SFZRegion {
    /// The filter shape the voices play for `type`, nil for the types they do not (no filter).
    static func filterShape(_ type: SFZFilterType) -> SampleFilterShape? {
        switch type {
        case .lpf2p, .lpf2pSV, .lpf4p, .lpf6p: .lowPass
        case .lpf1p: .lowPassOnePole
        case .hpf2p, .hpf2pSV, .hpf4p, .hpf6p: .highPass
        case .hpf1p: .highPassOnePole
        case .bpf2p, .bpf2pSV: .bandPass
        case .brf2p, .brf2pSV: .bandReject
        default: nil
        }
    }

    /// The types played as another (a steeper one as its 2-pole kin, sfizz's Sallen-Key ones as the SVF).
    static let playedAs: [SFZFilterType: String] = [
        .lpf4p: "lpf_2p", .lpf6p: "lpf_2p", .hpf4p: "hpf_2p", .hpf6p: "hpf_2p",
        .hpf2pSV: "hpf_2p", .bpf2pSV: "bpf_2p", .brf2pSV: "brf_2p",
    ]
}
