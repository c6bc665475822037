import ArgumentParser
import Engine
import MIDI

/// What `play` and `render` both change in a song (`SongEdit`): the same options, so that a render reproduces
/// what was heard.
struct SongArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Start at this bar (1 is the first) or time (M:SS) (play: the first file); every channel's program, controllers, bend and the system messages before it are played first, at the start.", valueName: "BAR|M:SS"),
            transform: { text in
                guard let position = SongStart(text) else { throw ValidationError("must be a bar (1, 2, ...) or a time as M:SS (1:05, 0:30.5)") }
                return position
            })
    var start: SongStart?

    @Option(parsing: .unconditional, help: ArgumentHelp("Tempo in percent of the file's (25...400).", valueName: "PCT"),
            transform: NumberArgument.whole(25...400))
    var tempo = 100

    @Option(parsing: .unconditional, help: ArgumentHelp("Semitones to move every note by (-24...24); drum parts (channel 10, and any a bank select or GS rhythm part message makes one) are left as they are.", valueName: "N"),
            transform: NumberArgument.whole(-24...24))
    var transpose = 0

    @Option(parsing: .singleValue, help: ArgumentHelp("Leave out these MIDI channels' notes (1...16, comma-separated or repeated).", valueName: "CH,..."),
            transform: SongArguments.channels)
    var mute: [[Int]] = []

    @Option(parsing: .singleValue, help: ArgumentHelp("Play only these MIDI channels' notes (1...16, comma-separated or repeated).", valueName: "CH,..."),
            transform: SongArguments.channels)
    var solo: [[Int]] = []

    static let channels: @Sendable (String) throws -> [Int] = { text in
        try text.split(separator: ",", omittingEmptySubsequences: false).map {
            do { return try NumberArgument.whole(1...16)(String($0)) } catch { throw ValidationError("must be MIDI channels from 1 to 16, comma-separated") }
        }
    }

    var edit: SongEdit {
        var edit = SongEdit()
        edit.start = start
        edit.tempo = Double(tempo) / 100
        edit.transpose = transpose
        edit.muted = Set(mute.joined().map { UInt8($0 - 1) })
        edit.soloed = Set(solo.joined().map { UInt8($0 - 1) })
        return edit
    }
}
