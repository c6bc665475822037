import Testing

@testable import Engine

/// `Engine.connect`'s decision, made under the state lock without JACK: which way a connection goes, and
/// that no client means no JACK call at all.
@Suite struct PortConnectionTests {
    /// The session stands in as its client's name.
    func decide(_ port: String, _ other: String, session: String?) -> PortConnection<String> {
        PortConnection.decide(port: port, with: other, session: session, clientName: { $0 })
    }

    @Test func midiInIsTheDestinationAndEveryOtherPortTheSource() {
        guard case let .connect(session, source, destination) = decide("midi_in", "a2j:Keyboard", session: "backbeat-2") else {
            Issue.record("no connect action"); return
        }
        #expect(session == "backbeat-2" && source == "a2j:Keyboard" && destination == "backbeat-2:midi_in")
        for port in ["out_L", "out_R", "midi_out"] {
            guard case let .connect(_, source, destination) = decide(port, "system:playback_1", session: "backbeat") else {
                Issue.record("no connect action for \(port)"); continue
            }
            #expect(source == "backbeat:\(port)" && destination == "system:playback_1")
        }
    }

    @Test func withoutAClientItRefusesNamingThePort() {
        guard case let .refuse(error) = decide("out_L", "system:playback_1", session: nil) else {
            Issue.record("a connect action without a client"); return
        }
        #expect(error == .noSuchPort("out_L"))
        #expect(error.description == "no JACK port named 'out_L' (jack_lsp lists them)")
    }
}
