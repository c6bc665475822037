import Engine
import Foundation
import Lifecycle
import Settings

/// Where a scenario argument (`lifecycle run NAME|FILE`, `--scenario NAME|FILE`) is read from: a file that
/// exists, or a path (it has a `/` or ends in `.toml`), is read as is; a bare name such as
/// `midikit-swiftui` is a scenario Backbeat ships, looked up in the `scenarios/` or
/// `share/backbeat/scenarios/` folders next to or above the executable (an installed `PREFIX/bin/backbeat`
/// finds `PREFIX/share/backbeat/scenarios`, from any directory).
enum ScenarioPath {
    static func resolve(_ argument: String) throws(ScenarioPathError) -> String {
        if FileManager.default.fileExists(atPath: argument) || argument.contains("/") || argument.hasSuffix(".toml") || argument.isEmpty {
            return argument
        }
        let directories = InstalledFiles.directories("scenarios")
        for directory in directories {
            let path = directory + "/" + argument + ".toml"
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        throw ScenarioPathError(message: "\(argument): no such file, and no bundled scenario of that name; " + bundledNames(in: directories, near: argument))
    }

    /// The bundled scenarios, as `--theme` lists the themes: first those whose name contains what was typed
    /// ("did you mean"), then every name and the folder they are in; with no such folder, the folders looked in.
    static func bundledNames(in directories: [String], near argument: String) -> String {
        let found = directories.filter { !Completions.names(in: [$0]).isEmpty }
        guard !found.isEmpty else { return "no bundled scenarios were found (looked in \(directories.joined(separator: ", ")))" }
        let names = Completions.names(in: found)
        let near = names.filter { $0.contains(argument) }
        let guess = near.isEmpty ? "" : "did you mean \(near.joined(separator: ", "))? "
        return guess + "bundled: \(names.joined(separator: ", ")) (in \(found.joined(separator: ", ")))"
    }

    /// The scenario at `path` (already resolved), its file protected from every output of this process
    /// (`--svg`, `--record-*`).
    static func load(path: String) throws(ScenarioError) -> Scenario {
        let scenario = try Scenario.load(path: path)
        OutputFile.protect(path)
        return scenario
    }
}

struct ScenarioPathError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
