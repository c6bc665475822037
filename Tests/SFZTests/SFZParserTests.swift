import Testing
@testable import SFZ

/// Parses `text` as /inst/test.sfz; `files` are the texts an `#include` may read (by resolved path).
func parse(_ text: String, files: [String: String] = [:]) -> SFZInstrument {
    SFZInstrument.parse(Array(text.utf8), path: "/inst/test.sfz") { path in
        guard let text = files[path] else { return .failure(SFZLoadError(path: path, reason: "no such file")) }
        return .success(Array(text.utf8))
    }
}

@Suite struct SFZParserTests {
    @Test func regionsInheritGlobalMasterAndGroupInOrder() {
        let sfz = parse("""
            <global> volume=-3 pan=10 tune=5
            <master> volume=-6 transpose=2
            <group> volume=-9 lokey=40
            <region> sample=a.wav
            <region> sample=b.wav volume=-12 lokey=41
            <group> hikey=50
            <region> sample=c.wav
            <master>
            <region> sample=d.wav
            <global>
            <region> sample=e.wav
            """)
        #expect(sfz.regions.count == 5)
        let r = sfz.regions
        #expect(r[0].volume == -9 && r[0].pan == 10 && r[0].tune == 5 && r[0].transpose == 2 && r[0].keys.low == 40)
        #expect(r[1].volume == -12 && r[1].keys.low == 41)
        // A new group drops the old group's opcodes but keeps the master's.
        #expect(r[2].volume == -6 && r[2].keys == SFZRange(0, 50) && r[2].transpose == 2)
        // A new master drops the group and the old master.
        #expect(r[3].volume == -3 && r[3].transpose == 0 && r[3].keys.high == 127 && r[3].pan == 10)
        // A new global drops everything.
        #expect(r[4].volume == 0 && r[4].pan == 0)
        #expect(r[4].location == SFZLocation(file: "/inst/test.sfz", line: 11))
        #expect(r[0].sample == .file("/inst/a.wav"))
        #expect(sfz.diagnostics.isEmpty)
    }

    @Test func controlSetsDefaultPathOffsetsAndCCs() {
        let sfz = parse("""
            <control> default_path=Samples\\Piano\\ note_offset=2 octave_offset=-1
            set_cc64=127 label_cc64=Sustain pedal label_cc1=Mod wheel label_key36=Kick
            set_hdcc92=0.5 set_hdcc93=0.25 set_hdcc94=1.5
            <region> sample=C4 soft.wav key=60 sw_last=c1
            """)
        #expect(sfz.defaultPath == "Samples/Piano/")
        // set_hdccN (0...1) to the nearest 7-bit value; one out of range is refused.
        #expect(sfz.initialControls == [64: 127, 92: 64, 93: 32])
        #expect(sfz.diagnostics.map(\.message).contains { $0.contains("set_hdcc94") })
        #expect(sfz.unknownOpcodes.isEmpty)
        #expect(sfz.controlLabels == [64: "Sustain pedal", 1: "Mod wheel"])
        #expect(sfz.keyLabels == [36: "Kick"])
        let region = sfz.regions[0]
        #expect(region.sample == .file("/inst/Samples/Piano/C4 soft.wav"))
        #expect(region.keys == SFZRange(50, 50) && region.pitchKeycenter == 50)
        #expect(region.switchLast == 14)
    }

    @Test func defineSubstitutesInNamesAndValues() {
        let sfz = parse("""
            #define $KEY 62
            #define $CC 7
            #define $KEYBOARD 48
            <region> sample=x.wav key=$KEY amplitude_oncc$CC=50 lokey=$KEYBOARD hikey=$UNDEFINED
            """)
        let region = sfz.regions[0]
        #expect(region.pitchKeycenter == 62 && region.keys.low == 48)
        #expect(region.amplitudeOnCC == [7: 50])
        #expect(sfz.defines["KEY"] == "62")
        #expect(sfz.diagnostics.contains { $0.message.contains("$UNDEFINED is not defined") && $0.location.line == 4 })
    }

