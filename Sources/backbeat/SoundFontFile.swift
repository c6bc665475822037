import ArgumentParser
import DSP
import Engine
import Foundation

/// Loading the font `--soundfont` or the config file names, before the engine or the renderer starts.
enum SoundFontFile {
    /// The font at `path` (a leading `~/` is the home directory), or Backbeat ends with the loader's message
    /// naming the file, the chunk and the offset (exit 2): the engine never starts with a broken font.
    /// `sampleCacheMiB` bounds a SoundFont 3 font's decoded samples (nil: the default).
    static func loadOrExit(_ path: String, command: String? = nil, sampleCacheMiB: Int? = nil) -> SoundFont {
        do {
            let font = try load(path)
            if let sampleCacheMiB { font.sampleStore?.setLimit(bytes: sampleCacheMiB << 20) }
            return font
        } catch {
            Console.message("\(error)", prefix: command.map { "backbeat \($0): " } ?? "backbeat: ")
            exit(2)
        }
    }

    /// The fonts at `paths` stacked, the later on top (`SoundFont.stacked`): one font for one path. The first
    /// that does not load ends Backbeat as `loadOrExit(_:)` does. `sampleCacheMiB` bounds each SoundFont 3
    /// font's own cache.
    static func loadOrExit(_ paths: [String], command: String? = nil, sampleCacheMiB: Int? = nil) -> SoundFont {
        // The command line is checked by `validate`; a config or preset file's list is checked here.
        if paths.count > SoundFont.maxLayers || paths.contains(where: \.isEmpty) {
            Console.message("a SoundFont stack holds 1...\(SoundFont.maxLayers) file names; got \(paths.count)\(paths.contains(where: \.isEmpty) ? ", one of them empty" : "")",
                            prefix: command.map { "backbeat \($0): " } ?? "backbeat: ")
            exit(2)
        }
        return SoundFont.stacked(paths.map { loadOrExit($0, command: command, sampleCacheMiB: sampleCacheMiB) })
    }

    /// `--soundfont` given once or more: each a file name, at most `SoundFont.maxLayers` of them.
    static func validate(_ paths: [String]) throws {
        if paths.contains(where: \.isEmpty) { throw ValidationError("--soundfont needs a file name") }
        if paths.count > SoundFont.maxLayers {
            throw ValidationError("--soundfont is given \(paths.count) times; a stack holds at most \(SoundFont.maxLayers) fonts")
        }
    }

    static func load(_ path: String) throws -> SoundFont {
        let expanded = path.hasPrefix("~/") ? NSHomeDirectory() + path.dropFirst(1) : path
        let font = try SoundFont.load(path: expanded)
        OutputFile.protect(expanded)  // no render or recording may write over the font
        return font
    }
}
