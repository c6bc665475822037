import MIDI
import Reports
import Testing

/// `backbeat smf`'s listing, line for line: the header, the track line and each kind of event.
@Suite struct SMFListingTests {
    /// A format 0 file at 480 ticks per quarter note: a track name, 120 BPM, a note for a quarter note, an
    /// F7 escape (a clock tick) and the End of Track.
    static let lead: [UInt8] = {
        let track: [UInt8] = [0x00, 0xFF, 0x03, 0x04] + Array("Lead".utf8)
            + [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x00, 0x90, 0x3C, 0x64, 0x83, 0x60, 0x80, 0x3C, 0x00,
               0x00, 0xF7, 0x01, 0xF8, 0x00, 0xFF, 0x2F, 0x00]
        return Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + [0, 0, 0, UInt8(track.count)] + track
    }()

    /// An SMPTE division and a meta event of a type without a name, whose data is not printable.
    static let smpte: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0xE7, 0x28] + Array("MTrk".utf8)
        + [0, 0, 0, 10, 0x00, 0xFF, 0x0A, 0x02, 0x01, 0x02, 0x00, 0xFF, 0x2F, 0x00]

    @Test func listsEveryKindOfEventAsText() throws {
        let lines = SMFListing.lines(try StandardMIDIFile(bytes: Self.lead), json: false, middleC: .c4)
        #expect(lines == [
            "format 0, 1 track, 480 ticks per quarter note",
            "track 1: 6 events, Lead",
            "         0      0.000 s  Track Name              Lead",
            "         0      0.000 s  Set Tempo               120.000 BPM (500000 us per quarter note)",
            "         0      0.000 s  Note On           ch 1  C4 (60) velocity 100                    90 3C 64",
            "       480      0.500 s  Note Off          ch 1  C4 (60) velocity 0                      80 3C 00",
            "       480      0.500 s  F7 escape               1 byte                                  F8",
            "       480      0.500 s  End of Track            ",
        ])
    }

    @Test func listsEveryKindOfEventAsJSON() throws {
        let lines = SMFListing.lines(try StandardMIDIFile(bytes: Self.lead), json: true, middleC: .c4)
        #expect(lines == [
            #"{"type":"header","format":0,"tracks":1,"ticks_per_quarter":480}"#,
            #"{"type":"track","track":1,"events":6,"name":"Lead"}"#,
            #"{"track":1,"tick":0,"time":0.0,"type":"meta","meta":"Track Name","text":"Lead"}"#,
            #"{"track":1,"tick":0,"time":0.0,"type":"meta","meta":"Set Tempo","bpm":120.0,"microseconds_per_quarter":500000}"#,
            #"{"track":1,"tick":0,"time":0.0,"type":"note-on","channel":1,"note":60,"velocity":100}"#,
            #"{"track":1,"tick":480,"time":0.5,"type":"note-off","channel":1,"note":60,"velocity":0}"#,
            #"{"track":1,"tick":480,"time":0.5,"type":"escape","bytes":"F8"}"#,
            #"{"track":1,"tick":480,"time":0.5,"type":"meta","meta":"End of Track"}"#,
        ])
    }

    @Test func namesSMPTEDivisionsAndEscapesUnprintableText() throws {
        let smf = try StandardMIDIFile(bytes: Self.smpte)
        #expect(SMFListing.lines(smf, json: false, middleC: .c4) == [
            "format 0, 1 track, 25 fps, 40 ticks per frame",
            "track 1: 2 events",
            #"         0      0.000 s  Meta 0A                 \x01\x02"#,
            "         0      0.000 s  End of Track            ",
        ])
        #expect(SMFListing.lines(smf, json: true, middleC: .c4).prefix(3) == [
            #"{"type":"header","format":0,"tracks":1,"division":"25 fps, 40 ticks per frame"}"#,
            #"{"type":"track","track":1,"events":2}"#,
            #"{"track":1,"tick":0,"time":0.0,"type":"meta","meta":"Meta 0A","text":"\u0001\u0002"}"#,
        ])
    }

    @Test func namesMetaEventTypes() {
        #expect(SMFListing.metaName(0x03) == "Track Name")
        #expect(SMFListing.metaName(0x51) == "Set Tempo")
        #expect(SMFListing.metaName(0x7F) == "Sequencer Specific")
        #expect(SMFListing.metaName(0x4B) == "Meta 4B")
    }
}
