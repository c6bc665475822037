import Foundation
import Testing

/// The shell completions `backbeat --generate-completion-script` writes, run in bash, zsh and fish against a
/// folder of files: what each shell offers for file arguments (`--soundfont`, render's input, `-o`), names
/// (`--theme`, `--scenario`, `lifecycle run`, `--preset`, `monitor --hide`). `backbeat` is found on PATH, as
/// the shells' custom completions call it.
@Suite(.serialized) struct CompletionTests {
    /// A folder with fonts, a MIDI file, a WAV, a scenario file, an unrelated file and a subfolder; a `bin`
    /// with `backbeat` in it; a home whose preset folder holds one preset.
    final class Folder {
        let root: String
        var work: String { root + "/work" }
        var home: String { root + "/home" }
        init() throws {
            root = NSTemporaryDirectory() + "backbeat-completion-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let manager = FileManager.default
            for dir in [work + "/sub", root + "/bin", root + "/zfunc", home + "/.local/share/backbeat/presets", home + "/.config"] {
                try manager.createDirectory(atPath: dir, withIntermediateDirectories: true)
            }
            for file in ["a.sf2", "b.sf3", "c.txt", "song.mid", "take.wav", "scen.toml"] {
                manager.createFile(atPath: work + "/" + file, contents: Data())
            }
            try "name = \"mine\"\n".write(toFile: home + "/.local/share/backbeat/presets/mine.toml", atomically: true, encoding: .utf8)
            try manager.createSymbolicLink(atPath: root + "/bin/backbeat", withDestinationPath: backbeatExecutable())
            for shell in ["bash", "zsh", "fish"] {
                let script = try backbeat(["--generate-completion-script", shell])
                guard script.status == 0 else { throw HarnessError("--generate-completion-script \(shell): \(script.stderr)") }
                try script.stdout.write(toFile: root + "/" + (shell == "zsh" ? "zfunc/_backbeat" : "backbeat.\(shell)"), atomically: true, encoding: .utf8)
            }
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// What every shell runs with: our backbeat first on PATH, our home, no colour.
        var environment: String {
            "cd '\(work)' && export HOME='\(home)' XDG_DATA_HOME='\(home)/.local/share' XDG_CONFIG_HOME='\(home)/.config' PATH='\(root)/bin':\"$PATH\" NO_COLOR=1"
        }
    }

    /// Words a command line is completed from, the last one being completed (often "").
    static let cases: [(words: [String], offered: [String], notOffered: [String])] = [
        (["backbeat", "--soundfont", ""], ["a.sf2", "b.sf3", "sub/"], ["c.txt", "song.mid"]),
        (["backbeat", "render", ""], ["song.mid", "sub/"], ["a.sf2", "c.txt"]),
        (["backbeat", "render", "song.mid", "-o", ""], ["take.wav"], ["a.sf2", "song.mid"]),
        (["backbeat", "soundfont", "info", ""], ["a.sf2", "b.sf3"], ["c.txt"]),
        (["backbeat", "--theme", ""], ["dark", "light", "amber", "scen.toml"], ["a.sf2"]),
        (["backbeat", "--scenario", ""], ["midikit-swiftui", "scen.toml", "sub/"], ["a.sf2", "c.txt"]),
        (["backbeat", "lifecycle", "run", "mid"], ["midikit-swiftui"], ["scen.toml"]),
        (["backbeat", "--preset", ""], ["mine", "scen.toml"], ["a.sf2"]),
        (["backbeat", "monitor", "--hide", "act"], ["active-sensing"], ["clock"]),
    ]

    func check(_ shell: String, _ words: [String], offered: String, expected: [String], notExpected: [String]) {
        let items = Set(offered.split(whereSeparator: { $0 == "\n" || $0 == " " || $0 == "\t" }).map { String($0) })
        for name in expected {
            #expect(items.contains(name) || items.contains(name.hasSuffix("/") ? String(name.dropLast()) : name),
                    "\(shell): '\(words.joined(separator: " "))' does not offer \(name): \(offered)")
        }
        for name in notExpected {
            #expect(!items.contains(name), "\(shell): '\(words.joined(separator: " "))' offers \(name): \(offered)")
        }
    }

