import Foundation
import Testing

/// `scripts/install` into a temporary prefix, with the `backbeat` built beside these tests (`--binary`: a
/// release build cannot run inside `swift test`, which holds the package's build lock; everything else the
/// script does is the same). The installed program is then used the way a user would: from another
/// directory, found on `PATH`.
struct InstalledPrefix {
    let prefix: String
    let elsewhere: String
    let output: String

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// A fresh prefix holding one file and one folder of someone else's, so that uninstall can be seen to
    /// leave them.
    init() throws {
        let root = NSTemporaryDirectory() + "backbeat-install-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        prefix = root + "/prefix"
        elsewhere = root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: prefix + "/share/doc", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try "not Backbeat's\n".write(toFile: prefix + "/share/doc/other.txt", atomically: true, encoding: .utf8)
        let result = try Self.shell("'\(Self.repository)/scripts/install' --prefix '\(prefix)' --binary '\(backbeatExecutable())'", in: elsewhere)
        guard result.status == 0 else { throw HarnessError("scripts/install failed (\(result.status)):\n\(result.output)") }
        output = result.output
    }

    func remove() { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: prefix).deletingLastPathComponent().path) }

    /// Runs a shell command in `elsewhere` with the prefix's bin first on PATH, and a home of its own (zsh and
    /// fish keep files there).
    func shell(_ command: String) throws -> (status: Int32, output: String) {
        let home = URL(fileURLWithPath: prefix).deletingLastPathComponent().path + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return try InstalledPrefix.shell(command, in: elsewhere, path: prefix + "/bin",
                                         environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/.config",
                                                       "XDG_DATA_HOME": home + "/.local/share", "XDG_CACHE_HOME": home + "/.cache"])
    }

    static func shell(_ command: String, in directory: String, path: String? = nil, environment extra: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        if let path { environment["PATH"] = path + ":" + (environment["PATH"] ?? "/usr/bin:/bin") }
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Every path under the prefix (files and folders), relative to it.
    func listing() -> [String] {
        (FileManager.default.enumerator(atPath: prefix)?.allObjects as? [String] ?? []).sorted()
    }
}

private func shell(_ command: String, in directory: String) throws -> (status: Int32, output: String) {
    try InstalledPrefix.shell(command, in: directory)
}

