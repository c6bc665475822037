import Reports
import SFZ
import Testing

/// `backbeat instrument info`'s report, line for line, on an instrument written here and sample headers
/// given (no file is opened).
@Suite struct SFZReportTests {
    static let text = """
        <control> default_path=samples/ label_cc1=Mod wheel set_cc64=0 label_cc64=Sustain
        <global> sw_lokey=24 sw_hikey=25 sw_default=24 loop_mode=one_shot
        <group> sw_last=24 sw_label=Sustain
        <region> sample=C4 soft.wav lokey=48 hikey=60 hivel=63 seq_length=2 seq_position=1
        <region> sample=C4 soft.wav lokey=48 hikey=60 hivel=63 seq_length=2 seq_position=2 mystery=1
        <region> sample=C4 loud.wav lokey=48 hikey=60 lovel=64
        <group> sw_last=25
        <region> sample=Staccato.flac key=62 volume=loud
        <region> sample=*noise trigger=release mystery=2 other_thing=1
        """

    static func report(json: Bool) -> SFZReport {
        let instrument = SFZInstrument.parse(Array(text.utf8), path: "/inst/piano.sfz") { _ in .failure(SFZLoadError(path: "", reason: "none")) }
        let samples: [String: SFZReport.SampleStatus] = [
            "/inst/samples/C4 soft.wav": .success(SampleFileInfo(frames: 44100, channels: 2, sampleRate: 44100, format: "WAV 24-bit")),
            "/inst/samples/C4 loud.wav": .success(SampleFileInfo(frames: 22050, channels: 1, sampleRate: 48000, format: "FLAC 16-bit",
                                                                 loops: [SampleLoop(mode: .forward, start: 10, end: 20, count: 0)])),
            "/inst/samples/Staccato.flac": .failure(SampleFileError(path: "/inst/samples/Staccato.flac", reason: "System error : No such file or directory.")),
        ]
        return SFZReport(instrument: instrument, samples: samples, json: json)
    }

    @Test func text() {
        #expect(Self.report(json: false).lines() == [
            "instrument: /inst/piano.sfz",
            "regions: 5",
            "samples: 3 files, 1 missing; 1 regions play a generator",
            "sample memory: 441000 bytes as 32-bit float (0.4 MiB)",
            "missing sample: /inst/samples/Staccato.flac (wanted at /inst/piano.sfz:8): System error : No such file or directory.",
            "key map:",
            "  48-60 samples/C4 soft.wav (2 channels, 44100 Hz, 44100 frames, WAV 24-bit)",
            "  48-60 samples/C4 loud.wav (mono, 48000 Hz, 22050 frames, FLAC 16-bit, loop 10-20)",
            "  62 samples/Staccato.flac",
            "  0-127 *noise",
            "velocity layers: 3: 1-63 (2), 1-127 (2), 64-127 (1)",
            "round robins: seq_length 2: 2 regions",
            "key switches: 2",
            "  24 (c1) Sustain: 3 regions, the default",
            "  25 (c#1): 2 regions",
            "labelled CCs: 2",
            "  cc1 Mod wheel",
            "  cc64 Sustain (starts at 0)",
            "note-following opcodes: 0",
            "unknown opcodes: 2 (mystery ×2, other_thing ×1)",
            "diagnostics: 1",
            "  /inst/piano.sfz:8: volume=loud is ignored: the value must be a number from -144 to 48",
        ])
    }

    @Test func json() {
        let lines = Self.report(json: true).lines()
        #expect(lines.first == #"{"type":"instrument","path":"/inst/piano.sfz","regions":5,"sampleFiles":3,"missingSamples":1,"generatorRegions":1,"sampleBytes":441000,"velocityLayers":3,"keySwitches":2,"unknownOpcodes":2,"diagnostics":1}"#)
        #expect(lines.contains(#"{"type":"sample","sample":"samples/C4 loud.wav","keys":"48-60","regions":1,"frames":22050,"channels":1,"sampleRate":48000,"format":"FLAC 16-bit","bytes":88200,"loops":1}"#))
        #expect(lines.contains(#"{"type":"sample","sample":"samples/Staccato.flac","keys":"62","regions":1,"missing":true,"error":"System error : No such file or directory.","file":"/inst/piano.sfz","line":8}"#))
        #expect(lines.contains(#"{"type":"keySwitch","key":24,"note":"c1","label":"Sustain","regions":3,"default":true}"#))
        #expect(lines.contains(#"{"type":"cc","cc":64,"label":"Sustain","initial":0}"#))
        #expect(lines.contains(#"{"type":"unknownOpcode","name":"mystery","count":2}"#))
        #expect(lines.last == #"{"type":"diagnostic","file":"/inst/piano.sfz","line":8,"message":"volume=loud is ignored: the value must be a number from -144 to 48"}"#)
        #expect(lines.count == 1 + 4 + 3 + 1 + 2 + 2 + 2 + 1)
    }

    @Test func keyRunsJoinNeighbours() {
        let sfz = SFZInstrument.parse(Array("<region> sample=a.wav key=40 <region> sample=a.wav lokey=41 hikey=43 <region> sample=a.wav key=50 <region> sample=b.wav key=-1".utf8),
                                      path: "x.sfz") { _ in .failure(SFZLoadError(path: "", reason: "none")) }
        let lines = SFZReport(instrument: sfz, samples: [:], json: false).lines()
        #expect(lines.contains("  40-43,50 a.wav"))
        #expect(lines.contains("  none b.wav"))
        #expect(lines.contains("velocity layers: 0"))
        #expect(lines.contains("round robins: none"))
    }
}