    @Test func bashOffersFilesAndNames() throws {
        let folder = try Folder()
        // The completion function as bash calls it on TAB: COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT set.
        var script = folder.environment + "\nsource '\(folder.root)/backbeat.bash'\n"
        script += """
            offer() {
              COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
              _backbeat backbeat "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
              printf '%s\\n' "${COMPREPLY[@]}"; echo ====
            }

            """
        for test in Self.cases { script += "offer " + test.words.map { "'\($0)'" }.joined(separator: " ") + "\n" }
        let result = try InstalledPrefix.shell(script, in: folder.work)
        let answers = result.output.components(separatedBy: "====\n")
        #expect(answers.count == Self.cases.count + 1, "\(result.output)")
        for (test, answer) in zip(Self.cases, answers) {
            check("bash", test.words, offered: answer, expected: test.offered, notExpected: test.notOffered)
        }
    }

    /// fish asks for the cursor position (`commandline -C`), which it has only in its line editor, so it too
    /// runs in tmux: each command line is typed, Tab shows what fish offers below it.
    @Test(.needs(executable: "/usr/bin/fish", package: "fish"))
    func fishOffersFilesAndNames() throws {
        try offerInTerminal(shell: "fish --no-config", key: "Tab", prompt: "fish% ", dismiss: "Escape") { root in
            "source '\(root)/backbeat.fish'; function fish_prompt; echo 'fish% '; end; set -g fish_autosuggestion_enabled 0"
        }
    }

    /// zsh completes only inside its line editor, so it runs in a real terminal (tmux): each command line is
    /// typed, Ctrl-D lists what zsh offers below it, and the screen is read.
    @Test(.needs(executable: "/usr/bin/zsh", package: "zsh"))
    func zshOffersFilesAndNames() throws {
        // Ctrl-D at the end of the line lists the choices (zsh's delete-char-or-list).
        try offerInTerminal(shell: "zsh -f", key: "C-d", prompt: "zsh% ") { root in
            "fpath=('\(root)/zfunc' $fpath); autoload -Uz compinit; compinit -u -D; PS1='zsh%% '"
        }
    }

    /// Starts `shell` (its command line) in tmux in a fresh folder, types `setup(folder root)` to load the
    /// completion script and set the prompt, waits for `prompt`, then checks every case (`offer`).
    func offerInTerminal(shell: String, key: String, prompt: String, dismiss: String? = nil,
                         setup: (String) -> String) throws {
        let folder = try Folder()
        let term = try TmuxSession(width: 200, height: 80)
        try term.runCommand(folder.environment + " && exec " + shell)
        try term.type(setup(folder.root))
        try term.keys("Enter")
        try term.waitFor(prompt.trimmingCharacters(in: .whitespaces))
        let name = String(shell.prefix { $0 != " " })
        try offer(in: term, shell: name, key: key, prompt: prompt, dismiss: dismiss)
    }

    /// Types each case's command line at the prompt, presses `key`, and reads what the shell shows: the
    /// choices below the line, or, when there is one, the word completed in the line itself.
    func offer(in term: TmuxSession, shell: String, key: String, prompt: String, dismiss: String? = nil) throws {
        for test in Self.cases {
            try term.keys("C-u", "C-l")
            try term.waitFor("a clear screen") { $0.trimmingCharacters(in: .whitespacesAndNewlines) == prompt.trimmingCharacters(in: .whitespaces) }
            let typed = test.words.joined(separator: " ")
            try term.type(typed)
            // tmux drops a line's trailing spaces.
            let shown = (prompt + typed).trimmingCharacters(in: .whitespaces)
            try term.waitFor(shown)
            try term.keys(key)
            let screen = try term.waitFor("what \(shell) offers for '\(typed)'") { screen in
                let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                return lines.count > 1 || (lines.first.map { $0.count > shown.count } ?? false)
            }
            // Let a listing that is still being drawn finish: the screen stays the same for a moment.
            var settled = screen
            while true {
                usleep(200_000)
                let again = try term.screen()
                if again == settled { break }
                settled = again
            }
            // The command line itself counts only for the word a single match completed in it.
            var lines = settled.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            if let line = lines.first {
                lines[0] = line == shown ? "" : String(line.split(separator: " ").last ?? "")
            }
            check(shell, test.words, offered: lines.joined(separator: "\n"),
                  expected: test.offered, notExpected: test.notOffered)
            if let dismiss { try term.keys(dismiss) }
        }
    }
}
