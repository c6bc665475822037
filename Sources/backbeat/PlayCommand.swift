import ArgumentParser
import Engine
import Foundation
import Headless
import MIDI
import Settings

/// `backbeat play FILE.mid ...` (and `backbeat FILE.mid ...`): MIDI files live through the engine, each event
/// at its exact frame (`SongPlayer`), in the workstation or `--headless`.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play MIDI files live through the engine (a private JACK server if none runs), in the workstation or --headless.",
        discussion: """
            Plays the files one after another through the live synth, each message at the frame `backbeat render` \
            gives it (the same tempo map arithmetic and the same sample-accurate event split), and sends them on \
            midi_out as Backbeat's own messages. The files are read as render reads them: a file with faults plays \
            what can be played, one warning line per kind of fault (--strict refuses it); a file that cannot be \
            read or is not MIDI is skipped with render's message, and the next one plays (exit 2 when none can). \
            `backbeat FILE.mid ...` is `backbeat play FILE.mid ...`. With --headless the queue plays to its end \
            and Backbeat exits 0 once the last notes' release tails have ended (at most 4 s after the end). Every \
            engine option works: --soundfont, --server, --record-audio, --record-midi, ...
            """
    )

    @Argument(help: ArgumentHelp("The Standard MIDI Files to play, in order.", valueName: "file.mid"),
              completion: .file(extensions: ["mid", "midi", "smf", "kar"]))
    var files: [String] = []

    @OptionGroup(title: "Song") var changes: SongArguments
    @OptionGroup var engine: EngineArguments
    @OptionGroup(title: "ALSA") var alsa: ALSAArguments
    @OptionGroup(title: "Workstation") var ui: UIArguments

    @Flag(help: "Play the queue to its end without the terminal UI, a status line every second, then exit.")
    var headless = false

    @Flag(help: "Play the queue again from its first file when it ends (until Ctrl-C or q).")
    var loop = false

    @Flag(name: .customLong("no-synth"), help: "Send the files' messages on the MIDI outputs only, not through the synth.")
    var noSynth = false

    @Flag(help: "Refuse (skip) a file with any fault instead of playing what can be played.")
    var strict = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one MIDI file to play") }
        if alsa.midi == .alsa && !engine.connectMIDI.isEmpty { throw ValidationError("--connect-midi needs JACK MIDI (--midi jack, both or auto)") }
    }

    func run() throws {
        if let path = ui.config, !FileManager.default.fileExists(atPath: path) {
            Console.fail("\(ConfigFileError(file: path, line: 0, message: "no such config file (--config)"))")
        }
        let songs = Self.songs(files, strict: strict, edit: changes.edit)
        guard !songs.isEmpty else { throw ExitCode(2) }
        var options = SongPlayer.Options(loop: loop, toSynth: !noSynth)
        // The player starts where --start says and at --tempo, so the songs keep their own bars for seeking.
        options.start = changes.edit.start
        options.tempo = changes.edit.tempo
        let logFile: LogFile?
        do { logFile = try ui.log.map { path throws(SystemError) in try LogFile(path: path) } } catch { Console.fail("\(error)") }
        let play = SongQueue(songs: songs, options: options)
        if headless {
            try HeadlessRun.run(engine, alsa: alsa, config: ui.loadConfig(), logFile: logFile, play: play)
        } else {
            try WorkstationCommand.run(engine: engine, ui: ui, alsa: alsa, logFile: logFile, play: play)
        }
    }

    /// The files that can be played, read before anything starts and changed by `edit` but for its start and
    /// tempo (the player's own, `SongPlayer.Options`: the first file starts at `--start`); each one refused is
    /// said with render's message and left out of the queue, as is a first file that `--start` is past the end of.
    static func songs(_ paths: [String], strict: Bool, edit: SongEdit) -> [Song] {
        var songs: [Song] = []
        for path in paths {
            do throws(MIDIFileInput.Refusal) {
                let file = try MIDIFileInput.read(path, strict: strict, prefix: "backbeat play: ")
                let song = Song(name: (path as NSString).lastPathComponent, file: file)
                if songs.isEmpty, let refusal = edit.startRefusal(for: song, file: file) {
                    Console.message(refusal + (paths.count > 1 ? " (skipped)" : ""), prefix: "backbeat play: ")
                    continue
                }
                var notes = edit
                notes.start = nil
                notes.tempo = 1
                songs.append(notes.apply(to: song, file: file))
            } catch {
                Console.message(error.message + (paths.count > 1 ? " (skipped)" : ""), prefix: "backbeat play: ")
            }
        }
        return songs
    }
}

