import Foundation

/// Where the files Backbeat ships (themes, scenarios) are found from the running executable, wherever it
/// was started from: a `NAME/` folder next to or above it (a checkout: `.build/release/backbeat` finds the
/// repository's `themes/`), or `share/backbeat/NAME/` above it (an install: `PREFIX/bin/backbeat` finds
/// `PREFIX/share/backbeat/NAME`, see `scripts/install`).
public enum InstalledFiles {
    /// The running executable's real path. `/proc/self/exe` is the file the kernel started, links
    /// resolved; `argv[0]` is only `backbeat` when the program was found on `PATH`, which would send the
    /// search to the current directory.
    public static var executablePath: String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().path
    }

    /// The folders searched for shipped files of one kind ("themes", "scenarios"), nearest first: for each
    /// of the executable's folder and four folders above it, `NAME/` then `share/backbeat/NAME/`. Each
    /// folder once, written plainly (near the root the walk stays at "/").
    public static func directories(_ name: String) -> [String] {
        var dirs: [String] = []
        var dir = URL(fileURLWithPath: executablePath).deletingLastPathComponent()
        for _ in 0..<5 {
            dirs.append(dir.path + "/" + name)
            dirs.append(dir.path + "/share/backbeat/" + name)
            dir = dir.deletingLastPathComponent()
        }
        var seen = Set<String>()
        return dirs.map { URL(fileURLWithPath: $0).standardizedFileURL.path }.filter { seen.insert($0).inserted }
    }
}
