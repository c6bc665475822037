import MIDI
import Synchronization

// Constants as computed globals: a static or global stored `let` is initialized lazily (swift_once),
// which the real-time path must not touch.
/// MIDI channels with their own controller state.
private var channelCount: Int { 16 }
/// Stolen voices and CC 120 fade out over these times: short, but long enough not to click.
private var stealFadeSeconds: Double { 0.003 }
private var soundOffFadeSeconds: Double { 0.002 }
/// A voice at velocity 127 and full envelope peaks near this level before pan: a single note leaves
/// about 14 dB of headroom; the soft clipper catches dense chords.
private var voiceGain: Float { 0.3 }
/// Above this output level the soft clipper bends the curve; output never reaches 1.
private var clipKnee: Float { 0.6 }
/// `WavetableBank.tableSize`, as the real-time path reads it (checked in `init`).
private var wavetableSize: Float { 2048 }
/// `WavetableBank.maxHarmonics`.
private var maxHarmonics: Float { 1023 }
/// Moving voices get exact filter coefficients every this many samples, interpolated linearly between.
private var coefficientInterval: Int { 8 }
/// ... where the cutoff moves by at most this many octaves over the interval (else exact per sample).
private var interpolationLimit: Float { 1.0 / 32 }
/// Releases end when the envelope falls below this (-100 dB).
private var silenceLevel: Float { 1e-5 }

/// A polyphonic subtractive synth driven by MIDI: band-limited wavetable oscillator, amplitude ADSR that also
/// opens a resonant state-variable low-pass, velocity, pitch bend (RPN 0 range), vibrato (CC1), volume,
/// expression, equal-power pan, sustain pedal and the channel-mode messages, on all 16 channels (omni) or one.
///
/// Threads: `init` and `prepare` allocate (never on the real-time thread). `handle` and `render` belong to one
/// real-time thread and are `@_noLocks`. `setParameter`, `value(of:)`, `activeVoiceCount` and `currentPatch`
/// may be used from any thread: they go through atomics.
///
/// Voice state is struct-of-arrays in memory owned by this object. There are `2 * voiceCapacity` slots: a
/// stolen voice fades out over 3 ms in its own slot while the new note starts at once in a free one, so
/// stealing neither clicks nor delays the new note. `render` processes the sounding voices eight at a time,
/// one per lane of SIMD8 vectors (SIMDVoices.swift); voices whose envelope has settled get their filter
/// coefficients once per period, moving ones every 8 samples with linear steps between (exact per sample
/// where the cutoff moves fast).
public final class Synth: @unchecked Sendable {
    /// The largest `voiceCapacity`: every key of all 16 channels twice over (release tails included).
    public static var maximumVoices: Int { 4096 }
    /// The number of notes that can sound at once (1...`maximumVoices`).
    public let voiceCapacity: Int
    /// The only channel (0...15) this synth answers, or nil for omni.
    public let channel: UInt8?

    /// Voices sounding (attack to end of release), stolen voices fading out not counted. Any thread.
    public var activeVoiceCount: Int {
        @_noLocks get { published.load(ordering: .relaxed) }
    }
    /// The built-in patch last chosen (index into `SynthPatch.builtIn`). Any thread.
    public var currentPatch: Int {
        @_noLocks get { patchIndex.load(ordering: .relaxed) }
    }
    /// Sample rate given to `prepare`, 0 before.
    public private(set) var sampleRate: Double = 0
    /// Period size given to `prepare`; `render` splits longer requests into slices of this size.
    public private(set) var maxFrames: Int = 0

    // MARK: Voices (struct of arrays, 2 * voiceCapacity slots)

    private let slotCount: Int
    /// Slots at and above this index are free: the loops over voices stop here (notes take the lowest
    /// free slot, so a large capacity costs nothing while few voices sound).
    private var slotLimit = 0
    /// Voices sounding (not free, not fading): kept up to date as voices start, fade and end.
    private var sounding = 0
    private let stage: UnsafeMutablePointer<UInt8>        // Stage.rawValue
    private let held: UnsafeMutablePointer<UInt8>         // 1: note-off arrived while the pedal was down
    private let voiceChannel: UnsafeMutablePointer<UInt8>
    private let voiceNote: UnsafeMutablePointer<UInt8>
    private let age: UnsafeMutablePointer<UInt64>         // note-on serial: smaller is older
    private let phase: UnsafeMutablePointer<UInt32>       // cycles times 2^32 (fixed point, wraps)
    private let increment: UnsafeMutablePointer<Float>    // cycles per sample at the note's own pitch
    private let envelope: UnsafeMutablePointer<Float>
    private let amplitude: UnsafeMutablePointer<Float>    // velocity curve times voiceGain
    private let filterScale: UnsafeMutablePointer<Float>  // velocity's share of the filter envelope
    private let ic1: UnsafeMutablePointer<Float>          // SVF integrator states
    private let ic2: UnsafeMutablePointer<Float>
    private let fade: UnsafeMutablePointer<Float>         // 1, or falling to 0 when stolen / sound off
    private let fadeStep: UnsafeMutablePointer<Float>     // 0 unless fading
    private var nextAge: UInt64 = 1
    private let activeSlots: UnsafeMutablePointer<Int32>  // per slice: steady voices first, the rest last
    private let glidingSlots: UnsafeMutablePointer<Int32> // per slice: settled voices whose pitch moves

    private enum Stage: UInt8 { case free = 0, attack, decay, release }

    /// How a group of eight voices is rendered: `steady` (coefficients, levels and pitch constant over the
    /// slice), `gliding` (the same, but the channel's pitch moves: vibrato), `moving` (all per sample).
    private enum GroupKind { case steady, gliding, moving }

    // MARK: Channels (16 each)

    private let bend: UnsafeMutablePointer<Float>           // semitones now
    private let bendRange: UnsafeMutablePointer<Float>      // semitones at full bend
    private let bendValue: UnsafeMutablePointer<Int32>      // last 14-bit bend - 8192
    private let rpn: UnsafeMutablePointer<UInt16>           // selected RPN (MSB << 7 | LSB), 0x3FFF null
    private let modulation: UnsafeMutablePointer<Float>     // vibrato depth target, semitones
    private let vibrato: UnsafeMutablePointer<Float>        // smoothed depth
    private let lfoPhase: UnsafeMutablePointer<Float>
    private let volume: UnsafeMutablePointer<Float>         // CC7 / 127
    private let expression: UnsafeMutablePointer<Float>     // CC11 / 127
    private let pan: UnsafeMutablePointer<Float>            // 0 left ... 1 right
    private let pedal: UnsafeMutablePointer<UInt8>
    private let gainLeft: UnsafeMutablePointer<Float>       // smoothed channel gains
    private let gainRight: UnsafeMutablePointer<Float>

    // MARK: Parameters

