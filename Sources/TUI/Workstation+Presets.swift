import DSP
import Engine
import Foundation
import Lifecycle
import MIDI
import Settings
import TextOutput

// The workstation's presets: the browser of a font's presets, the name prompt, saving and loading synth presets,
// and the program a channel plays (its name in the monitor, PgUp/PgDn).
extension Workstation {
    /// The font's presets, or without a font the General MIDI programs' built-in patches (bank 0): what a
    /// program change can choose. The named patches (0-12) are `--patch`'s and presets'.
    func openBrowser() {
        var entries = engine.presetEntries()
        var current = engine.currentPreset(channel: keyboard.channel)
        if entries.isEmpty {
            let first = SynthPatch.firstGeneralMIDI
            entries = (0..<128).map { PresetEntry(index: first + $0, bank: 0, program: $0, name: SynthPatch.builtIn[first + $0].name) }
            current = (synthView ?? engine.synthView()).patch
        }
        entries += instrumentEntries()
        browser = PresetBrowser(presets: entries, current: current)
    }

    func handleBrowser(_ key: Key) {
        guard var b = browser else { return }
        switch key {
        case .escape: browser = nil; say("preset unchanged"); return
        case .enter:
            browser = nil
            guard let entry = b.chosen else { say("no preset chosen"); return }
            if let file = entry.file { loadInstrument(file, channel: keyboard.channel); return }
            guard midiGateOpen else {
                say("preset not changed: the simulated app is suspended, so its program change would be lost (f: foreground)")
                return
            }
            if let message = engine.choosePreset(entry.index, channel: keyboard.channel) {
                synthView = engine.synthView(channel: keyboard.channel)
                say(message)
            } else {
                changeProgram(to: entry.program)
            }
            return
        case .up: b.move(-1)
        case .down: b.move(1)
        case .pageUp: b.move(-10)
        case .pageDown: b.move(10)
        case .home: b.move(-b.matches.count)
        case .end: b.move(b.matches.count)
        case .backspace: b.erase()
        case .char(let c): b.type(c)
        case .function(10): quitRequested = true
        default: break
        }
        browser = b
    }

    /// The status line is a one-line editor while a preset name is asked for.
    func handlePrompt(_ key: Key) {
        guard let text = presetPrompt else { return }
        switch PromptKey.apply(key, to: text, accepts: { text, c in
            c.unicodeScalars.allSatisfy(TerminalText.isPrintable) && text.utf8.count < 100
        }) {
        case .editing(let edited): presetPrompt = edited
        case .cancelled: presetPrompt = nil; say("preset not saved")
        case .entered(let name): presetPrompt = nil; savePreset(as: name.isEmpty ? presetName ?? presets.nextFreeName() : name)
        case .quit: quitRequested = true
        }
    }

    /// What the prompt shows: the typed name, and what an empty one saves as.
    public var presetPromptLine: String? {
        presetPrompt.map { "save preset as: \($0)_   (Enter saves\($0.isEmpty ? " as \(presetName ?? presets.nextFreeName())" : ""); Esc cancels)" }
    }

    /// The settings the synth panel shows (edits included at once) go to `NAME.toml`.
    func savePreset(as name: String) {
        var preset = SynthPreset(synthView ?? engine.synthView())
        preset.mixer = mixer.presetMixer
        let existed = presets.names().contains(name)
        do {
            let path = try presets.save(preset, as: name)
            presetName = name
            say("\(existed ? "replaced" : "saved") preset \"\(name)\": \(path) ([ ] load presets)")
        } catch {
            say("preset not saved: \(error.description)")
        }
    }

    /// The next (or previous) saved preset after the one last loaded or saved, cycling.
    func loadPreset(by d: Int) {
        let names = presets.names()
        guard !names.isEmpty else {
            say("no saved presets in \(presets.directory) (s saves the current settings)")
            return
        }
        guard midiGateOpen else {
            say("preset not loaded: the simulated app is suspended, so its program change would be lost (f: foreground)")
            return
        }
        let index: Int
        if let presetName, let i = names.firstIndex(of: presetName) {
            index = ((i + d) % names.count + names.count) % names.count
        } else if let presetName, d > 0 {
            index = names.firstIndex { $0.compare(presetName, options: [.numeric, .caseInsensitive]) == .orderedDescending } ?? 0
        } else {
            index = d > 0 ? 0 : names.count - 1
        }
        let name = names[index]
        presetName = name
        let preset: SynthPreset
        do { preset = try SynthPreset.load(path: presets.path(of: name)) } catch {
            say("preset \(index + 1)/\(names.count) not loaded: \(error.description)")
            return
        }
        for event in preset.controlEvents(channel: keyboard.channel) { send(event) }
        if let saved = preset.mixer { mixer.load(saved); mixerChanged("") }
        for p in SynthPreset.effectParameters { engine.setEffect(p, preset.value(p)) }
        synthView?.patch = preset.patch
        for p in SynthParameter.allCases { synthView?.values[p.rawValue] = preset.value(p) }
        for p in SynthPreset.effectParameters { synthView?.set(p, preset.value(p)) }
        say("preset \"\(name)\" (\(index + 1)/\(names.count)): patch \(preset.patch) \(SynthPatch.builtIn[preset.patch].name)")
    }

    /// The earliest time something must be redrawn or a gate must end, for the loop's sleep.
    public var nextDeadline: Double? { keyboard.nextExpiry }

    // MARK: Programs and patches

    /// A program change named as the synth plays it: the SoundFont preset it selects (bank from the channel's
    /// CC0), else the built-in patch (the nearest to GM program n, `SynthPatch.generalMIDI`), not a General MIDI name.
    func programLabel(_ pc: ProgramChange) -> String {
        if let synthChannel = engine.synthChannel, synthChannel != pc.channel {
            return "\(pc.program) (the synth answers channel \(synthChannel + 1) only)"
        }
        if let name = engine.programName(pc.program, bank: channels.bank(channel: pc.channel), channel: pc.channel) {
            return "\(pc.program) \(name)"
        }
        let index = SynthPatch.generalMIDI(program: Int(pc.program))
        return "\(pc.program) patch \(index) \(SynthPatch.builtIn[index].name)"
    }

    /// PgUp/PgDn: the next or previous SoundFont preset, else built-in patch, sent as a program change.
    func changePatch(by d: Int) {
        guard midiGateOpen else {
            say("patch not changed: the simulated app is suspended, so its program change would be lost (f: foreground)")
            return
        }
        if let message = engine.stepPreset(by: d, channel: keyboard.channel) { // a SoundFont: its presets
            synthView = engine.synthView(channel: keyboard.channel)
            say(message)  // redraws
            return
        }
        // The next General MIDI program's patch (a named patch steps from the program it stands for).
        let current = synthView?.patch ?? engine.synthView().patch
        let program = SynthPatch.program(forPatch: current) ?? 0
        changeProgram(to: ((program + d) % 128 + 128) % 128)
    }

    /// Sends program change `program` on the keyboard's channel: the built-in synth plays the program's own
    /// patch (docs/builtin-programs.md: patch 13 + program).
    func changeProgram(to program: Int) {
        let next = SynthPatch.generalMIDI(program: program)
        send(.midi(ShortMessage.programChange(UInt8(program), channel: keyboard.channel), .keyboard))
        synthView?.patch = next
        for p in SynthParameter.allCases where p != .masterGain { synthView?.values[p.rawValue] = SynthPatch.builtIn[next].value(of: p) }
        say("patch \(next): \(SynthPatch.builtIn[next].name)")
    }
}