/// What `play` hands the headless loop or the workstation: the songs and how to play them.
struct SongQueue {
    var songs: [Song]
    var options: SongPlayer.Options

    /// Starts the player on `engine` (once it runs).
    func start(on engine: Engine) -> SongPlayer {
        let player = SongPlayer(engine: engine, queue: songs, options: options)
        player.start()
        return player
    }

    /// The player's status: `play 2/3 song.mid 0:12/1:40` (empty before the first song starts).
    static func text(_ status: SongPlayer.Status?) -> String {
        guard let status else { return "" }
        let place = status.count > 1 ? " \(status.index + 1)/\(status.count)" : ""
        let late = status.late > 0 ? " (\(status.late) late)" : ""
        let tempo = status.tempo != 100 ? " \(status.tempo)%" : ""
        let transpose = status.transpose != 0 ? (status.transpose > 0 ? " +" : " ") + "\(status.transpose) st" : ""
        let bar = status.bar.map { " bar \($0)" } ?? ""
        let loop = status.loopB.map { " loop \(clock(status.loopA ?? 0))-\(clock($0))" } ?? status.loopA.map { " A \(clock($0))" } ?? ""
        return "play\(place) \(status.name) \(clock(status.position))/\(clock(status.duration))" + tempo + transpose
            + (status.finished ? " ended" : status.paused ? " paused" : "") + late + bar + loop
    }

    /// Seconds as m:ss.
    static func clock(_ seconds: Double) -> String { Song.clock(seconds) }
}

/// When a headless play is over: the queue has ended and its last release tails too (no voice sounding for
/// 0.3 s), or 4 s after the queue ended whatever still rings.
struct PlayEnding {
    private var finishedAt: ContinuousClock.Instant?
    private var quietSince: ContinuousClock.Instant?

    mutating func isOver(finished: Bool, voices: Int, now: ContinuousClock.Instant = .now) -> Bool {
        guard finished else { return false }
        let ended = finishedAt ?? now
        finishedAt = ended
        quietSince = voices == 0 ? quietSince ?? now : nil
        if let quietSince, now - quietSince >= .milliseconds(300) { return true }
        return now - ended >= .seconds(4)
    }
}

/// `backbeat song.mid ...` is `backbeat play song.mid ...`. The default subcommand, `run`, takes no files, so
/// before parsing, a first argument that is no subcommand's name and names a MIDI file (a regular file that
/// begins as a Standard MIDI File or a RIFF file does, or a name ending in .mid, .midi, .kar or .smf) chooses
/// `play`.
enum SongDispatch {
    static let extensions: Set<String> = ["mid", "midi", "kar", "smf"]

    static func arguments(_ arguments: [String], subcommands: [String]) -> [String] {
        guard let first = arguments.first, !first.hasPrefix("-"), !subcommands.contains(first), isMIDIFile(first) else {
            return arguments
        }
        return ["play"] + arguments
    }

    static func isMIDIFile(_ path: String) -> Bool {
        if extensions.contains((path as NSString).pathExtension.lowercased()) { return true }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4)) ?? Data()
        return head == Data("MThd".utf8) || head == Data("RIFF".utf8)
    }
}