@Suite struct InstallTests {
    // The completions are loaded in their shells: without zsh or fish those checks were passed over unsaid.
    @Test(.needs(executable: "/usr/bin/zsh", package: "zsh"), .needs(executable: "/usr/bin/fish", package: "fish"))
    func installsRunsFromAnotherDirectoryAndUninstallsExactly() throws {
        let install = try InstalledPrefix()
        defer { install.remove() }
        let p = install.prefix
        let expected = ["bin/backbeat", "share/man/man1/backbeat.1", "share/bash-completion/completions/backbeat",
                        "share/zsh/site-functions/_backbeat", "share/fish/vendor_completions.d/backbeat.fish",
                        "share/backbeat/themes/light.toml", "share/backbeat/scenarios/midikit-swiftui.toml",
                        "share/backbeat/install-manifest"]
        for file in expected { #expect(FileManager.default.fileExists(atPath: p + "/" + file), "missing \(file)") }
        let shippedThemes = try FileManager.default.contentsOfDirectory(atPath: InstalledPrefix.repository + "/themes").sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: p + "/share/backbeat/themes").sorted() == shippedThemes)
        let shippedScenarios = try FileManager.default.contentsOfDirectory(atPath: InstalledPrefix.repository + "/scenarios").sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: p + "/share/backbeat/scenarios").sorted() == shippedScenarios)

        // The installed program, found on PATH, from a directory with no themes or scenarios in it.
        let which = try install.shell("command -v backbeat")
        #expect(which.output.trimmingCharacters(in: .whitespacesAndNewlines) == p + "/bin/backbeat")
        let byName = try install.shell("backbeat lifecycle run midikit-swiftui")
        #expect(byName.status == 0, "\(byName.output)")
        #expect(byName.output.contains("MIDIKit"), "\(byName.output)")
        let byPath = try install.shell("backbeat lifecycle run '\(p)/share/backbeat/scenarios/midikit-swiftui.toml' --json")
        #expect(byPath.status == 0 && byPath.output.hasPrefix("{"), "\(byPath.output)")
        let unknown = try install.shell("backbeat lifecycle run no-such-scenario")
        #expect(unknown.status == 2, "\(unknown.output)")
        #expect(unknown.output.contains("no-such-scenario") && unknown.output.contains(p + "/share/backbeat/scenarios"), "\(unknown.output)")

        // The man page renders, from the parser's own definitions: every subcommand is in it.
        let man = try install.shell("MANWIDTH=100 man -l '\(p)/share/man/man1/backbeat.1' 2>&1 | col -b")
        #expect(man.status == 0, "\(man.output)")
        for word in ["backbeat", "lifecycle", "decode", "render", "monitor", "--headless", "--theme", "--scenario"] {
            #expect(man.output.contains(word), "the man page lacks \(word):\n\(man.output.prefix(2000))")
        }
        // groff's and man's own complaints ("<file>:12: warning: ..."); the page may speak of warnings itself.
        #expect(!man.output.contains("warning:"), "\(man.output.prefix(2000))")

        // Completions load in their shells.
        let bash = try install.shell("source '\(p)/share/bash-completion/completions/backbeat' && complete -p backbeat")
        #expect(bash.status == 0 && bash.output.contains("backbeat"), "\(bash.output)")
        let zsh = try install.shell("zsh -f -c 'fpath=(\(p)/share/zsh/site-functions $fpath); autoload -Uz compinit; compinit -u -D; print -r -- ${_comps[backbeat]}'")
        #expect(zsh.status == 0 && zsh.output.contains("_backbeat"), "\(zsh.output)")
        let fish = try install.shell("fish --no-config -c 'source \(p)/share/fish/vendor_completions.d/backbeat.fish; complete -C\"backbeat lifecycle \"'")
        #expect(fish.status == 0 && fish.output.contains("run") && fish.output.contains("check"), "\(fish.output)")
        // No shell replaced a device with a file of its own (compinit's dump file once did that to /dev/null).
        var null = stat()
        #expect(stat("/dev/null", &null) == 0 && (null.st_mode & S_IFMT) == S_IFCHR, "/dev/null is no longer a device")

        // A second install over the first is fine (the manifest is rewritten), a foreign file is not overwritten.
        let again = try install.shell("'\(InstalledPrefix.repository)/scripts/install' --prefix '\(p)' --binary '\(backbeatExecutable())'")
        #expect(again.status == 0, "\(again.output)")

        // Uninstall leaves exactly what was there before: someone else's file and folder, nothing of ours.
        let removed = try install.shell("'\(InstalledPrefix.repository)/scripts/install' --uninstall --prefix '\(p)'")
        #expect(removed.status == 0, "\(removed.output)")
        #expect(install.listing() == ["share", "share/doc", "share/doc/other.txt"], "\(install.listing())")
        let twice = try install.shell("'\(InstalledPrefix.repository)/scripts/install' --uninstall --prefix '\(p)'")
        #expect(twice.status == 1 && twice.output.contains("nothing to uninstall"), "\(twice.output)")
    }

    @Test func refusesUnknownOptionsAndForeignFiles() throws {
        let script = InstalledPrefix.repository + "/scripts/install"
        let bad = try shell("'\(script)' --prefx /tmp/x", in: NSTemporaryDirectory())
        #expect(bad.status == 2, "\(bad.output)")
        #expect(bad.output.contains("usage: scripts/install") && bad.output.contains("--prefx"), "\(bad.output)")
        let noValue = try shell("'\(script)' --prefix", in: NSTemporaryDirectory())
        #expect(noValue.status == 2 && noValue.output.contains("--prefix needs a directory"), "\(noValue.output)")

        // A backbeat that scripts/install did not put there is neither overwritten nor, later, removed.
        let root = NSTemporaryDirectory() + "backbeat-foreign-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        try "#!/bin/sh\necho mine\n".write(toFile: root + "/bin/backbeat", atomically: true, encoding: .utf8)
        let refused = try shell("'\(script)' --prefix '\(root)' --binary '\(backbeatExecutable())'", in: NSTemporaryDirectory())
        #expect(refused.status == 2 && refused.output.contains("\(root)/bin/backbeat exists"), "\(refused.output)")
        #expect(try String(contentsOfFile: root + "/bin/backbeat", encoding: .utf8) == "#!/bin/sh\necho mine\n")
        #expect((FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted() == ["bin", "bin/backbeat"])
    }

    /// A prefix that did not exist is created, and removed again by --uninstall.
    @Test func createsAndRemovesAMissingPrefix() throws {
        let root = NSTemporaryDirectory() + "backbeat-newprefix-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let script = InstalledPrefix.repository + "/scripts/install"
        let made = try shell("'\(script)' --prefix new/prefix --binary '\(backbeatExecutable())'", in: root)
        #expect(made.status == 0, "\(made.output)")
        #expect(FileManager.default.isExecutableFile(atPath: root + "/new/prefix/bin/backbeat"))
        let removed = try shell("'\(script)' --prefix new/prefix --uninstall", in: root)
        #expect(removed.status == 0, "\(removed.output)")
        #expect((FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []) == ["new"])
    }
}

extension JACK {
    /// The installed workstation, started from another directory through PATH in a real terminal on a private
    /// server: it finds its theme and a bundled scenario by name in PREFIX/share/backbeat.
    @Suite struct InstalledWorkstationTests {
        @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
        func findsThemesAndScenariosFromShare() throws {
            let install = try InstalledPrefix()
            defer { install.remove() }
            let server = uniqueName("bbinst")
            let term = try TmuxSession(width: 160, height: 48)
            try term.type("cd '\(install.elsewhere)' && export PATH='\(install.prefix)/bin':$PATH && unset NO_COLOR && clear")
            try term.keys("Enter")

            // A theme that is nowhere: the message names the installed themes folder among those searched.
            try term.runCommand("backbeat --theme nosuch --server \(server)")
            let (failed, failure) = try term.waitForExit()
            #expect(failed == 2, "\(failure)")
            #expect(failure.replacingOccurrences(of: "\n", with: "").contains(install.prefix + "/share/backbeat/themes"), "\(failure)")

            try term.launch("clear; backbeat --theme light --scenario midikit-swiftui --server \(server) --no-autoconnect")
            try term.waitFor("MIDIKit")  // the scenario's title, in the lifecycle panel
            // The theme's colours reach the terminal (swift test sets NO_COLOR; the shell above unset it): foreground colour escapes (30-38, 90-97) in the capture.
            let coloured = try term.tmux(["capture-pane", "-e", "-p", "-t", "main"])
            let foreground = try Regex(#"\x1B\[(?:[0-9]+;)*(?:3[0-8]|9[0-7])[;m]"#)
            #expect(coloured.contains(foreground), "no colour in the capture:\n\(coloured.prefix(1500))")
            let (status, screen) = try term.quit()
            #expect(status == 0, "\(screen)")
        }
    }
}
