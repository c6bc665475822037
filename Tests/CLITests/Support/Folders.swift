// Folders the CLI tests read; the binary lookup and process helpers are in Tests/TestSupport.
@_exported import TestSupport
import Foundation

let scenariosFolder = packageRoot.appendingPathComponent("scenarios")
/// Real Info.plists from public iOS projects, kept in the repository (Tests/Fixtures/plists/README.md).
let plistFolder = packageRoot.appendingPathComponent("Tests/Fixtures/plists")
let plistsPresent = FileManager.default.fileExists(atPath: plistFolder.path)

func plistFiles() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: plistFolder.path)) ?? []).filter { $0.hasSuffix(".plist") }.sorted()
}
