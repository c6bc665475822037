import DSP
import Glibc
import MIDI
import Realtime

/// The send effects' cost, for `backbeat bench --only effects` (the render comparison with FluidSynth is
/// `SoundFontBenchmark.render(effects: true)`). Figures, not assertions.
public enum EffectsBenchmark {
    /// A silent period's cost with the effects on against off, in nanoseconds: medians over interleaved runs.
    public struct SilentCost: Sendable {
        /// Median nanoseconds per period, effects on and dry.
        public var effects: Double
        public var dry: Double
        /// The median of the runs' on/off ratios, minus 1 (each pair measured back to back).
        public var change: Double
        public var runs: Int
    }

    /// A synth that played a note with both sends full (CC91/CC93 127) on the soft pad, then `silence` seconds
    /// of silence after it (the release, 1.5 s, and the reverb's tail, cleared 2 RT60 after: about 3 s).
    static func synthAfterANote(effects: Bool, frames: Int, silence: Double) -> Synth {
        let synth = Synth(voices: 64, patch: 3)
        synth.setEffects(reverb: effects, chorus: effects)
        synth.prepare(sampleRate: 48_000, maxFrames: frames)
        let leftMemory = FixedArray<Float>(frames, 0), rightMemory = FixedArray<Float>(frames, 0)
        let left = leftMemory.baseAddress, right = rightMemory.baseAddress
        synth.handle(ShortMessage.controlChange(.reverbSend, value: 127, channel: 0))
        synth.handle(ShortMessage.controlChange(.chorusSend, value: 127, channel: 0))
        synth.handle(ShortMessage.noteOn(60, velocity: 100, channel: 0))
        for _ in 0..<(48_000 / frames) { synth.render(left: left, right: right, frames: frames) }
        synth.handle(ShortMessage.noteOff(60, channel: 0))
        let periods = Int(silence * 48_000) / frames
        for _ in 0..<periods { synth.render(left: left, right: right, frames: frames) }
        return synth
    }

    /// CPU nanoseconds per period of `synth` rendering `periods` periods of silence: the calling thread's CPU
    /// time (CLOCK_THREAD_CPUTIME_ID), so time the scheduler gives other processes (builds on a shared machine)
    /// is not counted, as wall time would count it.
    static func nanoseconds(_ synth: Synth, frames: Int, periods: Int, left: UnsafeMutablePointer<Float>,
                            right: UnsafeMutablePointer<Float>) -> Double {
        let start = threadCPUNanoseconds()
        for _ in 0..<periods { synth.render(left: left, right: right, frames: frames) }
        return (threadCPUNanoseconds() - start) / Double(periods)
    }

    static func threadCPUNanoseconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e9 + Double(t.tv_nsec)
    }

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        return s.isEmpty ? .nan : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// A silent period after the tails, effects on against off, on one synth (the same memory, the same code
    /// path up to the buses' skip: the difference is the effects' alone). `runs` interleaved pairs in ABBA
    /// order (on off off on ...), each run about 25 ms of periods of the thread's CPU time, after a warm-up;
    /// medians, and the median of the pairs' ratios, so a busy neighbour or a frequency step during one run
    /// moves one sample, not the row.
    public static func silentPeriod(frames: Int, runs: Int = 41) -> SilentCost {
        let synth = synthAfterANote(effects: true, frames: frames, silence: 10)
        let leftMemory = FixedArray<Float>(frames, 0), rightMemory = FixedArray<Float>(frames, 0)
        let left = leftMemory.baseAddress, right = rightMemory.baseAddress
        func time(effects: Bool, periods: Int) -> Double {
            synth.setEffects(reverb: effects, chorus: effects)
            return nanoseconds(synth, frames: frames, periods: periods, left: left, right: right)
        }
        // Warm-up, and the run length: about 25 ms.
        _ = time(effects: true, periods: 2_000); _ = time(effects: false, periods: 2_000)
        let probe = time(effects: false, periods: 20_000)
        let periods = max(2_000, Int(25e6 / max(probe, 1)))
        var on: [Double] = [], off: [Double] = [], ratios: [Double] = []
        for run in 0..<runs {
            let a: Double, b: Double
            if run % 2 == 0 {
                a = time(effects: true, periods: periods); b = time(effects: false, periods: periods)
            } else {
                b = time(effects: false, periods: periods); a = time(effects: true, periods: periods)
            }
            on.append(a); off.append(b); ratios.append(a / max(b, 1e-9))
        }
        synth.setEffects(reverb: true, chorus: true)
        return SilentCost(effects: median(on), dry: median(off), change: median(ratios) - 1, runs: runs)
    }

    /// Hours of silence after a note, the effects on, against the same synth with them off.
    public struct LongSilence: Sendable {
        /// On against off on the synth that played the note and the hours of silence.
        public var cost: SilentCost
        /// Median nanoseconds per period of a second synth that played the same with its effects off all along
        /// (another instance: its memory lies elsewhere, which alone moves the figure by several percent).
        public var separateDry: Double
        /// The effects' state after the silence (NaN, infinities, subnormals; cleared).
        public var state: EffectStateCheck
        /// Seconds of silence rendered before the measurement.
        public var seconds: Double
        /// Every sample of the measured minutes was 0 (no tail, no noise from a stray state).
        public var silentOutput: Bool
    }

    /// A synth with its effects on plays a note (sends full) and then renders `hours` of silence in
    /// `frames`-frame periods, offline at 48 kHz; then the CPU per period of a further minute of silence is
    /// measured with its effects on and off, `runs` minute-long runs interleaved ABBA, medians (the thread's
    /// CPU time). A second synth that did the same dry all along is measured beside it. The effects' state is
    /// checked for NaN and subnormals at the end of the hours of silence.
    public static func longSilence(hours: Double = 2, frames: Int = 64, runs: Int = 15) -> LongSilence {
        let seconds = hours * 3_600
        let wet = synthAfterANote(effects: true, frames: frames, silence: seconds)
        let dry = synthAfterANote(effects: false, frames: frames, silence: seconds)
        let state = wet.checkEffectState()
        let leftMemory = FixedArray<Float>(frames, 0), rightMemory = FixedArray<Float>(frames, 0)
        let left = leftMemory.baseAddress, right = rightMemory.baseAddress
        let minute = 60 * 48_000 / frames
        func time(_ synth: Synth) -> Double { nanoseconds(synth, frames: frames, periods: minute, left: left, right: right) }
        func time(effects: Bool) -> Double {
            wet.setEffects(reverb: effects, chorus: effects)
            return time(wet)
        }
        var on: [Double] = [], off: [Double] = [], ratios: [Double] = [], separate: [Double] = []
        var silentOutput = true
        for run in 0..<runs {
            let a: Double, b: Double
            if run % 2 == 0 {
                a = time(effects: true); b = time(effects: false)
            } else {
                b = time(effects: false); a = time(effects: true)
            }
            on.append(a); off.append(b); ratios.append(a / max(b, 1e-9))
            for n in 0..<frames where left[n] != 0 || right[n] != 0 { silentOutput = false }
            separate.append(time(dry))
        }
        wet.setEffects(reverb: true, chorus: true)
        let cost = SilentCost(effects: median(on), dry: median(off), change: median(ratios) - 1, runs: runs)
        return LongSilence(cost: cost, separateDry: median(separate), state: state, seconds: seconds, silentOutput: silentOutput)
    }
}