    /// Float bit patterns written by any thread, read once per render.
    private let parameters: InlineArray<9, Atomic<UInt32>>
    private let patchIndex = Atomic<Int>(0)
    private let published = Atomic<Int>(0)
    /// Patch values copied out of `SynthPatch.builtIn` so program change touches no Swift array.
    private let patchValues: UnsafeMutablePointer<PatchValues>
    private let patchCount: Int
    private var velocitySensitivity: Float
    // Smoothed global values (real-time thread only).
    private var cutoffOctaves: Float = 0
    private var resonanceK: Float = 2
    private var envelopeOctaves: Float = 0
    private var masterLinear: Float = 1

    private struct PatchValues: BitwiseCopyable {
        var values: (Float, Float, Float, Float, Float, Float, Float, Float)
        var velocitySensitivity: Float
    }

    // MARK: Wavetables (shared, read-only) and per-period scratch (allocated by prepare)

    private let bank: WavetableBank
    private let tables: UnsafeMutablePointer<UnsafePointer<Float>>
    private let levelForMaxHarmonics: UnsafeMutablePointer<Int32>
    private let levelCount: Int

    private var scratch: UnsafeMutablePointer<Float>
    private var pitchScratch: UnsafeMutablePointer<Float>   // 16 * maxFrames pitch ratios
    private var leftScratch: UnsafeMutablePointer<Float>    // 16 * maxFrames channel gains
    private var rightScratch: UnsafeMutablePointer<Float>
    private var cutoffScratch: UnsafeMutablePointer<Float>  // maxFrames: log2 Hz
    private var kScratch: UnsafeMutablePointer<Float>
    private var envelopeScratch: UnsafeMutablePointer<Float>
    private var masterScratch: UnsafeMutablePointer<Float>
    private var pitchMax: UnsafeMutablePointer<Float>       // 16: highest pitch ratio this period
    // Eight voices at a time (SIMDVoices.swift), maxFrames vectors each:
    private var laneScratch: UnsafeMutablePointer<Lanes>      // 5 * maxFrames: b1, b2, b3, left, right level
    private var incrementScratch: UnsafeMutablePointer<LaneBits> // phase steps when pitch moves
    private var sumLeft: UnsafeMutablePointer<HalfLanes>      // 2 * maxFrames: lanes 0-3, 4-7 summed over groups
    private var sumRight: UnsafeMutablePointer<HalfLanes>
    private let pairs: UnsafePointer<SIMD2<Float>>
    private let pairOffsets: UnsafeMutablePointer<UInt32>
    private var smoothing: Float = 1       // one-pole coefficient, ~5 ms
    private var inverseRate: Float = 0
    private var lfoIncrement: Float = 0
    private var stealFadeStep: Float = 1
    private var soundOffFadeStep: Float = 1