    @Test func includeReadsRelativeToTheIncludingFile() {
        let sfz = parse("""
            <group> volume=-2
            #include "parts/keys.sfz" <region> sample=after.wav
            <region> sample=last.wav
            """, files: [
                "/inst/parts/keys.sfz": "<region> sample=one.wav key=60\n#include \"more/two.sfz\"\n",
                "/inst/parts/more/two.sfz": "\n<region> sample=two.wav key=61 bogus=1\n",
            ])
        #expect(sfz.regions.count == 4)
        #expect(sfz.regions.map(\.volume) == [-2, -2, -2, -2])
        #expect(sfz.regions[2].sample == .file("/inst/after.wav") && sfz.regions[2].location.line == 2)
        #expect(sfz.regions[1].location == SFZLocation(file: "/inst/parts/more/two.sfz", line: 2))
        // Samples are taken from the root file's folder, as sfizz does.
        #expect(sfz.regions[1].sample == .file("/inst/two.wav"))
        #expect(sfz.unknownOpcodes == [SFZNameCount(name: "bogus", count: 1)])
    }

    @Test func includeRecursionAndDepthAreRefused() {
        let loop = parse("#include \"a.sfz\"\n<region> sample=z.wav", files: [
            "/inst/a.sfz": "<region> sample=a.wav\n#include \"b.sfz\"",
            "/inst/b.sfz": "#include \"a.sfz\"\n#include \"../inst/test.sfz\"",
        ])
        #expect(loop.regions.count == 2)
        #expect(loop.diagnostics.count == 2)
        #expect(loop.diagnostics.allSatisfy { $0.message.contains("refused") && $0.location.file == "/inst/b.sfz" })
        var files: [String: String] = [:]
        for i in 0..<20 { files["/inst/d\(i).sfz"] = "<region> sample=\(i).wav\n#include \"d\(i + 1).sfz\"" }
        let deep = parse("#include \"d0.sfz\"", files: files)
        #expect(deep.regions.count == 16)
        #expect(deep.diagnostics.map(\.message) == ["#include \"d16.sfz\" is refused: includes nest at most 16 deep"])
        let missing = parse("#include \"nowhere.sfz\"")
        #expect(missing.diagnostics.first?.description == "/inst/test.sfz:1: #include \"nowhere.sfz\": '/inst/nowhere.sfz': no such file")
    }

    @Test func noteNames() throws {
        #expect(SFZValue.noteName("c4") == 60)
        #expect(SFZValue.noteName("C#4") == 61)
        #expect(SFZValue.noteName("db4") == 61)
        #expect(SFZValue.noteName("a0") == 21)
        #expect(SFZValue.noteName("c-1") == 0)
        #expect(SFZValue.noteName("g9") == 127)
        #expect(SFZValue.noteName("h4") == nil)
        #expect(SFZValue.noteName("c99999999999") == nil)
        let sfz = parse("<region> sample=a.wav lokey=a#3 hikey=B3 pitch_keycenter=bb3 sw_last=g#9")
        #expect(sfz.regions[0].keys == SFZRange(58, 59) && sfz.regions[0].pitchKeycenter == 58)
        #expect(sfz.diagnostics.count == 1 && sfz.diagnostics[0].message.contains("sw_last=g#9"))
    }

    @Test func commentsCRLFAndBOM() {
        let text = "\u{FEFF}// a comment <region> sample=no.wav\r\n<region> /* block\r\n <region> sample=no2.wav */ sample=yes.wav // trailing\r\nkey=c4\r\n"
        let sfz = parse(text)
        #expect(sfz.regions.count == 1)
        #expect(sfz.regions[0].sample == .file("/inst/yes.wav"))
        #expect(sfz.regions[0].keys == SFZRange(60, 60))
        #expect(sfz.diagnostics.isEmpty)
        let open = parse("<region> sample=a.wav\n/* never closed\n<region>")
        #expect(open.regions.count == 1 && open.diagnostics.first?.location.line == 2)
    }

