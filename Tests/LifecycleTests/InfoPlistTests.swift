// `lifecycle check` on real Info.plists (XML and binary): every declared mode gets its row, only contract
// codes are raised, wrong types are errors, and nothing depends on dictionary order.
import Foundation
import Testing
@testable import Lifecycle

func loadPlist(_ name: String) throws -> InfoPlistReport {
    try InfoPlistReport.load(path: plistFolder.appendingPathComponent(name).path)
}

@Suite(.needs(plistsPresent, "needs Tests/Fixtures/plists (kept in the repository)"))
struct InfoPlistTests {
    @Test("every fixture plist: a row per declared mode, only check codes, starter scenarios parse without expectations",
          arguments: plistFiles())
    func everyPlist(name: String) throws {
        let report = try loadPlist(name)
        let text = report.render(file: name)
        #expect(text.contains("midi-in"))
        for mode in report.declaredModes { #expect(text.contains("  \(mode)"), "row for \(mode)") }
        #expect(report.modes.count == report.declaredModes.count)
        let checkCodes: Set<WarningCode> = [.unknownBackgroundMode, .deprecatedMode, .missingTaskIdentifiers, .missingUsageDescription]
        #expect(report.warnings.allSatisfy { checkCodes.contains($0.code) }, "a plist declares no streams or handlers")
        #expect(report.warnings.map(\.code) == report.warnings.map(\.code).sorted())
        #expect(!text.contains("voip:") && !text.contains("location:"), "no code outside the contract")
        let object = try JSONSerialization.jsonObject(with: Data(report.json(file: name).utf8)) as? [String: Any]
        #expect((object?["background_modes"] as? [Any])?.count == report.declaredModes.count)
        for style in LifecycleStyle.allCases {
            let starter = report.starterScenario(title: name, style: style)
            #expect(!starter.contains("[[expect]]"), "no expectation computed by the simulator on itself")
            let scenario = try Scenario.parse(starter, file: "starter.toml")
            #expect(scenario.configuration.style == style)
            #expect(scenario.run().passed)
        }
    }

    @Test("binary and XML give the same report", arguments: [
        ("AudioKitSynthOne-Info.plist", "AudioKitSynthOne-Info.binary.plist"),
        ("flutter_callkit_incoming-Info.plist", "flutter_callkit_incoming-Info.binary.plist"),
        ("CarPlay-two-scenes-Info.plist", "CarPlay-two-scenes-Info.binary.plist"),
    ])
    func binaryAndXMLAgree(xml: String, binary: String) throws {
        let a = try loadPlist(xml), b = try loadPlist(binary)
        #expect(a == b)
        #expect(a.json(file: "Info.plist") == b.json(file: "Info.plist"))
    }

    @Test func audioKitDeclaresAudioOnly() throws {
        let report = try loadPlist("AudioKitSynthOne-Info.plist")
        #expect(report.declaredModes == ["audio"])
        #expect(report.styleCandidates == [.appDelegate, .swiftui])
        #expect(report.warnings.isEmpty)
    }

    @Test func voipAppRowsInFileOrderAndMissingTaskIdentifiers() throws {
        let report = try loadPlist("flutter_callkit_incoming-Info.plist")
        #expect(report.declaredModes == ["processing", "remote-notification", "voip"])
        #expect(report.modes.allSatisfy { $0.known != nil })
        #expect(report.modes.first { $0.mode == "remote-notification" }?.rule.contains("silent-push") == true)
        #expect(report.warnings.map(\.code) == [.missingTaskIdentifiers])
        #expect(report.keepsAlive.first { $0.kind == .voip }?.condition.contains("CallKit") == true)
    }

    @Test func fetchAppWithTaskIdentifiersHasNoWarning() throws {
        let report = try loadPlist("flutter_background_fetch-Info.plist")
        #expect(report.knownModes == [.fetch, .processing])
        #expect(report.hasTaskIdentifiers)
        #expect(report.warnings.isEmpty)
    }

    @Test func locationAppWithPurposeStrings() throws {
        let report = try loadPlist("flutter_background_geolocation-Info.plist")
        #expect(report.knownModes == [.audio, .fetch, .location, .processing])
        #expect(report.keepsAlive.first { $0.kind == .location }?.keepsAlive == true)
        #expect(report.warnings.isEmpty)
    }

    @Test func bluetoothWithoutPurposeString() throws {
        // MIDIKit's BluetoothMIDI example declares both Bluetooth modes and no NSBluetoothAlwaysUsageDescription.
        let report = try loadPlist("MIDIKit-BluetoothMIDI-Info.plist")
        #expect(report.knownModes == [.audio, .bluetoothCentral, .bluetoothPeripheral])
        #expect(report.keepsAlive.first { $0.kind == .bluetooth }?.condition.contains("10 s") == true)
        #expect(report.warnings.map(\.code) == [.missingUsageDescription])
        #expect(report.warnings[0].reason.contains("NSBluetoothAlwaysUsageDescription"))
    }

    @Test func sceneManifestIsStyleEvidenceNotAWarning() throws {
        let virtual = try loadPlist("MIDIKit-VirtualOutput-Info.plist")
        #expect(virtual.hasSceneManifest)
        #expect(virtual.styleCandidates == [.scenes, .swiftui])
        #expect(!virtual.warnings.contains { $0.code == .notCalledWithScenes }, "the plist binds no handler")
        #expect(virtual.styleEvidence.contains("applicationDidEnterBackground"))
    }

    @Test func twoSceneConfigurationsSortedByRole() throws {
        let report = try loadPlist("CarPlay-two-scenes-Info.plist")
        #expect(report.scenes.map(\.role) == ["CPTemplateApplicationSceneSessionRoleApplication", "UIWindowSceneSessionRoleApplication"])
        #expect(report.scenes.map(\.name) == ["CarPlay", "Phone"])
        #expect(report.styleEvidence.contains("CarPlaySceneDelegate, $(PRODUCT_MODULE_NAME).PhoneSceneDelegate"))
    }

    @Test func muxPlistHasNoModeAndNoMissingModeWarning() throws {
        let mux = try loadPlist("Mux-ios-live-streaming-Info.plist")
        #expect(mux.declaredModes.isEmpty)
        #expect(mux.keepsAlive.first { $0.kind == .audioOutput }?.keepsAlive == false)
        #expect(mux.warnings.isEmpty, "missing-background-mode needs a stream; a plist declares none")
    }

    @Test("wrong types are errors naming the key, the type found and the type expected", arguments: [
        ("wrong-type-modes-string-Info.plist", "UIBackgroundModes is a string; expected an array of strings"),
        ("wrong-type-mode-integer-Info.plist", "UIBackgroundModes item 1 is an integer; expected an array of strings"),
        ("wrong-type-manifest-array-Info.plist", "UIApplicationSceneManifest is an array; expected a dictionary"),
        ("wrong-type-task-ids-string-Info.binary.plist", "BGTaskSchedulerPermittedIdentifiers is a string; expected an array of strings"),
    ])
    func wrongTypes(name: String, message: String) throws {
        let path = plistFolder.appendingPathComponent("wrong-types/\(name)").path
        #expect(throws: InfoPlistReport.Failure(description: "\(path): \(message)")) { try InfoPlistReport.load(path: path) }
    }
}

@Test func everyModeAppleDefinesHasARow() throws {
    let report = try InfoPlistReport(["UIBackgroundModes": BackgroundMode.allCases.map(\.rawValue) + ["telepathy"]])
    #expect(report.modes.count == BackgroundMode.allCases.count + 1)
    for row in report.modes {
        #expect(!row.rule.isEmpty)
        if let known = row.known, !known.isModelled { #expect(row.rule.hasPrefix("not modelled: "), "\(row.mode)") }
    }
    #expect(report.modes.first { $0.mode == "network-authentication" }?.known == .networkAuthentication)
    #expect(report.modes.first { $0.mode == "nearby-interaction" }?.modelled == false)
    #expect(report.unknownModes == ["telepathy"])
    #expect(report.warnings.map(\.code) == [.deprecatedMode, .missingTaskIdentifiers, .missingUsageDescription, .unknownBackgroundMode])
    #expect(report.warnings.last?.reason.contains("\"telepathy\"") == true)
}

@Test func purposeStringsSilenceMissingUsageDescription() throws {
    let without = try InfoPlistReport(["UIBackgroundModes": ["location"]])
    #expect(without.warnings.map(\.code) == [.missingUsageDescription])
    let with = try InfoPlistReport(["UIBackgroundModes": ["location"], "NSLocationWhenInUseUsageDescription": "maps"])
    #expect(with.warnings.isEmpty)
    let ble = try InfoPlistReport(["UIBackgroundModes": ["bluetooth-peripheral"], "NSBluetoothAlwaysUsageDescription": "pedal"])
    #expect(ble.warnings.isEmpty)
}

@Test func processingWithIdentifiersHasNoWarning() throws {
    #expect(try InfoPlistReport(["UIBackgroundModes": ["processing"], "BGTaskSchedulerPermittedIdentifiers": []]).warnings.map(\.code)
        == [.missingTaskIdentifiers], "an empty list permits no task")
    #expect(try InfoPlistReport(["UIBackgroundModes": ["processing"], "BGTaskSchedulerPermittedIdentifiers": ["a.b"]]).warnings.isEmpty)
}

@Test("the same plist in any dictionary order gives the same bytes")
func shuffledDictionariesGiveTheSameReport() throws {
    var generator = SystemRandomNumberGenerator()
    let roles = ["UIWindowSceneSessionRoleApplication", "CPTemplateApplicationSceneSessionRoleApplication",
                 "UIWindowSceneSessionRoleExternalDisplayNonInteractive", "CPTemplateApplicationDashboardSceneSessionRoleApplication"]
    let configurations: [String: [[String: Any]]] = Dictionary(uniqueKeysWithValues: roles.enumerated().map { i, role in
        (role, [["UISceneConfigurationName": "B\(i)", "UISceneDelegateClassName": "Z\(i)Delegate"],
                ["UISceneConfigurationName": "A\(i)", "UISceneDelegateClassName": "Y\(i)Delegate"]])
    })
    func shuffled() -> [String: Any] {
        var dict: [String: Any] = [:]
        dict.reserveCapacity(Int.random(in: 0...64, using: &generator))
        var inner: [String: Any] = [:]
        inner.reserveCapacity(Int.random(in: 0...64, using: &generator))
        for role in roles.shuffled(using: &generator) {
            inner[role] = configurations[role]!.shuffled(using: &generator).map { c -> [String: Any] in
                var d: [String: Any] = [:]
                d.reserveCapacity(Int.random(in: 0...16, using: &generator))
                for k in c.keys.shuffled(using: &generator) { d[k] = c[k] }
                return d
            }
        }
        let entries: [(String, Any)] = [("UIBackgroundModes", ["voip", "audio", "bluetooth-central", "telepathy", "processing"]),
                                        ("UIApplicationSceneManifest", ["UIApplicationSupportsMultipleScenes": true, "UISceneConfigurations": inner])]
        for (k, v) in entries.shuffled(using: &generator) { dict[k] = v }
        return dict
    }
    let first = try InfoPlistReport(shuffled())
    #expect(first.scenes.map(\.name) == ["A3", "B3", "A1", "B1", "A0", "B0", "A2", "B2"])
    for _ in 0..<50 {
        let again = try InfoPlistReport(shuffled())
        #expect(again.json(file: "f") == first.json(file: "f"))
        #expect(again.render(file: "f") == first.render(file: "f"))
    }
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