    /// Creates a synth; call `prepare` before rendering.
    /// - Parameters:
    ///   - voices: notes that can sound at once, clamped to 1...`maximumVoices`.
    ///   - patch: index of the initial built-in patch (modulo the count).
    ///   - channel: the one MIDI channel (0...15) to answer, or nil for all (omni).
    public init(voices: Int = 64, patch: Int = 0, channel: UInt8? = nil) {
        voiceCapacity = min(max(voices, 1), Synth.maximumVoices)
        self.channel = channel.map { $0 & 0x0F }
        slotCount = 2 * voiceCapacity
        func buffer<T>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: count)
            p.initialize(repeating: value, count: count)
            return p
        }
        stage = buffer(slotCount, 0)
        held = buffer(slotCount, 0)
        voiceChannel = buffer(slotCount, 0)
        voiceNote = buffer(slotCount, 0)
        age = buffer(slotCount, 0)
        phase = buffer(slotCount, UInt32(0))
        activeSlots = buffer(slotCount, Int32(0))
        glidingSlots = buffer(slotCount, Int32(0))
        increment = buffer(slotCount, 0)
        envelope = buffer(slotCount, 0)
        amplitude = buffer(slotCount, 0)
        filterScale = buffer(slotCount, 0)
        ic1 = buffer(slotCount, 0)
        ic2 = buffer(slotCount, 0)
        fade = buffer(slotCount, 1)
        fadeStep = buffer(slotCount, 0)

        let n = channelCount
        bend = buffer(n, 0)
        bendRange = buffer(n, 2)
        bendValue = buffer(n, 0)
        rpn = buffer(n, 0x3FFF)
        modulation = buffer(n, 0)
        vibrato = buffer(n, 0)
        lfoPhase = buffer(n, 0)
        volume = buffer(n, 100.0 / 127)
        expression = buffer(n, 1)
        pan = buffer(n, 0.5)
        pedal = buffer(n, 0)
        gainLeft = buffer(n, 0)
        gainRight = buffer(n, 0)

        let patches = SynthPatch.builtIn
        patchCount = patches.count
        patchValues = .allocate(capacity: patches.count)
        for (i, p) in patches.enumerated() {
            (patchValues + i).initialize(to: PatchValues(
                values: (Float(p.waveform.rawValue), p.attack, p.decay, p.sustain, p.release,
                         p.cutoff, p.resonance, p.filterEnvelopeAmount),
                velocitySensitivity: p.velocitySensitivity))
        }
        parameters = InlineArray { Atomic(SynthParameter(rawValue: $0)!.defaultValue.bitPattern) }
        velocitySensitivity = patches[0].velocitySensitivity

        bank = WavetableBank.shared
        precondition(Float(WavetableBank.tableSize) == wavetableSize)
        tables = bank.tables
        levelForMaxHarmonics = bank.levelForMaxHarmonics
        levelCount = bank.levelCount
        pairs = UnsafePointer(bank.pairs)
        pairOffsets = bank.pairOffsets

        scratch = .allocate(capacity: 1)
        pitchScratch = scratch
        leftScratch = scratch
        rightScratch = scratch
        cutoffScratch = scratch
        kScratch = scratch
        envelopeScratch = scratch
        masterScratch = scratch
        pitchMax = scratch
        laneScratch = .allocate(capacity: 1)
        incrementScratch = .allocate(capacity: 1)
        sumLeft = .allocate(capacity: 1)
        sumRight = .allocate(capacity: 1)

        selectPatch(patch)
        for c in 0..<n { gainLeft[c] = targetLeft(c); gainRight[c] = targetRight(c) }
    }

    deinit {
        for p in [stage, held, voiceChannel, voiceNote, pedal] { p.deallocate() }
        phase.deallocate()
        activeSlots.deallocate()
        glidingSlots.deallocate()
        for p in [increment, envelope, amplitude, filterScale, ic1, ic2, fade, fadeStep,
                  bend, bendRange, modulation, vibrato, lfoPhase, volume, expression, pan, gainLeft, gainRight] {
            p.deallocate()
        }
        age.deallocate()
        bendValue.deallocate()
        rpn.deallocate()
        patchValues.deallocate()
        scratch.deallocate()
        laneScratch.deallocate()
        incrementScratch.deallocate()
        sumLeft.deallocate()
        sumRight.deallocate()
    }

    /// Allocates the per-period buffers for `maxFrames` and sets the sample rate. Not real-time safe; call it
    /// before the first `render` (again to change either). Silences every voice.
    public func prepare(sampleRate: Double, maxFrames: Int) {
        let frames = max(maxFrames, 1)
        scratch.deallocate()
        let channels = channelCount
        let count = frames * (3 * channels + 4) + channels
        scratch = .allocate(capacity: count)
        scratch.initialize(repeating: 0, count: count)
        pitchScratch = scratch
        leftScratch = scratch + frames * channels
        rightScratch = scratch + 2 * frames * channels
        cutoffScratch = scratch + 3 * frames * channels
        kScratch = cutoffScratch + frames
        envelopeScratch = kScratch + frames
        masterScratch = envelopeScratch + frames
        pitchMax = masterScratch + frames
        laneScratch.deallocate()
        incrementScratch.deallocate()
        sumLeft.deallocate()
        sumRight.deallocate()
        laneScratch = .allocate(capacity: 5 * frames)
        laneScratch.initialize(repeating: .zero, count: 5 * frames)
        incrementScratch = .allocate(capacity: frames)
        incrementScratch.initialize(repeating: .zero, count: frames)
        sumLeft = .allocate(capacity: 2 * frames)
        sumLeft.initialize(repeating: .zero, count: 2 * frames)
        sumRight = .allocate(capacity: 2 * frames)
        sumRight.initialize(repeating: .zero, count: 2 * frames)

        self.sampleRate = sampleRate
        self.maxFrames = frames
        inverseRate = Float(1 / sampleRate)
        // One-pole smoothing with a 5 ms time constant: 1 - e^(-1 / (0.005 fs)).
        smoothing = Float(1 - FastMath.exp2(-1.442_695_040_888_963 / (0.005 * sampleRate)))
        lfoIncrement = Float(5.5 / sampleRate)
        stealFadeStep = Float(1 / (stealFadeSeconds * sampleRate))
        soundOffFadeStep = Float(1 / (soundOffFadeSeconds * sampleRate))
        for v in 0..<slotCount { freeVoice(v) }
        slotLimit = 0
        sounding = 0
        cutoffOctaves = FastMath.log2(parameter(.cutoff))
        resonanceK = k(resonance: parameter(.resonance))
        envelopeOctaves = parameter(.filterEnvelopeAmount)
        masterLinear = linear(decibels: parameter(.masterGain))
        published.store(0, ordering: .relaxed)
    }

    // MARK: Parameters

    /// Sets a sound parameter (clamped to its range) from any thread; continuous ones glide over ~5 ms.
    @_noLocks
    public func setParameter(_ parameter: SynthParameter, _ value: Float) {
        let (lower, upper) = parameter.bounds
        let clamped = value.isNaN ? lower : min(max(value, lower), upper)
        parameters[parameter.index].store(clamped.bitPattern, ordering: .relaxed)
    }

    /// The value a parameter was last set to (by `setParameter` or a program change). Any thread.
    @_noLocks
    public func value(of parameter: SynthParameter) -> Float {
        self.parameter(parameter)
    }

    @inline(__always)
    private func parameter(_ parameter: SynthParameter) -> Float {
        Float(bitPattern: parameters[parameter.index].load(ordering: .relaxed))
    }


    @_noLocks
    private func selectPatch(_ program: Int) {
        let index = ((program % patchCount) + patchCount) % patchCount
        let p = patchValues[index]
        let v = p.values
        setParameter(.waveform, v.0)
        setParameter(.attack, v.1)
        setParameter(.decay, v.2)
        setParameter(.sustain, v.3)
        setParameter(.release, v.4)
        setParameter(.cutoff, v.5)
        setParameter(.resonance, v.6)
        setParameter(.filterEnvelopeAmount, v.7)
        velocitySensitivity = p.velocitySensitivity
        patchIndex.store(index, ordering: .relaxed)
    }

    // MARK: MIDI

    /// Applies one MIDI message now: it affects the sound from the next sample `render` writes.
    /// Channel messages on other channels than `channel` (when set) are ignored, as are system messages.
    /// Controllers, bend and the pedal are per channel; a program change (any answered channel) selects the
    /// synth's one patch, loading its values into the parameters.
    @_noLocks
    public func handle(_ message: ShortMessage) {
        guard message.isChannelMessage else { return }
        let c = message.channel
        if let only = channel, only != c { return }
        let ch = Int(c)
        let d1 = message.data1 & 0x7F
        let d2 = message.data2 & 0x7F
        switch message.kind {
        case 0x90 where d2 > 0: noteOn(channel: ch, note: d1, velocity: d2)
        case 0x80, 0x90: noteOff(channel: ch, note: d1)
        case 0xB0: controlChange(channel: ch, controller: d1, value: d2)
        case 0xC0: selectPatch(Int(d1))
        case 0xE0:
            bendValue[ch] = (Int32(d2) << 7 | Int32(d1)) - 8192
            updateBend(ch)
        default: break
        }
        publishCount()
    }

    /// Every voice released on all 16 channels, the sustain pedal up first: all notes off, whatever the
    /// pedal held. What an app does when it runs again after its note-offs were lost; notes end with their
    /// release.
    @_noLocks
    public func releaseAllVoices() {
        for ch in 0..<channelCount {
            controlChange(channel: ch, controller: 64, value: 0)
            controlChange(channel: ch, controller: 123, value: 0)
        }
        publishCount()
    }

    /// Panic: every voice on all 16 channels, sustained or releasing, fades out within CC 120's 2 ms, and
    /// the pedals are up, so nothing sounds on after it.
    @_noLocks
    public func silenceAllVoices() {
        for ch in 0..<channelCount {
            controlChange(channel: ch, controller: 64, value: 0)
            controlChange(channel: ch, controller: 120, value: 0)
        }
        publishCount()
    }

    @_noLocks
    private func noteOn(channel ch: Int, note: UInt8, velocity: UInt8) {
        var playing = 0
        var freeSlot = -1
        var oldest = -1, oldestAge = UInt64.max
        var quietestReleased = -1, quietestLevel = Float.infinity
        var quietestFading = -1, quietestFade = Float.infinity
        for v in 0..<slotLimit {
            let s = stage[v]
            if s == Stage.free.rawValue {
                if freeSlot < 0 { freeSlot = v }
                continue
            }
            if fadeStep[v] > 0 {
                let level = fade[v] * envelope[v]
                if level < quietestFade { quietestFade = level; quietestFading = v }
                continue
            }
            if Int(voiceChannel[v]) == ch, voiceNote[v] == note {
                // The same key again: fade the old voice rather than stack two of the same pitch.
                startFade(v, step: stealFadeStep)
                continue
            }
            playing += 1
            if s == Stage.release.rawValue {
                if envelope[v] < quietestLevel { quietestLevel = envelope[v]; quietestReleased = v }
            } else if age[v] < oldestAge {
                oldestAge = age[v]; oldest = v
            }
        }
        if playing >= voiceCapacity {
            let victim = quietestReleased >= 0 ? quietestReleased : oldest
            if victim >= 0 { startFade(victim, step: stealFadeStep) }
        }
        let limit = slotLimit, slots = slotCount // `&&` must not capture self
        if freeSlot < 0 && limit < slots { freeSlot = limit }
        if freeSlot < 0 { freeSlot = quietestFading } // every slot busy: cut the faintest fading tail
        guard freeSlot >= 0 else { return }

        let v = freeSlot
        slotLimit = max(slotLimit, v + 1)
        let ratio = FastMath.exp2((Double(note) - 69) / 12)
        let normalized = Float(velocity) / 127
        stage[v] = Stage.attack.rawValue
        sounding += 1
        held[v] = 0
        voiceChannel[v] = UInt8(ch)
        voiceNote[v] = note
        age[v] = nextAge
        nextAge &+= 1
        phase[v] = 0
        increment[v] = sampleRate > 0 ? Float(440 * ratio / sampleRate) : 0
        envelope[v] = 0
        amplitude[v] = voiceGain * (1 - velocitySensitivity + velocitySensitivity * normalized * normalized)
        filterScale[v] = 0.5 + 0.5 * normalized
        ic1[v] = 0
        ic2[v] = 0
        fade[v] = 1
        fadeStep[v] = 0
    }

    @_noLocks
    private func noteOff(channel ch: Int, note: UInt8) {
        for v in 0..<slotLimit {
            guard isHeldNote(v, channel: ch), voiceNote[v] == note else { continue }
            if pedal[ch] != 0 { held[v] = 1 } else { stage[v] = Stage.release.rawValue }
        }
    }

    @_noLocks
    private func controlChange(channel ch: Int, controller: UInt8, value: UInt8) {
        let x = Float(value) / 127
        switch controller {
        case 1: modulation[ch] = x * 0.5 // full wheel: +-0.5 semitone vibrato
        case 7: volume[ch] = x
        case 10: pan[ch] = Float(max(Int(value) - 1, 0)) / 126
        case 11: expression[ch] = x
        case 64:
            pedal[ch] = value >= 64 ? 1 : 0
            if value < 64 { releaseHeld(ch) }
        case 101: rpn[ch] = (rpn[ch] & 0x7F) | UInt16(value) << 7
        case 100: rpn[ch] = (rpn[ch] & 0x3F80) | UInt16(value)
        case 6 where rpn[ch] == 0:
            bendRange[ch] = Float(value) + (bendRange[ch] - Float(Int(bendRange[ch])))
            updateBend(ch)
        case 38 where rpn[ch] == 0:
            bendRange[ch] = Float(Int(bendRange[ch])) + Float(min(value, 99)) / 100
            updateBend(ch)
        case 120: // all sound off: a tiny fade, then silence
            for v in 0..<slotLimit where stage[v] != Stage.free.rawValue {
                if Int(voiceChannel[v]) == ch { startFade(v, step: soundOffFadeStep) }
            }
        case 121: // reset all controllers (RP-015: volume, pan and RPN values stay)
            bendValue[ch] = 0
            updateBend(ch)
            modulation[ch] = 0
            expression[ch] = 1
            pedal[ch] = 0
            releaseHeld(ch)
            rpn[ch] = 0x3FFF
        case 123, 124, 125, 126, 127: // all notes off (and the mode changes that imply it)
            for v in 0..<slotLimit where isHeldNote(v, channel: ch) {
                if pedal[ch] != 0 { held[v] = 1 } else { stage[v] = Stage.release.rawValue }
            }
        default: break
        }
    }

    /// A voice on `ch` whose key is still down: sounding, not released, not fading, not held by the pedal.
    @inline(__always)
    private func isHeldNote(_ v: Int, channel ch: Int) -> Bool {
        let s = stage[v]
        guard s == Stage.attack.rawValue || s == Stage.decay.rawValue else { return false }
        guard fadeStep[v] == 0, held[v] == 0 else { return false }
        return Int(voiceChannel[v]) == ch
    }

    @_noLocks
    private func releaseHeld(_ ch: Int) {
        for v in 0..<slotLimit where held[v] != 0 {
            guard Int(voiceChannel[v]) == ch else { continue }
            held[v] = 0
            if stage[v] != Stage.free.rawValue { stage[v] = Stage.release.rawValue }
        }
    }

    @inline(__always)
    private func updateBend(_ ch: Int) {
        bend[ch] = Float(bendValue[ch]) / 8192 * bendRange[ch]
    }

    @inline(__always)
    private func targetLeft(_ ch: Int) -> Float {
        volume[ch] * volume[ch] * expression[ch] * expression[ch]
            * Float(FastMath.cos(Double(pan[ch]) * Double.pi / 2))
    }

    @inline(__always)
    private func targetRight(_ ch: Int) -> Float {
        volume[ch] * volume[ch] * expression[ch] * expression[ch]
            * Float(FastMath.sin(Double(pan[ch]) * Double.pi / 2))
    }

    @_noLocks
    private func publishCount() {
        published.store(sounding, ordering: .relaxed)
    }

    /// Starts (or speeds up) a voice's fade-out: from now on it no longer counts as sounding.
    @inline(__always)
    private func startFade(_ v: Int, step: Float) {
        if fadeStep[v] == 0 { if stage[v] != Stage.free.rawValue { sounding -= 1 } }
        fadeStep[v] = max(fadeStep[v], step)
    }

    @inline(__always)
    private func freeVoice(_ v: Int) {
        if fadeStep[v] == 0 { if stage[v] != Stage.free.rawValue { sounding -= 1 } }
        stage[v] = Stage.free.rawValue
        held[v] = 0
        envelope[v] = 0
        fade[v] = 1
        fadeStep[v] = 0
    }

    // MARK: Rendering

    /// Writes (does not add) `frames` stereo samples, `frames <= maxFrames`. Events handled between two calls
    /// take effect at the first sample of the second; nothing is delayed to a control-rate block.
    @_noLocks
    public func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        left.update(repeating: 0, count: frames)
        right.update(repeating: 0, count: frames)
        guard maxFrames > 0 else { return }
        var offset = 0
        while offset < frames { // tolerate frames > maxFrames by rendering in slices
            let count = min(frames - offset, maxFrames)
            renderSlice(left: left + offset, right: right + offset, frames: count)
            offset += count
        }
        var limit = slotLimit
        let stages = stage // `&&` must not capture self
        while limit > 0 && stages[limit - 1] == Stage.free.rawValue { limit -= 1 }
        slotLimit = limit
        publishCount()
    }

    @_noLocks
    private func renderSlice(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        // Global parameters: targets from the atomics, smoothed per sample.
        let wave = min(max(Int(parameter(.waveform) + 0.5), 0), 3)
        let attackStep = inverseRate / parameter(.attack)
        let sustainLevel = parameter(.sustain)
        let decayCoefficient = FastMath.exp2(-13.287_712 * inverseRate / parameter(.decay)) // -80 dB
        let releaseCoefficient = FastMath.exp2(-16.609_64 * inverseRate / parameter(.release)) // -100 dB
        let cutoffTarget = FastMath.log2(parameter(.cutoff))
        let kTarget = k(resonance: parameter(.resonance))
        let envelopeTarget = parameter(.filterEnvelopeAmount)
        let masterTarget = linear(decibels: parameter(.masterGain))
        let a = smoothing
        // Smoothing moves monotonically toward its target: equal ends mean constant all through the slice.
        let filterBefore = (cutoffOctaves, resonanceK, envelopeOctaves)
        for n in 0..<frames {
            cutoffOctaves += a * (cutoffTarget - cutoffOctaves)
            resonanceK += a * (kTarget - resonanceK)
            envelopeOctaves += a * (envelopeTarget - envelopeOctaves)
            masterLinear += a * (masterTarget - masterLinear)
            cutoffScratch[n] = cutoffOctaves
            kScratch[n] = resonanceK
            envelopeScratch[n] = envelopeOctaves
            masterScratch[n] = masterLinear
        }
        let filterAfter = (cutoffOctaves, resonanceK, envelopeOctaves)
        let filterSteady = filterBefore == filterAfter

        // Channel controls for the channels that have voices: pitch ratio and gains, per sample.
        var activeChannels: UInt16 = 0
        for v in 0..<slotLimit where stage[v] != Stage.free.rawValue { activeChannels |= 1 << UInt16(voiceChannel[v]) }
        var pitchMoves: UInt16 = 0, gainsMove: UInt16 = 0
        let sineTable = tables[0]
        let tableSize = wavetableSize
        for ch in 0..<channelCount where activeChannels & (1 << UInt16(ch)) != 0 {
            let pitch = pitchScratch + ch * maxFrames
            let gl = leftScratch + ch * maxFrames
            let gr = rightScratch + ch * maxFrames
            let bendSemitones = bend[ch]
            let depthTarget = modulation[ch]
            let leftTarget = targetLeft(ch), rightTarget = targetRight(ch)
            var depth = vibrato[ch], lfo = lfoPhase[ch], l = gainLeft[ch], r = gainRight[ch]
            let gainsBefore = (l, r)
            var highest: Float = 0
            if depthTarget == 0 && depth < 1e-6 {
                // No vibrato (the usual case): a constant pitch ratio; the LFO keeps its pace.
                depth = 0
                let ratio = FastMath.exp2(bendSemitones * (1.0 / 12))
                highest = ratio
                lfo += Float(frames) * lfoIncrement
                lfo -= Float(Int(lfo))
                for n in 0..<frames {
                    l += a * (leftTarget - l)
                    r += a * (rightTarget - r)
                    pitch[n] = ratio
                    gl[n] = l
                    gr[n] = r
                }
            } else {
                pitchMoves |= 1 << UInt16(ch)
                for n in 0..<frames {
                    depth += a * (depthTarget - depth)
                    l += a * (leftTarget - l)
                    r += a * (rightTarget - r)
                    lfo += lfoIncrement
                    if lfo >= 1 { lfo -= 1 }
                    let x = lfo * tableSize
                    let i = Int(x)
                    let s = sineTable[i] + (x - Float(i)) * (sineTable[i + 1] - sineTable[i])
                    let ratio = FastMath.exp2((bendSemitones + depth * s) * (1.0 / 12))
                    pitch[n] = ratio
                    highest = max(highest, ratio)
                    gl[n] = l
                    gr[n] = r
                }
            }
            if gainsBefore.0 != l || gainsBefore.1 != r { gainsMove |= 1 << UInt16(ch) }
            vibrato[ch] = depth; lfoPhase[ch] = lfo; gainLeft[ch] = l; gainRight[ch] = r
            pitchMax[ch] = highest
        }

        // Voices in groups of eight. Steady voices (sustaining at a constant level, filter and channel
        // controls at rest) have the same coefficients and levels at every sample of the slice: they are
        // computed once for them; the others get them per sample. Steady ones first, the rest from the end.
        // Settled voices on a channel whose pitch moves (vibrato) differ from steady ones only in their phase
        // steps: they are gathered apart.
        var steadyCount = 0, otherStart = slotCount, glidingCount = 0
        let sustainHolds = filterSteady && sustainLevel >= silenceLevel
        let stages = stage, levels = envelope, fadeSteps = fadeStep, channels = voiceChannel // `&&` must not capture self
        for v in 0..<slotLimit where stages[v] != Stage.free.rawValue {
            // The decay's float arithmetic settles a few ulps off the sustain level, at a fixed point.
            let level = levels[v]
            let settled = sustainLevel + (level - sustainLevel) * decayCoefficient == level
            let chBit: UInt16 = 1 << UInt16(channels[v])
            let constantLevel = sustainHolds && stages[v] == Stage.decay.rawValue && settled
                && fadeSteps[v] == 0 && gainsMove & chBit == 0
            if constantLevel && pitchMoves & chBit == 0 {
                activeSlots[steadyCount] = Int32(v)
                steadyCount += 1
            } else if constantLevel {
                glidingSlots[glidingCount] = Int32(v)
                glidingCount += 1
            } else {
                otherStart -= 1
                activeSlots[otherStart] = Int32(v)
            }
        }
        sumLeft.update(repeating: .zero, count: 2 * frames)
        sumRight.update(repeating: .zero, count: 2 * frames)
        let envelopeShape = (attackStep, sustainLevel, decayCoefficient, releaseCoefficient)
        var start = 0
        while start < steadyCount {
            let count = min(8, steadyCount - start)
            renderGroup(activeSlots + start, count: count, kind: .steady, wave: wave, frames: frames,
                        pitchMoves: pitchMoves, gainsMove: gainsMove, envelopeShape: envelopeShape)
            start += count
        }
        start = 0
        while start < glidingCount {
            let count = min(8, glidingCount - start)
            renderGroup(glidingSlots + start, count: count, kind: .gliding, wave: wave, frames: frames,
                        pitchMoves: pitchMoves, gainsMove: gainsMove, envelopeShape: envelopeShape)
            start += count
        }
        start = otherStart
        while start < slotCount {
            let count = min(8, slotCount - start)
            renderGroup(activeSlots + start, count: count, kind: .moving, wave: wave, frames: frames,
                        pitchMoves: pitchMoves, gainsMove: gainsMove, envelopeShape: envelopeShape)
            start += count
        }

        // Sum the lanes, then master gain and a soft knee that keeps the output strictly inside -1...1.
        let knee = clipKnee
        let sl = sumLeft, sr = sumRight
        for n in 0..<frames {
            let l4 = sl[2 &* n] + sl[2 &* n &+ 1]
            let r4 = sr[2 &* n] + sr[2 &* n &+ 1]
            let g = masterScratch[n]
            left[n] = softClip((left[n] + ((l4[0] + l4[1]) + (l4[2] + l4[3]))) * g, knee: knee)
            right[n] = softClip((right[n] + ((r4[0] + r4[1]) + (r4[2] + r4[3]))) * g, knee: knee)
        }
    }

    @inline(__always)
    private func softClip(_ x: Float, knee: Float) -> Float {
        let magnitude = abs(x)
        guard magnitude > knee else { return x }
        let u = (magnitude - knee) / (1 - knee)
        let y = min(knee + (1 - knee) * u / (1 + u), 0.999_99) // slope 1 at the knee, approaches 1
        return x < 0 ? -y : y
    }

    /// One envelope stage as the affine step env' = (env - a) m + b, exactly the scalar stage's
    /// arithmetic, and the bounds whose crossing ends it (env' >= upper, env' < lower).
    @inline(__always)
    private func segment(_ s: UInt8, sustain: Float, decay: Float, release: Float, attackStep: Float)
        -> (a: Float, m: Float, b: Float, upper: Float, lower: Float) {
        switch s {
        case Stage.attack.rawValue: (0, 1, attackStep, 1, -1)
        // With sustain 0 (a pluck) the voice ends when silent instead of holding its slot.
        case Stage.decay.rawValue: (sustain, decay, sustain, .infinity, sustain < silenceLevel ? silenceLevel : -1)
        case Stage.release.rawValue: (0, release, 0, .infinity, silenceLevel)
        default: (0, 0, 0, .infinity, -1) // free (or an empty lane): silent
        }
    }

    /// Phase steps per sample for lanes whose channel's pitch moves, into `incrementScratch`: exact at every
    /// `coefficientInterval`-th sample and the last, linear in between (in fixed point). Vibrato moves the
    /// pitch by at most 0.5 semitone at 5.5 Hz: a straight line over 8 samples is off by under 1e-7 of it.
    @inline(never)
    private func fillIncrements(frames: Int, bases: Lanes, channelOffsets: SIMD8<Int32>, count: Int) {
        let pitch = pitchScratch, out = incrementScratch
        @inline(__always) func steps(at n: Int) -> LaneBits {
            var ratios = Lanes(repeating: 1)
            for l in 0..<count { ratios[l] = pitch[Int(channelOffsets[l]) &+ n] }
            let cycles = minLanes(bases * ratios, Lanes(repeating: 0.49)) * phaseStepsPerCycle
            var result = LaneBits()
            for l in 0..<8 { result[l] = UInt32(cycles[l]) }
            return result
        }
        let interval = coefficientInterval
        var n0 = 0
        var s0 = steps(at: 0)
        while n0 < frames - 1 {
            let n1 = min(n0 + interval, frames - 1)
            let s1 = steps(at: n1)
            // Steps stay below 2^31 (0.49 cycle): differences fit in Int32.
            let difference = SIMD8<Int32>(truncatingIfNeeded: s1) &- SIMD8<Int32>(truncatingIfNeeded: s0)
            let slope = n1 - n0 == 8 ? difference &>> 3 : difference / Int32(n1 - n0)
            var current = SIMD8<Int32>(truncatingIfNeeded: s0)
            for n in n0..<n1 {
                out[n] = LaneBits(truncatingIfNeeded: current)
                current &+= slope
            }
            s0 = s1
            n0 = n1
        }
        out[frames - 1] = s0
    }

    /// Renders up to eight voices (`slots[0..<count]`) in the lanes of SIMD8 vectors, adding into the lane sums.
    @inline(__always)
    private func renderGroup(_ slots: UnsafeMutablePointer<Int32>, count: Int, kind: GroupKind, wave: Int, frames: Int,
                             pitchMoves: UInt16, gainsMove: UInt16,
                             envelopeShape: (attackStep: Float, sustain: Float, decay: Float, release: Float)) {
        let (attackStep, sustain, decay, release) = envelopeShape
        var phases = LaneBits(), steps = LaneBits(), offsets = LaneBits()
        var z1 = Lanes(), z2 = Lanes(), env = Lanes(), fades = Lanes(), fadeSteps = Lanes()
        var gains = Lanes(), scales = Lanes(), bases = Lanes(), halfLeft = Lanes(), halfRight = Lanes()
        var segA = Lanes(), segM = Lanes(), segB = Lanes()
        var upper = Lanes(repeating: .infinity), lower = Lanes(repeating: -1)
        var stages = SIMD8<UInt8>()
        var channelOffsets = SIMD8<Int32>()
        var pitchVaries = false, gainsVary = false
        let frameCount = maxFrames
        for l in 0..<count {
            let v = Int(slots[l])
            let ch = Int(voiceChannel[v])
            let chBit: UInt16 = 1 << UInt16(ch)
            let base = increment[v]
            let s = stage[v]
            stages[l] = s
            phases[l] = phase[v]
            z1[l] = ic1[v]; z2[l] = ic2[v]
            env[l] = envelope[v]
            fades[l] = fade[v]; fadeSteps[l] = fadeStep[v]
            gains[l] = amplitude[v]; scales[l] = filterScale[v]; bases[l] = base
            channelOffsets[l] = Int32(ch * frameCount)
            // The richest table whose harmonics stay below Nyquist at this slice's highest pitch.
            let maxIncrement = min(base * pitchMax[ch], 0.49)
            let allowed = Int(min(0.5 / max(maxIncrement, 1e-6), maxHarmonics))
            offsets[l] = pairOffsets[wave * levelCount + Int(levelForMaxHarmonics[max(allowed, 1)])]
            if pitchMoves & chBit != 0 { pitchVaries = true } else {
                steps[l] = UInt32(min(base * pitchScratch[ch * frameCount], 0.49) * phaseStepsPerCycle)
            }
            if gainsMove & chBit != 0 { gainsVary = true }
            // Both gains are halved: the filter's output form yields twice its v2.
            halfLeft[l] = 0.5 * leftScratch[ch * frameCount]
            halfRight[l] = 0.5 * rightScratch[ch * frameCount]
            let shape = segment(s, sustain: sustain, decay: decay, release: release, attackStep: attackStep)
            segA[l] = shape.a; segM[l] = shape.m; segB[l] = shape.b; upper[l] = shape.upper; lower[l] = shape.lower
        }

        let perSample = laneScratch, stride = frameCount
        var b1 = Lanes(), b2 = Lanes(), b3 = Lanes(), levelLeft = Lanes(), levelRight = Lanes()
        if kind == .gliding { fillIncrements(frames: frames, bases: bases, channelOffsets: channelOffsets, count: count) }
        if kind != .moving {
            // Settled in the decay stage: each step returns env unchanged, as does the fade (step 0).
            (b1, b2, b3) = filterCoefficients(octaves: cutoffScratch[0] + (envelopeScratch[0] * scales) * env,
                                              k: kScratch[0], inverseRate: inverseRate)
            let level = env * gains * fades
            levelLeft = level * halfLeft
            levelRight = level * halfRight
        } else {
            let cutoffs = cutoffScratch, amounts = envelopeScratch, damping = kScratch, rate = inverseRate
            let gl = leftScratch, gr = rightScratch
            if pitchVaries { fillIncrements(frames: frames, bases: bases, channelOffsets: channelOffsets, count: count) }
            let zero = Lanes.zero
            for n in 0..<frames {
                env = (env - segA) * segM + segB
                let ended = (env .>= upper) .| (env .< lower)
                if any(ended) {
                    for l in 0..<count where ended[l] {
                        if stages[l] == Stage.attack.rawValue {
                            env[l] = 1
                            stages[l] = Stage.decay.rawValue
                        } else {
                            env[l] = 0
                            stages[l] = Stage.free.rawValue
                        }
                        let shape = segment(stages[l], sustain: sustain, decay: decay, release: release,
                                            attackStep: attackStep)
                        segA[l] = shape.a; segM[l] = shape.m; segB[l] = shape.b
                        upper[l] = shape.upper; lower[l] = shape.lower
                    }
                }
                fades = maxLanes(fades - fadeSteps, zero)
                let level = env * gains * fades
                if gainsVary {
                    for l in 0..<count {
                        halfLeft[l] = 0.5 * gl[Int(channelOffsets[l]) + n]
                        halfRight[l] = 0.5 * gr[Int(channelOffsets[l]) + n]
                    }
                }
                perSample[2 * stride + n] = env // read back by the coefficient pass below
                perSample[3 * stride + n] = level * halfLeft
                perSample[4 * stride + n] = level * halfRight
            }
            // Filter coefficients exactly at every `coefficientInterval`-th sample and at the last one, and
            // linear in between where the cutoff moves less than `interpolationLimit` octaves from one to
            // the next (decays, releases, glides: error below 1e-4 of the cutoff); exact per sample where
            // it moves faster (attacks). Levels stay exact per sample (onsets, fades).
            let interval = coefficientInterval
            let limit = Lanes(repeating: interpolationLimit)
            let envelopes = perSample + 2 * stride
            var o0 = cutoffs[0] + (amounts[0] * scales) * envelopes[0]
            var (p1, p2, p3) = filterCoefficients(octaves: o0, k: damping[0], inverseRate: rate)
            var n0 = 0
            while n0 < frames - 1 {
                let n1 = min(n0 + interval, frames - 1)
                let o1 = cutoffs[n1] + (amounts[n1] * scales) * envelopes[n1]
                let (q1, q2, q3) = filterCoefficients(octaves: o1, k: damping[n1], inverseRate: rate)
                let jump = o1 - o0
                if any((jump .> limit) .| (jump .< -limit)) {
                    perSample[n0] = p1
                    perSample[stride &+ n0] = p2
                    perSample[2 &* stride &+ n0] = p3
                    for n in (n0 + 1)..<n1 {
                        let (c1, c2, c3) = filterCoefficients(octaves: cutoffs[n] + (amounts[n] * scales) * envelopes[n],
                                                              k: damping[n], inverseRate: rate)
                        perSample[n] = c1
                        perSample[stride &+ n] = c2
                        perSample[2 &* stride &+ n] = c3
                    }
                } else {
                    let step = 1 / Float(n1 - n0)
                    let d1 = (q1 - p1) * step, d2 = (q2 - p2) * step, d3 = (q3 - p3) * step
                    var c1 = p1, c2 = p2, c3 = p3
                    for n in n0..<n1 {
                        perSample[n] = c1
                        perSample[stride &+ n] = c2
                        perSample[2 &* stride &+ n] = c3
                        c1 += d1; c2 += d2; c3 += d3
                    }
                }
                (p1, p2, p3) = (q1, q2, q3)
                o0 = o1
                n0 = n1
            }
            perSample[frames - 1] = p1
            perSample[stride &+ frames - 1] = p2
            perSample[2 &* stride &+ frames - 1] = p3
        }

        if kind == .steady {
            var halfPhase = phases.lowHalf, halfZ1 = z1.lowHalf, halfZ2 = z2.lowHalf
            oscillateAndFilter(frames: frames, half: 0, pairs: pairs, tableOffsets: offsets.lowHalf,
                               phase: &halfPhase, increment: steps.lowHalf, z1: &halfZ1, z2: &halfZ2,
                               b1: b1.lowHalf, b2: b2.lowHalf, b3: b3.lowHalf, levelLeft: levelLeft.lowHalf,
                               levelRight: levelRight.lowHalf, left: sumLeft, right: sumRight)
            phases.lowHalf = halfPhase; z1.lowHalf = halfZ1; z2.lowHalf = halfZ2
            if count > 4 {
                halfPhase = phases.highHalf; halfZ1 = z1.highHalf; halfZ2 = z2.highHalf
                oscillateAndFilter(frames: frames, half: 1, pairs: pairs, tableOffsets: offsets.highHalf,
                                   phase: &halfPhase, increment: steps.highHalf, z1: &halfZ1, z2: &halfZ2,
                                   b1: b1.highHalf, b2: b2.highHalf, b3: b3.highHalf,
                                   levelLeft: levelLeft.highHalf, levelRight: levelRight.highHalf,
                                   left: sumLeft, right: sumRight)
                phases.highHalf = halfPhase; z1.highHalf = halfZ1; z2.highHalf = halfZ2
            }
        } else if kind == .gliding {
            let halfSteps = UnsafeRawPointer(incrementScratch).assumingMemoryBound(to: HalfLaneBits.self)
            var halfPhase = phases.lowHalf, halfZ1 = z1.lowHalf, halfZ2 = z2.lowHalf
            glideAndFilter(frames: frames, half: 0, pairs: pairs, tableOffsets: offsets.lowHalf,
                           phase: &halfPhase, increments: halfSteps, z1: &halfZ1, z2: &halfZ2,
                           b1: b1.lowHalf, b2: b2.lowHalf, b3: b3.lowHalf, levelLeft: levelLeft.lowHalf,
                           levelRight: levelRight.lowHalf, left: sumLeft, right: sumRight)
            phases.lowHalf = halfPhase; z1.lowHalf = halfZ1; z2.lowHalf = halfZ2
            if count > 4 {
                halfPhase = phases.highHalf; halfZ1 = z1.highHalf; halfZ2 = z2.highHalf
                glideAndFilter(frames: frames, half: 1, pairs: pairs, tableOffsets: offsets.highHalf,
                               phase: &halfPhase, increments: halfSteps, z1: &halfZ1, z2: &halfZ2,
                               b1: b1.highHalf, b2: b2.highHalf, b3: b3.highHalf,
                               levelLeft: levelLeft.highHalf, levelRight: levelRight.highHalf,
                               left: sumLeft, right: sumRight)
                phases.highHalf = halfPhase; z1.highHalf = halfZ1; z2.highHalf = halfZ2
            }
        } else {
            oscillateAndFilter(frames: frames, pairs: pairs, tableOffsets: offsets, phase: &phases, increment: steps,
                               increments: incrementScratch, incrementsVary: pitchVaries, z1: &z1, z2: &z2,
                               perSample: perSample, stride: stride, left: sumLeft, right: sumRight)
        }

        for l in 0..<count {
            let v = Int(slots[l])
            if stages[l] == Stage.free.rawValue || fades[l] <= 0 {
                freeVoice(v)
                continue
            }
            stage[v] = stages[l]
            phase[v] = phases[l]
            envelope[v] = env[l]
            fade[v] = fades[l]
            // Flush states too small to matter: denormal arithmetic is slow.
            ic1[v] = abs(z1[l]) < 1e-30 ? 0 : z1[l]
            ic2[v] = abs(z2[l]) < 1e-30 ? 0 : z2[l]
        }
    }
}

