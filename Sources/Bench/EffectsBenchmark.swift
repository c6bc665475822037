import DSP
import MIDI
import Realtime

/// The send effects' cost, for `backbeat bench --only effects` (the render comparison with FluidSynth is
/// `SoundFontBenchmark.render(effects: true)`). Figures, not assertions.
public enum EffectsBenchmark {
    /// Nanoseconds per period of silence (least of 5 runs of `periods` periods) of a synth after a note and its
    /// tails have ended, with the effects on (sends raised by CC91/CC93) and off: the buses skip silence.
    public static func silentPeriodNanoseconds(frames: Int, periods: Int = 20_000) -> (effects: Double, dry: Double) {
        /// A synth after a note and its tails have ended (effects on: sends raised by CC91/CC93).
        func silentSynth(effects: Bool) -> Synth {
            let synth = Synth(voices: 64, patch: 3)
            synth.setEffects(reverb: effects, chorus: effects)
            synth.prepare(sampleRate: 48_000, maxFrames: frames)
            var memory = ArrayStore()
            let left = memory.make(frames, Float(0)), right = memory.make(frames, Float(0))
            synth.handle(ShortMessage.controlChange(.reverbSend, value: 127, channel: 0))
            synth.handle(ShortMessage.controlChange(.chorusSend, value: 127, channel: 0))
            synth.handle(ShortMessage.noteOn(60, velocity: 100, channel: 0))
            for _ in 0..<(48_000 / frames) { synth.render(left: left, right: right, frames: frames) }
            synth.handle(ShortMessage.noteOff(60, channel: 0))
            // The release (1.5 s) and the reverb's tail (cleared after 2 RT60, about 3 s): 10 s.
            for _ in 0..<(480_000 / frames) { synth.render(left: left, right: right, frames: frames) }
            return synth
        }
        let wet = silentSynth(effects: true), dry = silentSynth(effects: false)
        var memory = ArrayStore()
        let left = memory.make(frames, Float(0)), right = memory.make(frames, Float(0))
        let clock = ContinuousClock()
        func time(_ synth: Synth) -> Double {
            let d = clock.measure { for _ in 0..<periods { synth.render(left: left, right: right, frames: frames) } }
            return (Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18) / Double(periods) * 1e9
        }
        // Alternating, the least of 7 each: a busy neighbour slows both alike.
        var bestWet = Double.infinity, bestDry = Double.infinity
        for _ in 0..<7 {
            bestDry = min(bestDry, time(dry))
            bestWet = min(bestWet, time(wet))
        }
        return (bestWet, bestDry)
    }
}
