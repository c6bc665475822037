import DSP
import Engine
import MIDI

// The synth panel's rows changed by keys: a patch, a GM2 sound controller on the keyboard's channel, a
// parameter, a running effect's setting, the sample voices' interpolation.
extension Workstation {
    func change(_ row: SynthRow, steps: Int) {
        switch row {
        case .patch: changePatch(by: steps > 0 ? 1 : -1)
        case .soundController(let c):
            // Sent as the GM2 sound controller on the keyboard's channel: heard as from MIDI, shown once delivered.
            let ch = keyboard.channel
            let value = UInt8(min(127, max(0, Int(channels.value(c.controller, channel: ch)) + steps * 4)))
            send(.midi(ShortMessage.controlChange(Controller(rawValue: UInt8(c.controller)), value: value, channel: ch), .keyboard))
            if midiGateOpen { channels.apply(.controlChange(ControlChange(channel: ch, controller: UInt8(c.controller), value: value))) }
            say(midiGateOpen ? "\(c.name): CC\(c.controller) \(value) on channel \(ch + 1) (\(c.effect(value)) on the preset's own)"
                : "\(c.name) not changed: the simulated app is suspended, so its control change is lost (f: foreground)")
        case .parameter(let p):
            let current = synthView?.value(p) ?? engine.synthView().value(p)
            let value = SynthPanel.step(p, current, by: steps)
            send(.parameter(index: UInt8(p.rawValue), value: value))
            synthView?.values[p.rawValue] = value  // shown at once; the next status read confirms it
        case .effect(let e):
            // Straight into the running synth's effect settings (an atomic): heard at its next period.
            let view = synthView ?? engine.synthView()
            let value = e.step(view.value(e.parameter), by: steps)
            engine.setEffect(e.parameter, value)
            synthView?.set(e.parameter, value)  // shown at once; the next status read confirms it
            if view.value(e.bus) < 0.5 {
                say("\(e.name) \(e.format(value)) kept, but the \(e.bus.name) is off (--no-\(e.bus.name) or the config's \(e.bus.name) = false)")
            }
        case .interpolation:
            // Straight into the running synth (an atomic): heard from its next slice.
            let view = synthView ?? engine.synthView()
            let next: SampleInterpolation = view.interpolation == .sinc ? .cubic : .sinc
            engine.setInterpolation(next)
            synthView?.interpolation = next  // shown at once; the next status read confirms it
            say("interpolation: \(next) (the sample voices; --interpolation \(next) at start)")
        case .polyphony: say("polyphony is set at start: --voices N")
        }
    }
}
