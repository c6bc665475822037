import DSP
import MIDI
import Realtime

extension SynthBenchmark {
    /// Render cost in ns per voice-sample of the same held chord (`voices` notes on the saw-through-filter
    /// patch) rendered in `small`-frame calls and in `large`-frame calls: what the per-call work (voice
    /// grouping, gathering lane state) adds at small JACK periods. Two synths, one per call size, render
    /// `seconds` of audio each, alternately, `rounds` times; each side keeps its least disturbed (smallest)
    /// round, so a burst of load on a shared machine spoils some short rounds of one side, not the ratio.
    public static func callSizeCost(voices: Int, small: Int = 64, large: Int = 512, seconds: Double = 0.25,
                                    rounds: Int = 24, sampleRate: Double = 48_000)
        -> (small: Double, large: Double, sounding: Int) {
        func heldSynth(period: Int) -> Synth {
            let synth = Synth(voices: voices, patch: 1)
            synth.prepare(sampleRate: sampleRate, maxFrames: period)
            keepChannel10Melodic(synth)
            for (channel, note) in heldNotes(voices) {
                synth.handle(ShortMessage.noteOn(note, velocity: 100, channel: channel))
            }
            return synth
        }
        let periods = [small, large]
        let synths = periods.map(heldSynth)
        let memory = FixedArray<Float>(2 * large, 0)
        let buffer = memory.baseAddress
        // Past the attack and decay (saw lead: -80 dB in 0.4 s; exactly settled after about 0.7 s) into the
        // sustain every held voice holds.
        for (synth, period) in zip(synths, periods) {
            for _ in 0..<Int(1.0 * sampleRate) / period { synth.render(left: buffer, right: buffer + large, frames: period) }
        }
        var best = [Double.infinity, Double.infinity]
        for _ in 0..<max(rounds, 1) {
            for (i, (synth, period)) in zip(synths, periods).enumerated() {
                let calls = max(1, Int(seconds * sampleRate) / period)
                let start = threadCPUSeconds()
                for _ in 0..<calls { synth.render(left: buffer, right: buffer + large, frames: period) }
                let elapsed = threadCPUSeconds() - start
                best[i] = min(best[i], elapsed * 1e9 / Double(calls * period * max(synth.activeVoiceCount, 1)))
            }
        }
        return (best[0], best[1], synths.map(\.activeVoiceCount).min() ?? 0)
    }
}
