import Foundation
@testable import Settings
import Testing
@testable import TUI

/// `extends = "NAME"`: a theme that sets only what it changes.
@Suite struct ThemeInheritanceTests {
    /// A folder of theme files, found by name through `$BACKBEAT_THEMES`.
    final class Folder {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-themes-\(getpid())-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var environment: [String: String] { ["BACKBEAT_THEMES": path, "HOME": "/nonexistent"] }
        func write(_ name: String, _ text: String) throws {
            try text.write(toFile: path + "/" + name + ".toml", atomically: true, encoding: .utf8)
        }
        func resolve(_ name: String) throws(ConfigFileError) -> Theme { try Theme.resolve(name, environment: environment) }
    }

    @Test func partialThemeOverridesOneElement() throws {
        let folder = try Folder()
        try folder.write("amber", "extends = \"dark\"\n[styles]\ntitle = { fg = \"#ffaf00\" }\n")
        let theme = try folder.resolve("amber")
        #expect(theme.name == "amber")
        let dark = Theme.builtInDark
        // The field it names changes; the element's other fields (bold) and every other element are dark's.
        #expect(theme[.title] == Style(fg: .rgb(0xff, 0xaf, 0), bg: dark[.title].bg, bold: true))
        for role in Role.allCases where role != .title { #expect(theme[role] == dark[role], "\(role)") }
    }

    @Test func bareColourKeepsTheParentsBackground() throws {
        let folder = try Folder()
        try folder.write("mine", "name = \"My theme\"\nextends = \"default\"\n[styles]\nheader = \"red\"\nclip = { bold = false }\n")
        let theme = try folder.resolve("mine")
        #expect(theme.name == "My theme")
        #expect(theme[.header] == Style(fg: .indexed(1), bg: Theme.builtInDark[.header].bg))
        #expect(theme[.clip].bold == false && theme[.clip].bg == Theme.builtInDark[.clip].bg)
    }

    @Test func chainOfTwoAndAPathParent() throws {
        let folder = try Folder()
        try folder.write("base", "extends = \"dark\"\n[styles]\nmeter_low = \"#00ff00\"\n")
        try folder.write("top", "extends = \"base\"\n[styles]\nmeter_high = { fg = \"#ff0000\", underline = true }\n")
        try folder.write("bypath", "extends = \"top.toml\"\n")  // relative to this file's folder; no [styles] at all
        for name in ["top", "bypath"] {
            let theme = try folder.resolve(name)
            #expect(theme[.meterLow] == Style(fg: .rgb(0, 0xff, 0)))
            #expect(theme[.meterHigh] == Style(fg: .rgb(0xff, 0, 0), underline: true))
            #expect(theme[.normal] == Theme.builtInDark[.normal])
            #expect(theme.name == name)
        }
        // A shipped theme as the parent, by name.
        let light = try Theme.load(path: repositoryRoot.appendingPathComponent("themes/light.toml").path)
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("themes/light.toml").path, toPath: folder.path + "/light.toml")
        try folder.write("lighter", "extends = \"light\"\n[styles]\ndim = \"#b0b0b0\"\n")
        let lighter = try folder.resolve("lighter")
        #expect(lighter[.normal] == light[.normal])
        #expect(lighter[.dim] == Style(fg: .rgb(0xb0, 0xb0, 0xb0), bg: light[.dim].bg))
    }

    @Test func cycleIsAnErrorNamingTheChain() throws {
        let folder = try Folder()
        try folder.write("a", "extends = \"b\"\n")
        try folder.write("b", "# b\nextends = \"c\"\n")
        try folder.write("c", "\n\nextends = \"a\"\n")
        do { _ = try folder.resolve("a"); Issue.record("accepted a cycle") } catch {
            #expect(error.file.hasSuffix("/c.toml"))
            #expect(error.line == 3)
            #expect(error.message.contains("cycle: a -> b -> c -> a"), "\(error)")
        }
        try folder.write("self", "extends = \"self\"\n")
        do { _ = try folder.resolve("self"); Issue.record("accepted a theme extending itself") } catch {
            #expect(error.line == 1)
            #expect(error.message.contains("self -> self") && error.message.contains("cannot extend itself"), "\(error)")
        }
    }

    @Test func unknownParentNamesFileLineAndTheNamesAvailable() throws {
        let folder = try Folder()
        try folder.write("mine", "name = \"mine\"\nextends = \"drak\"\n[styles]\ntitle = \"red\"\n")
        do { _ = try folder.resolve("mine"); Issue.record("accepted an unknown parent") } catch {
            #expect(error.description.hasPrefix(folder.path + "/mine.toml:2: extends: no theme named \"drak\"; available: "), "\(error)")
            #expect(error.message.contains("dark") && error.message.contains("mine"))
        }
        try folder.write("lost", "extends = \"./nowhere.toml\"\n")
        do { _ = try folder.resolve("lost"); Issue.record("accepted a missing parent file") } catch {
            #expect(error.line == 1 && error.message.contains("no theme file at"), "\(error)")
        }
        // An error inside the parent is reported at the parent's file and line.
        try folder.write("broken", "extends = \"dark\"\n[styles]\ntitle = \"chartreuse\"\n")
        try folder.write("child", "extends = \"broken\"\n")
        do { _ = try folder.resolve("child"); Issue.record("accepted a broken parent") } catch {
            #expect(error.file.hasSuffix("/broken.toml") && error.line == 3, "\(error)")
        }
        try folder.write("typo", "extends = 3\n")
        do { _ = try folder.resolve("typo"); Issue.record("accepted a number") } catch {
            #expect(error.line == 1 && error.message.contains("\"extends\" must be the name of a theme"), "\(error)")
        }
    }

    @Test func withoutExtendsEveryElementIsStillNeeded() throws {
        let folder = try Folder()
        try folder.write("half", "[styles]\ntitle = \"red\"\n")
        do { _ = try folder.resolve("half"); Issue.record("accepted a partial theme without extends") } catch {
            #expect(error.line == 1)
            #expect(error.message.contains("does not name element \"normal\"") && error.message.contains("extends = \"dark\""), "\(error)")
        }
        try folder.write("empty", "name = \"empty\"\n")
        do { _ = try folder.resolve("empty"); Issue.record("accepted a theme with no styles") } catch {
            #expect(error.message.contains("missing the [styles] table"), "\(error)")
        }
    }

    @Test func shippedExampleExtendsDark() throws {
        let theme = try Theme.load(path: repositoryRoot.appendingPathComponent("themes/amber.toml").path,
                                   environment: ["BACKBEAT_THEMES": repositoryRoot.appendingPathComponent("themes").path, "HOME": "/nonexistent"])
        #expect(theme.name == "amber")
        #expect(theme[.normal] == Theme.builtInDark[.normal])
        #expect(theme != Theme.builtInDark)
    }
}
