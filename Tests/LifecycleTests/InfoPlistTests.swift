// `lifecycle check` on real Info.plists (XML and binary).
import Foundation
import Testing
@testable import Lifecycle

@Suite(.enabled(if: plistsPresent, "Tests/Fixtures/plists not found: plist tests skipped"))
struct InfoPlistTests {
    @Test("every testdata plist reads and gives a starter scenario that passes", arguments: plistFiles())
    func everyPlist(name: String) throws {
        let report = try InfoPlistReport.load(path: plistFolder.appendingPathComponent(name).path)
        let text = report.render(file: name)
        #expect(text.contains("midi-in"))
        let scenario = try Scenario.parse(report.starterScenario(title: name), file: "starter.toml")
        #expect(scenario.run().passed)
    }

    @Test func binaryAndXMLAgree() throws {
        let xml = try InfoPlistReport.load(path: plistFolder.appendingPathComponent("AudioKitSynthOne-Info.plist").path)
        let binary = try InfoPlistReport.load(path: plistFolder.appendingPathComponent("AudioKitSynthOne-Info.binary.plist").path)
        #expect(xml == binary)
        #expect(xml.declaredModes == ["audio"])
        #expect(xml.style == .appDelegate)
    }

    @Test func midiKitPlists() throws {
        let ble = try InfoPlistReport.load(path: plistFolder.appendingPathComponent("MIDIKit-BluetoothMIDI-Info.plist").path)
        #expect(ble.knownModes == [.audio, .bluetoothCentral, .bluetoothPeripheral])
        #expect(ble.streams.first { $0.kind == .bluetooth }?.condition.contains("10 s") == true)
        let virtual = try InfoPlistReport.load(path: plistFolder.appendingPathComponent("MIDIKit-VirtualOutput-Info.plist").path)
        #expect(virtual.hasSceneManifest)
        #expect(virtual.warnings.contains { $0.hasPrefix("not-called-with-scenes") })
    }

    @Test func muxPlistHasNoAudioMode() throws {
        let mux = try InfoPlistReport.load(path: plistFolder.appendingPathComponent("Mux-ios-live-streaming-Info.plist").path)
        #expect(mux.declaredModes.isEmpty)
        #expect(mux.streams.first { $0.kind == .audioOutput }?.keepsAlive == false)
        #expect(mux.warnings.contains { $0.hasPrefix("missing-background-mode") })
    }
}

@Test func unknownVoipAndLocationModesWarn() {
    let report = InfoPlistReport(["UIBackgroundModes": ["audio", "voip", "location", "telepathy"]])
    #expect(report.unknownModes == ["telepathy"])
    #expect(report.warnings.contains { $0.contains("unknown background mode \"telepathy\"") })
    #expect(report.warnings.contains { $0.hasPrefix("voip") })
    #expect(report.warnings.contains { $0.hasPrefix("location") })
    #expect(report.streams.first { $0.kind == .location }?.keepsAlive == true)
}

@Test func notAPlist() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-plist-\(getpid()).txt").path
    try "hello, I am not a plist".write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
        _ = try InfoPlistReport.load(path: path)
        Issue.record("accepted a non-plist")
    } catch {
        #expect(error.description.contains("not a property list"))
    }
}
