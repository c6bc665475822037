import ArgumentParser
import Foundation
import Settings
import TUI

/// What the shell completions (`backbeat --generate-completion-script bash|zsh|fish`) offer for arguments
/// that are a name of something Backbeat ships or keeps, or a file: the names, then the files and folders
/// that start with the word typed. The shells call `backbeat ---completion` for these when TAB is pressed.
enum Completions {
    /// Bundled scenario names (`scenarios/` next to or above the executable), then .toml files.
    static let scenarios = CompletionKind.custom { _, _, prefix in
        namesAndFiles(names(in: InstalledFiles.directories("scenarios")), extensions: ["toml"], prefix: prefix)
    }

    /// Theme names (`$BACKBEAT_THEMES`, the config folder's themes, the shipped ones), then .toml files.
    static let themes = CompletionKind.custom { _, _, prefix in
        namesAndFiles(Theme.availableNames(), extensions: ["toml"], prefix: prefix)
    }

    /// Saved preset names (`$XDG_DATA_HOME/backbeat/presets`), then .toml files.
    static let presets = CompletionKind.custom { _, _, prefix in
        namesAndFiles(PresetLibrary().names(), extensions: ["toml"], prefix: prefix)
    }

    /// The names of the `.toml` files in `directories`, without the extension, each once.
    static func names(in directories: [String]) -> [String] {
        var names = Set<String>()
        for directory in directories {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where file.hasSuffix(".toml") {
                names.insert(String(file.dropLast(5)))
            }
        }
        return names.sorted()
    }

    /// `names` that start with `prefix`, then the files with one of `extensions` and the folders whose paths
    /// start with it (folders end in "/" so that the next TAB goes into them; hidden ones only when the
    /// prefix asks for them). A leading `~/` is the home folder, and stays as typed.
    static func namesAndFiles(_ names: [String], extensions: [String], prefix: String) -> [String] {
        var result = prefix.contains("/") ? [] : names.filter { $0.hasPrefix(prefix) }
        let slash = prefix.lastIndex(of: "/")
        let typedFolder = slash.map { String(prefix[...$0]) } ?? ""
        let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        var folder = typedFolder.isEmpty ? "." : typedFolder
        if folder.hasPrefix("~/") { folder = NSHomeDirectory() + folder.dropFirst() }
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        for entry in entries where entry.hasPrefix(start) && (start.hasPrefix(".") || !entry.hasPrefix(".")) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + entry, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                result.append(typedFolder + entry + "/")
            } else if extensions.contains(where: { entry.lowercased().hasSuffix("." + $0) }) {
                result.append(typedFolder + entry)
            }
        }
        return result
    }
}

/// The completion scripts `backbeat --generate-completion-script SHELL` prints: argument-parser's, with one
/// change. Its scripts complete a subcommand's options only after the subcommand's name, but `run` is the
/// default subcommand (`backbeat --soundfont FONT` is `backbeat run --soundfont FONT`), so each script is
/// patched to complete a command line whose first word is an option as `run`'s. A patch whose anchor is
/// not in the script (another argument-parser version) is left out; CompletionTests then fail.
enum CompletionScripts {
    /// The script for `shell` ("bash", "zsh", "fish"), or nil for a shell argument-parser does not know.
    static func script(for shell: String) -> String? {
        guard let kind = CompletionShell(rawValue: shell) else { return nil }
        let script = Backbeat.completionScript(for: kind)
        switch shell {
        case "bash":
            // In the root function: the first word is an option (or one being typed) -> run's completion.
            return insertOnce(script, before: "    # Offer subcommand / subcommand argument completions\n", """
                    if [[ "${COMP_CWORD}" -ge 1 && "${COMP_WORDS[1]}" == -* ]]; then
                        COMPREPLY=()
                        unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")
                        _backbeat_run
                        return
                    fi

                """)
        case "zsh":
            // In the root function's argument state: words[1] is the first word after `backbeat`.
            return insertOnce(script, after: "    arg)\n        case \"${words[1]}\" in\n", """
                    -*)
                        words=(run "${words[@]}")
                        (( CURRENT++ ))
                        _backbeat_run && ret=0
                        ;;

                """)
        case "fish":
            // The tokens before the cursor: `backbeat -x ...` is parsed as `backbeat run -x ...`.
            return insertOnce(script, after: "    set -l unparsed_tokens (__backbeat_tokens -pc)\n", """
                    if string match -q -- '-*' "$unparsed_tokens[2]"; and not contains -- "$unparsed_tokens[2]" --version -h --help
                        set unparsed_tokens $unparsed_tokens[1] run $unparsed_tokens[2..]
                    end

                """)
        default:
            return script
        }
    }

    private static func insertOnce(_ script: String, before anchor: String, _ text: String) -> String {
        guard let range = script.range(of: anchor) else { return script }
        return script.replacingCharacters(in: range.lowerBound..<range.lowerBound, with: text)
    }

    private static func insertOnce(_ script: String, after anchor: String, _ text: String) -> String {
        guard let range = script.range(of: anchor) else { return script }
        return script.replacingCharacters(in: range.upperBound..<range.upperBound, with: text)
    }
}
