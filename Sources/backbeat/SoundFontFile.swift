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

    static func load(_ path: String) throws -> SoundFont {
        let expanded = path.hasPrefix("~/") ? NSHomeDirectory() + path.dropFirst(1) : path
        let font = try SoundFont.load(path: expanded)
        OutputFile.protect(expanded)  // no render or recording may write over the font
        return font
    }
}