/// SVF damping for a resonance of 0...1: k = 1/Q from 2 (Q 0.5) down to 0.06 (Q about 17).
@inline(__always)
private func k(resonance: Float) -> Float { 2 - 1.94 * resonance }

@inline(__always)
private func linear(decibels: Float) -> Float { FastMath.exp2(decibels * 0.166_096_4) }

// The real-time path's helpers live in this file on purpose: in debug builds (no whole-module
// optimization) the `@_noLocks` checker cannot see bodies in other files and rejects the calls.

extension SynthParameter {
    /// `range` as a plain pair (what the real-time path reads).
    var bounds: (lower: Float, upper: Float) {
        switch self {
        case .waveform: (0, 3)
        case .attack: (0.0005, 10)
        case .decay: (0.001, 20)
        case .sustain: (0, 1)
        case .release: (0.001, 20)
        case .cutoff: (20, 20_000)
        case .resonance: (0, 1)
        case .filterEnvelopeAmount: (0, 8)
        case .masterGain: (-60, 12)
        }
    }

    /// Index into the synth's parameter atomics (the synthesized `rawValue` is not inlinable).
    var index: Int {
        switch self {
        case .waveform: 0
        case .attack: 1
        case .decay: 2
        case .sustain: 3
        case .release: 4
        case .cutoff: 5
        case .resonance: 6
        case .filterEnvelopeAmount: 7
        case .masterGain: 8
        }
    }
}

