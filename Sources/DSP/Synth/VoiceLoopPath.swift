// Which compilation of the voices' eight-lane loops a synth plays (WideLoops.swift), chosen by the CPU.
import CVoiceLoops
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which compilation of the eight-lane voice loops a synth plays: the portable one (SSE2 on x86-64, NEON on
/// arm64), AVX2 with FMA, or AVX-512. Every path plays the same samples; they differ in speed. A synth takes
/// `VoiceLoopPath.chosen`; tests and benchmarks set `Synth.voiceLoops` to force one this CPU runs.
public enum VoiceLoopPath: String, CaseIterable, Sendable {
    case portable, avx2, avx512

    /// The paths this CPU and its OS run (CPUID and XCR0), slowest first: always `portable`.
    public static let supported: [VoiceLoopPath] = {
        var paths: [VoiceLoopPath] = [.portable]
        if backbeat_cpu_runs_avx2() != 0 { paths.append(.avx2) }
        if backbeat_cpu_runs_avx512() != 0 { paths.append(.avx512) }
        return paths
    }()

    /// The fastest path this CPU runs.
    public static var fastest: VoiceLoopPath { supported[supported.count - 1] }

    /// The path synths take: the environment's `BACKBEAT_VOICE_LOOPS` (portable, avx2 or avx512) where this
    /// CPU runs it, else the fastest; `warning` says what was asked and why it was not taken.
    public static let chosen: (path: VoiceLoopPath, warning: String?) =
        choose(getenv("BACKBEAT_VOICE_LOOPS").map { String(cString: $0) })

    /// `chosen`'s rule for the value `asked` (nil or empty: none asked).
    public static func choose(_ asked: String?) -> (path: VoiceLoopPath, warning: String?) {
        guard let asked, !asked.isEmpty else { return (fastest, nil) }
        guard let path = VoiceLoopPath(rawValue: asked.lowercased()) else {
            return (fastest, "BACKBEAT_VOICE_LOOPS=\(asked) is not a voice loop path (portable, avx2 or avx512): playing \(fastest.rawValue)")
        }
        guard supported.contains(path) else {
            return (fastest, "BACKBEAT_VOICE_LOOPS=\(asked): this CPU does not run \(path.name); playing \(fastest.rawValue)")
        }
        return (path, nil)
    }

    /// Whether a synth on this path plays kept steady groups of built-in voices eight lanes wide (on AVX2 and
    /// AVX-512; `renderKept`). The portable compile of the eight-lane loops reads lane by lane and is slower
    /// than the four-lane loops, which play there instead.
    public var playsKeptGroupsEightWide: Bool {
        @_noLocks get {
            switch self {
            case .portable: return false
            case .avx2, .avx512: return true
            }
        }
    }

    /// Whether a synth on this path plays groups of sample voices eight lanes wide (`renderSampleGroup`): on
    /// AVX-512 only, whose gathers read the eight lanes' points in two instructions. With AVX2 the eight lanes'
    /// reads go one by one (its gathers are slower still on the AMD EPYC measured) and the eight-lane loop
    /// measured slower than the four-lane one (README, Measured), which plays there; the AVX2 compile is
    /// still tested to play the same samples.
    public var playsSampleGroupsEightWide: Bool {
        @_noLocks get {
            switch self {
            case .portable, .avx2: return false
            case .avx512: return true
            }
        }
    }

    /// The instruction set, as a person names it.
    public var name: String {
        switch self {
        case .portable:
            #if arch(x86_64)
            return "SSE2"
            #else
            return "NEON"
            #endif
        case .avx2: return "AVX2+FMA"
        case .avx512: return "AVX-512"
        }
    }
}
