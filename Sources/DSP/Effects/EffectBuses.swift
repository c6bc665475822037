import Synchronization

// The synth's two send buses (reverb and chorus) and what feeds them.
//
// Every voice sends a share of its output to each bus: a SoundFont voice by its reverbEffectsSend and
// chorusEffectsSend generators (16 and 15, 0.1 % units) to which the SoundFont 2.01 default modulators add
// 20 % at CC91 / CC93 full (Synth+SoundFontModulators.swift evaluates them); a built-in voice by its patch's
// sends plus the same 20 % x CC91 / CC93. The voices are rendered eight at a time into SIMD lanes; a group
// with a voice that sends is rendered into `groupLeft`/`groupRight` instead of the lane sums and then folded
// in (Synth+Effects.swift): added to the lane sums (the same additions as rendering there directly: the dry
// mix is bit for bit unchanged) and, times each lane's send, to the buses' lane sums. A group that sends
// nothing (and every group with both buses off) renders into the lane sums as before and costs nothing more.
// After the voices, the buses run once per slice on the summed sends and their stereo output joins the dry
// mix before the master gain.

/// An effect setting any thread may change (`Synth.setEffect`); the real-time thread applies it at its next slice.
public enum EffectParameter: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// 1 on, 0 off.
    case reverbOn = 0
    /// 0...1, see `ReverbSettings`.
    case reverbLevel, roomSize, damping, width
    /// 1 on, 0 off.
    case chorusOn
    /// See `ChorusSettings`.
    case chorusLevel, chorusVoices, chorusRate, chorusDepth

    public var name: String {
        switch self {
        case .reverbOn: "reverb"
        case .reverbLevel: "reverb level"
        case .roomSize: "room size"
        case .damping: "reverb damping"
        case .width: "reverb width"
        case .chorusOn: "chorus"
        case .chorusLevel: "chorus level"
        case .chorusVoices: "chorus voices"
        case .chorusRate: "chorus rate"
        case .chorusDepth: "chorus depth"
        }
    }

    public var description: String { name }

    /// Values outside are clamped.
    public var range: ClosedRange<Float> { bounds.lower...bounds.upper }

    /// FluidSynth's defaults, both buses on.
    public var defaultValue: Float {
        switch self {
        case .reverbOn, .chorusOn: 1
        case .reverbLevel: ReverbSettings().level
        case .roomSize: ReverbSettings().roomSize
        case .damping: ReverbSettings().damping
        case .width: ReverbSettings().width
        case .chorusLevel: ChorusSettings().level
        case .chorusVoices: Float(ChorusSettings().voices)
        case .chorusRate: ChorusSettings().rate
        case .chorusDepth: ChorusSettings().depth
        }
    }

    var bounds: (lower: Float, upper: Float) {
        @_noLocks get {
            switch self {
            case .reverbOn, .chorusOn, .reverbLevel, .roomSize, .damping, .width: (0, 1)
            case .chorusLevel: (0, 10)
            case .chorusVoices: (1, 8)
            case .chorusRate: (0.1, 5)
            case .chorusDepth: (0, 20)
            }
        }
    }

    var index: Int {
        @_noLocks get {
            switch self {
            case .reverbOn: 0
            case .reverbLevel: 1
            case .roomSize: 2
            case .damping: 3
            case .width: 4
            case .chorusOn: 5
            case .chorusLevel: 6
            case .chorusVoices: 7
            case .chorusRate: 8
            case .chorusDepth: 9
            }
        }
    }
}

/// The settings only GS effect sysex reaches (Synth+EffectSysex.swift); a GS Reset returns them to these defaults.
enum GSEffectSetting: Int, CaseIterable {
    /// `ReverbSettings.character`, `.preLowPass`, `.predelay`, `.delayFeedback`.
    case reverbCharacter = 0, reverbPreLowPass, reverbPredelay, reverbDelayFeedback
    /// `ChorusSettings.feedback`, `.delay`, `.sendToReverb`.
    case chorusFeedback, chorusDelay, chorusSendToReverb

    var index: Int {
        @_noLocks get {
            switch self {
            case .reverbCharacter: 0
            case .reverbPreLowPass: 1
            case .reverbPredelay: 2
            case .reverbDelayFeedback: 3
            case .chorusFeedback: 4
            case .chorusDelay: 5
            case .chorusSendToReverb: 6
            }
        }
    }

    @_noLocks
    static func at(_ index: Int) -> GSEffectSetting {
        switch index {
        case 0: .reverbCharacter
        case 1: .reverbPreLowPass
        case 2: .reverbPredelay
        case 3: .reverbDelayFeedback
        case 4: .chorusFeedback
        case 5: .chorusDelay
        default: .chorusSendToReverb
        }
    }

