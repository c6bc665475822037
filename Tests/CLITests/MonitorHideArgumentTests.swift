import Foundation
import Testing

/// `monitor --hide` names: a wrong one is refused while the arguments are read, naming every valid one; the
/// TUI monitor's type filters (docs/keys.md) are valid names. The messages hidden are checked with a real
/// sender in EngineSystemTests (MonitorHideTests).
@Suite struct MonitorHideArgumentTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func anUnknownKindIsAnErrorListingTheValidOnes() throws {
        let result = try backbeat(["monitor", "--hide", "clock,clocks"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("'clocks' is not a message kind"), "\(result.stderr)")
        for name in ["note-on", "active-sensing", "clock", "undefined", "notes", "bend/pressure"] {
            #expect(result.stderr.contains(name), "\(name) missing from: \(result.stderr)")
        }
        let empty = try backbeat(["monitor", "--hide", "clock,"])
        #expect(empty.status == 64 && empty.stderr.contains("an empty name is not a message kind"), "\(empty.stderr)")
    }

    /// Parsing comes before validation: an accepted --hide leaves the (deliberately) bad --voices to fail.
    @Test func theTUIMonitorsTypeFiltersAreNames() throws {
        let keys = try String(contentsOfFile: Self.repository + "/docs/keys.md", encoding: .utf8)
        let line = try #require(keys.split(separator: "\n").first { $0.contains("type filter:") })
        let list = line.components(separatedBy: "type filter:")[1].components(separatedBy: "|")[0]
        let filters = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 != "all" }
        #expect(filters.count >= 6, "\(line)")
        for filter in filters + ["clock", "active-sensing", "NOTE-ON", "sysex,system"] {
            let result = try backbeat(["monitor", "--hide", filter, "--voices", "0"])
            #expect(result.status == 64 && result.stderr.contains("--voices"), "--hide \(filter): \(result.stderr)")
        }
    }
}
