import ArgumentParser
import Reports
import SFZ

/// `backbeat instrument`: commands about SFZ instruments.
struct InstrumentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "instrument",
        abstract: "Inspect SFZ instruments (.sfz files and their samples).",
        subcommands: [Info.self]
    )

    /// `backbeat instrument info FILE.sfz`: reads the instrument and its samples' headers and reports them.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read an SFZ instrument and report its regions, key map and sample memory.",
            discussion: """
                Reads FILE (and the files it #includes) as Backbeat's SFZ parser does, opens the header of every \
                sample file its regions play (WAV, FLAC, Ogg Vorbis, AIFF through libsndfile; no frame is read) \
                and prints: the region count, the sample files and those missing (with the file and line whose \
                sample= wants each), the memory the samples take as 32-bit floats (frames x channels x 4 bytes), \
                the key map (the keys each sample's regions cover), the velocity layers, the round robins \
                (seq_length), the key switches (sw_last) with their labels, the CCs the <control> header labels \
                or sets, the opcodes whose sound follows the note or the wheel (fil_keytrack, fil_veltrack, \
                bend_up/bend_down, amp_velcurve_N, ampeg_vel2*, ampeg_start, fileg_vel2depth/pitcheg_vel2depth; \
                each with how many regions use it), \
                the opcodes Backbeat does not know (each name once, with how often it is written), and \
                the diagnostics (bad values, malformed text, includes refused), each with its file and line. \
                With --json, JSON lines: {"type":"instrument",...}, then one {"type":"sample",...} per sample \
                and one object per velocity layer, round robin, key switch, CC, note-following opcode, unknown \
                opcode and diagnostic. \
                A file that cannot be read prints why and exits with status 2. To play one: --instrument on \
                run, --headless, render and play (docs/sfz.md).
                """
        )

        @Argument(help: ArgumentHelp("The .sfz file.", valueName: "file"), completion: .file(extensions: ["sfz"]))
        var file: String

        @Flag(help: "JSON lines: the instrument, then one object per sample, layer, key switch, CC, unknown opcode and diagnostic.")
        var json = false

        func run() throws {
            let instrument: SFZInstrument
            do {
                instrument = try SFZInstrument.load(path: file)
            } catch {
                Console.message(error.description, prefix: "backbeat instrument: ")
                throw ExitCode(2)
            }
            let report = SFZReport(instrument: instrument, samples: SFZReport.readSampleHeaders(instrument), json: json)
            for line in report.lines() { Console.out(line) }
        }
    }
}