// Small, allocation-free math so DSP needs no C module and the real-time path stays `@_noLocks`.

/// Fast math for the render loop and for table building.
@usableFromInline
enum FastMath {
    /// 2^x to about 1e-7 relative error, for |x| < 126: pitch ratios, cutoffs, envelope coefficients.
    @inlinable @inline(__always)
    static func exp2(_ x: Float) -> Float {
        let clamped = min(max(x, -126), 126)
        // Adding 1.5 * 2^23 rounds to an integer n held in the low mantissa bits: no conversions, no traps.
        let shifted = clamped + 12_582_912
        let whole = shifted - 12_582_912
        let f = (clamped - whole) * 0.693_147_18 // f * ln 2, |f| <= 0.347
        // Taylor series of e^f to degree 6: error < 1.2e-7.
        let p = 1 + f * (1 + f * (0.5 + f * (1.0 / 6 + f * (1.0 / 24 + f * (1.0 / 120 + f * (1.0 / 720))))))
        // The low 9 bits of the pattern are n + 127 (mod 512) after adding 127: shifted up, 2^n's exponent.
        let scale = Float(bitPattern: (shifted.bitPattern &+ 127) &<< 23)
        return p * scale
    }

    /// 2^x in double precision (|x| < 1000), for note frequencies and coefficients computed once.
    @inlinable
    static func exp2(_ x: Double) -> Double {
        let clamped = min(max(x, -1000), 1000)
        let whole = nearest(clamped)
        let f = (clamped - whole) * 0.693_147_180_559_945_3
        var term = 1.0
        var sum = 1.0
        for n in 1...14 {
            term *= f / Double(n)
            sum += term
        }
        return sum * Double(bitPattern: UInt64(Int64(whole) + 1023) << 52)
    }

