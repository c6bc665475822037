// How an exclusive class's voices end when a note of the class cuts them. An SF2 font's (no rules) take the
// synth's steal fade, as before; a zone with a rule (an SF2 font stacked with an SFZ instrument) takes its
// `off_mode` (SampleZoneRule.offMode; `offSampleVoice`, Synth+SampleZoneLimits.swift). SFZ zones have no
// exclusive class: their `group`/`off_by` are played by Synth+SampleZoneLimits.swift.

extension Synth {
    /// Ends channel `ch`'s voices of exclusive class `key`, each as its zone's rule says.
    @_noLocks
    func cutExclusive(_ key: Int32, channel ch: Int) {
        guard let rules = samples.font.rules else {
            allocator.cut(voices, exclusive: key, channel: ch)
            return
        }
        // No `&&` on the voices' rows: its right side is an autoclosure capturing self.
        for v in 0..<slotLimit where voices.exclusive[v] == key {
            if voices.stage[v] == Stage.free { continue }
            if Int(voices.channel[v]) != ch { continue }
            if voices.kind[v] == VoiceKind.sample {
                offSampleVoice(v, rules[Int(samples.slots.state[v].zone)])
            } else {
                allocator.startFade(voices, v, step: allocator.stealFadeStep)
            }
        }
    }
}