    var defaultValue: Float {
        @_noLocks get {
            switch self {
            case .reverbCharacter: Float(ReverbSettings().character)
            case .reverbPreLowPass: Float(ReverbSettings().preLowPass)
            case .reverbPredelay: ReverbSettings().predelay
            case .reverbDelayFeedback: ReverbSettings().delayFeedback
            case .chorusFeedback: ChorusSettings().feedback
            case .chorusDelay: ChorusSettings().delay
            case .chorusSendToReverb: ChorusSettings().sendToReverb
            }
        }
    }
}

/// The effect settings as float bit patterns, written by any thread, read once per slice. `baseline` holds
/// what `Synth.setEffect` (the user, a preset) last set; effect sysex changes `values` only, and a system
/// reset (GM/GM2 System On, GS Reset, XG System On) copies the baseline back and the GS-only settings to their
/// defaults, so a file's effect sysex lasts until its next reset and no longer.
struct EffectControls: ~Copyable {
    let values: InlineArray<10, Atomic<UInt32>>
    let baseline: InlineArray<10, Atomic<UInt32>>
    let gs: InlineArray<7, Atomic<UInt32>>

    init() {
        values = InlineArray { Atomic(EffectParameter(rawValue: $0)!.defaultValue.bitPattern) }
        baseline = InlineArray { Atomic(EffectParameter(rawValue: $0)!.defaultValue.bitPattern) }
        gs = InlineArray { Atomic(GSEffectSetting(rawValue: $0)!.defaultValue.bitPattern) }
    }

    @_noLocks @inline(__always)
    func value(_ parameter: EffectParameter) -> Float {
        Float(bitPattern: values[parameter.index].load(ordering: .relaxed))
    }

    @_noLocks @inline(__always)
    func value(_ setting: GSEffectSetting) -> Float {
        Float(bitPattern: gs[setting.index].load(ordering: .relaxed))
    }

    /// Every setting back to its baseline, the GS-only ones to their defaults.
    @_noLocks
    func reset() {
        for i in 0..<10 { values[i].store(baseline[i].load(ordering: .relaxed), ordering: .relaxed) }
        for i in 0..<7 { gs[i].store(GSEffectSetting.at(i).defaultValue.bitPattern, ordering: .relaxed) }
    }
}

/// The buses' state and buffers for periods of up to `frames` samples, made by `Synth.prepare`.
struct EffectBuses: ~Copyable {
    var reverb: FeedbackDelayReverb
    var chorus: ModulatedChorus
    /// A sending group's output (lanes 0-3, 4-7 per frame), folded into the lane sums after the group.
    var groupLeft: UnsafeMutablePointer<HalfLanes> { @_noLocks get { groupLeftMemory.baseAddress } }
    var groupRight: UnsafeMutablePointer<HalfLanes> { @_noLocks get { groupRightMemory.baseAddress } }
    /// The sends summed per lane, then per frame.
    var reverbLanes: UnsafeMutablePointer<HalfLanes> { @_noLocks get { reverbLanesMemory.baseAddress } }
    var chorusLanes: UnsafeMutablePointer<HalfLanes> { @_noLocks get { chorusLanesMemory.baseAddress } }
    var reverbInput: UnsafeMutablePointer<Float> { @_noLocks get { reverbInputMemory.baseAddress } }
    var chorusInput: UnsafeMutablePointer<Float> { @_noLocks get { chorusInputMemory.baseAddress } }
    private let groupLeftMemory, groupRightMemory, reverbLanesMemory, chorusLanesMemory: FixedArray<HalfLanes>
    private let reverbInputMemory, chorusInputMemory: FixedArray<Float>
    /// Eight slots, for a kept group's voices.
    private let slotScratchMemory: FixedArray<Int32>
    var slotScratch: UnsafeMutablePointer<Int32> { @_noLocks get { slotScratchMemory.baseAddress } }
    var reverbOn = true
    var chorusOn = true
    /// Whether some group sent this slice.
    var sent = false

    init(frames: Int, sampleRate: Double) {
        reverb = FeedbackDelayReverb(sampleRate: sampleRate)
        chorus = ModulatedChorus(sampleRate: sampleRate)
        groupLeftMemory = FixedArray(2 * frames, .zero)
        groupRightMemory = FixedArray(2 * frames, .zero)
        reverbLanesMemory = FixedArray(2 * frames, .zero)
        chorusLanesMemory = FixedArray(2 * frames, .zero)
        reverbInputMemory = FixedArray(frames, 0)
        chorusInputMemory = FixedArray(frames, 0)
        slotScratchMemory = FixedArray(8, 0 as Int32)
    }
}