    @Test func valuesWithSpacesRunToTheNextOpcode() {
        let sfz = parse("""
            <region> sample=My Piano C4.wav lokey=60  hikey=62<region>sample=Take #2 (soft).flac
            <region> sample=..\\Shared\\Noise burst.wav   
            <region> sample=*sine <region> sample=*noise <region> sample=*silence <region> sample=*tri <region> sample=*pluck
            """)
        #expect(sfz.regions.map(\.sample) == [.file("/inst/My Piano C4.wav"), .file("/inst/Take #2 (soft).flac"),
                                              .file("/Shared/Noise burst.wav"), .generator(.sine), .generator(.noise),
                                              .generator(.silence), .generator(.triangle), nil])
        #expect(sfz.regions[0].keys == SFZRange(60, 62))
        #expect(sfz.diagnostics.count == 1 && sfz.diagnostics[0].message.contains("*sine"))
    }

    @Test func unknownOpcodesAndHeadersAreCountedOncePerName() {
        let sfz = parse("""
            <control> hint_ram_based=1
            <group> zz_custom=1 zz_custom=2
            <region> sample=a.wav aaa_thing=3 zz_custom=4
            <effect> type=reverb
            <midi> whatever=1
            <region> sample=b.wav
            """)
        #expect(sfz.unknownOpcodes == [SFZNameCount(name: "aaa_thing", count: 1), SFZNameCount(name: "hint_ram_based", count: 1),
                                       SFZNameCount(name: "zz_custom", count: 3)])
        #expect(sfz.unknownHeaders == [SFZNameCount(name: "effect", count: 1), SFZNameCount(name: "midi", count: 1)])
        #expect(sfz.regions.count == 2)
        #expect(sfz.diagnostics.isEmpty)
    }

    @Test func badValuesNameFileLineOpcodeAndWhatIsAccepted() {
        let sfz = parse("""
            <group> volume=loud
            <region> sample=a.wav lokey=-5 hikey=200 pitch_keycenter=nan
            <region> sample=b.wav offset=1e400 seq_length=0 trigger=sometimes cutoff=-inf loop_mode=forever
            <region> sample=c.wav lovel=99999999999999999999999 fil_type=lpf_9p ampeg_attack=-1 lfo1_wave=9 amp_velcurve_64=2
            """)
        #expect(sfz.regions.count == 3)
        #expect(sfz.regions.allSatisfy { $0.volume == 0 && $0.keys == SFZRange(0, 127) })
        let messages = sfz.diagnostics.map(\.description)
        #expect(messages.count == 14)
        #expect(messages[0] == "/inst/test.sfz:1: volume=loud is ignored: the value must be a number from -144 to 48")
        #expect(messages[1].hasPrefix("/inst/test.sfz:2: lokey=-5 is ignored: the value must be a MIDI note from -1 to 127"))
        #expect(messages.contains("/inst/test.sfz:3: trigger=sometimes is ignored: the value must be one of attack, release, first, legato, release_key"))
        #expect(messages.contains { $0.hasPrefix("/inst/test.sfz:4: fil_type=lpf_9p is ignored: the value must be one of lpf_1p, lpf_2p") })
        #expect(messages.contains("/inst/test.sfz:4: lfo1_wave=9 is ignored: the value must be a whole number from 0 to 7"))
    }

    @Test func definesChainAndOpcodesBeforeAnyHeaderAreIgnored() {
        let sfz = parse("volume=-6\n#define $A 40\n#define $B $A\n<region> sample=a.wav lokey=$B")
        #expect(sfz.regions.count == 1 && sfz.regions[0].keys.low == 40 && sfz.regions[0].volume == 0)
        #expect(sfz.diagnostics.map(\.description) == ["/inst/test.sfz:1: volume=-6 is ignored: it comes before any <header>"])
    }

    @Test func embeddedSampleDataIsSkippedOverItsLines() {
        let sfz = parse("<sample> name=a.wav base64data=UklGR\nAAAA=BBBB\nCCCC\n<region> sample=b.wav")
        #expect(sfz.unknownHeaders == [SFZNameCount(name: "sample", count: 1)])
        #expect(sfz.regions.map(\.location.line) == [4])
        #expect(sfz.diagnostics.isEmpty)
    }

    @Test func malformedTextIsReportedNotFatal() {
        let sfz = parse("<region sample=a.wav\nstray words here\n<region> =5 sample=b.wav\n#pragma once\n#define\n#include nothing")
        #expect(sfz.regions.map(\.sample) == [.file("/inst/b.wav")])
        #expect(sfz.diagnostics.map(\.location.line) == [1, 2, 2, 2, 3, 4, 5, 6])
        // The reader's problems and the bad values come in the text's order.
        let mixed = parse("<region> lokey=x\n#nonsense\n<region> hikey=y")
        #expect(mixed.diagnostics.map(\.location.line) == [1, 2, 3])
    }
}
