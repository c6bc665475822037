import DSP
import Engine

// The channel mixer (`O`, MixerPanel.swift): its keys' changes sent to the engine, and its strips drawn in
// place of the monitor and the panels beside it.
extension Workstation {
    func toggleMixer() {
        mixer.shown.toggle()
        say(mixer.shown ? "mixer: Up Down select · m mute · s solo · Left Right volume · < > pan · 0 reset · O closes"
            : "mixer hidden (O shows it)")
    }

    /// After a mixer key: the settings to the engine (heard from its next period), and what the key did.
    func mixerChanged(_ said: String) {
        engine.setChannelMixer(mixer.settings)
        if !said.isEmpty { say(said) }
    }

    /// Each channel's program as the synth plays it: the font's preset, else the built-in patch its last
    /// program change chose (channel 10: the drum kit).
    func mixerNames() -> [String] {
        (0..<16).map { ch in
            if let name = engine.channelPresetName(UInt8(ch)) { return name }
            if ch == 9 { return "drum kit" }
            let index = SynthPatch.generalMIDI(program: Int(mixer.programs[ch]))
            return "\(mixer.programs[ch]) \(SynthPatch.builtIn[index].name)"
        }
    }

    func drawMixer(into grid: inout Grid, layout: Layout) {
        let rect = Rect(x: 0, y: layout.monitor.y, width: grid.width, height: layout.keyboard.y - layout.monitor.y)
        MixerPanel.draw(mixer, names: mixerNames(), into: &grid, rect: rect, context: DrawContext(glyphs: glyphs, focused: true))
    }
}
