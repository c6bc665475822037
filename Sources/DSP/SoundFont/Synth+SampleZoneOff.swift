// How an exclusive class's voices end when a note of the class cuts them. An SF2 font's (no rules) take the
// synth's steal fade, as before; an SFZ zone's take its `off_mode` (SampleZoneRule.offMode): `fast` the same
// fade, `normal` its own release, `time` the release at `off_time`'s rate, as sfizz does.

extension Synth {
    /// Ends channel `ch`'s voices of exclusive class `key`, each as its zone's rule says.
    @_noLocks
    func cutExclusive(_ key: Int32, channel ch: Int) {
        guard let rules = samples.font.rules else {
            allocator.cut(voices, exclusive: key, channel: ch)
            return
        }
        let rate = Float(sampleRate)
        // No `&&` on the voices' rows: its right side is an autoclosure capturing self.
        for v in 0..<slotLimit where voices.exclusive[v] == key {
            if voices.stage[v] == Stage.free { continue }
            if Int(voices.channel[v]) != ch { continue }
            var mode = SampleZoneRule.offFast, seconds: Float = 0
            if voices.kind[v] == VoiceKind.sample {
                let rule = rules[Int(samples.slots.state[v].zone)]
                (mode, seconds) = (rule.offMode, rule.offTime)
            }
            if mode == SampleZoneRule.offNormal {
                voices.stage[v] = Stage.release
            } else if mode == SampleZoneRule.offTime {
                // sfizz's: the release, at off_time's rate instead of the region's.
                let voice = samples.slots.state.baseAddress + v
                voice.pointee.volumeEnvelope.releaseStep = 1 / max(seconds * rate, 1)
                voices.stage[v] = Stage.release
            } else {
                allocator.startFade(voices, v, step: allocator.stealFadeStep)
            }
        }
    }
}