    /// sin(x) in double precision: quadrant reduction, then Taylor series on |r| <= pi/4.
    @inlinable
    static func sin(_ x: Double) -> Double {
        let halfPi = Double.pi / 2
        let quadrant = nearest(x / halfPi)
        let r = x - quadrant * halfPi
        let q = Int(quadrant) & 3
        switch q {
        case 0: return sinSeries(r)
        case 1: return cosSeries(r)
        case 2: return -sinSeries(r)
        default: return -cosSeries(r)
        }
    }

    @inlinable
    static func cos(_ x: Double) -> Double { sin(x + Double.pi / 2) }

    @usableFromInline
    static func sinSeries(_ r: Double) -> Double {
        let r2 = r * r
        var term = r
        var sum = r
        var n = 1.0
        for _ in 0..<10 {
            term *= -r2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }

    @usableFromInline
    static func cosSeries(_ r: Double) -> Double {
        let r2 = r * r
        var term = 1.0
        var sum = 1.0
        var n = 0.0
        for _ in 0..<10 {
            term *= -r2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }
}

extension FastMath {
    /// x rounded to the nearest integer (ties away from zero), without `FloatingPointRoundingRule`,
    /// whose metadata the `@_noLocks` checker rejects in debug builds.
    @inline(__always) @usableFromInline
    static func nearest(_ x: Float) -> Float { Float(Int(x >= 0 ? x + 0.5 : x - 0.5)) }

    @inline(__always) @usableFromInline
    static func nearest(_ x: Double) -> Double { Double(Int(x >= 0 ? x + 0.5 : x - 0.5)) }

    /// log2(x) for x > 0 to about 1e-6: exponent from the bits, mantissa through the atanh series of ln.
    @inlinable @inline(__always)
    static func log2(_ x: Float) -> Float {
        let bits = max(x, Float.leastNormalMagnitude).bitPattern
        let exponent = Float(Int32((bits >> 23) & 0xFF) - 127)
        let m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000) // 1 <= m < 2
        let u = (m - 1) / (m + 1)
        let u2 = u * u
        let ln = 2 * u * (1 + u2 * (1.0 / 3 + u2 * (1.0 / 5 + u2 * (1.0 / 7 + u2 * (1.0 / 9 + u2 / 11)))))
        return exponent + ln * 1.442_695_04
    }

    /// tan(x) for 0 <= x <= 1.45 (a Padé approximant): monotonic, good to 3 % at the top of the range,
    /// which is all a filter's cutoff warping needs.
    @inlinable @inline(__always)
    static func tan(_ x: Float) -> Float {
        let x2 = x * x
        return x * (15 - x2) / (15 - 6 * x2)
    }
}
