import Bench
import ArgumentParser
import Engine
import Foundation
import Glibc
import TUI

/// `backbeat soak`: the long real-time run of the performance issue, with the same table as `bench`.
struct Soak: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hold many voices at a small period with random MIDI arriving, for minutes; report xruns, callback p99.9, drops, memory.",
        discussion: """
            Runs a private JACK server (dummy driver) of its own. Defaults: 10 minutes, 64 frames, 512 voices, \
            1000 MIDI events per second. With --ui the workstation is on screen and redraws every frame (30 a \
            second) while the soak runs; scripts/soak runs that in a tmux terminal. The references for xruns \
            come afterwards on the same server, each for --reference-minutes (default: as long as the soak): \
            jack_midisine receiving the same MIDI traffic, then the server idle (--no-baseline skips both).
            """)

    @Option(parsing: .unconditional, help: "Minutes to run (0.1...1440).", transform: NumberArgument.decimal(0.1...1440, unit: "minutes"))
    var minutes = 10.0
    @Option(parsing: .unconditional, help: "JACK period in frames: a power of two, 16...4096.", transform: NumberArgument.whole(16...4096, powerOfTwo: true))
    var period = 64
    @Option(parsing: .unconditional, help: "Voices held (1...2048, the distinct keys of 16 channels).", transform: NumberArgument.whole(1...2048))
    var voices = 512
    @Option(name: .customLong("events-per-second"), parsing: .unconditional, help: "Random MIDI events per second (1...20000).",
            transform: NumberArgument.whole(1...20_000))
    var eventsPerSecond = 1000
    @Flag(help: "Show the workstation, redrawn 30 times a second, while soaking (needs a terminal).") var ui = false
    @Flag(inversion: .prefixedNo, help: "Afterwards, count the xruns of jack_midisine under the same traffic and of the idle server (the references).")
    var baseline = true
    @Option(name: .customLong("reference-minutes"), parsing: .unconditional, help: "Minutes each reference runs (default: --minutes; 0.1...1440).",
            transform: NumberArgument.decimal(0.1...1440, unit: "minutes"))
    var referenceMinutes: Double?
    @Option(help: ArgumentHelp("Also write the table to this file.", valueName: "path"), completion: .file()) var report: String?
    @Flag(help: "One JSON object per row.") var json = false

    func validate() throws {
        if ui, isatty(STDIN_FILENO) != 1 || isatty(STDOUT_FILENO) != 1 { throw ValidationError("--ui needs a terminal (scripts/soak runs one in tmux)") }
        if let report, report.isEmpty { throw ValidationError("--report needs a file name") }
    }

    func run() throws {
        let server = "backbeat-soak"
        PrivateJackServer.quietLibjack()
        let jackd = try PrivateJackServer.unlessRunning(server, period: period)
        defer { jackd?.stop() }
        var options = EngineOptions()
        options.serverName = server
        options.voices = voices
        options.patch = 1
        let engine = Engine(options: options, log: { Console.info($0) })
        try engine.start()
        var engineRunning = true
        defer { if engineRunning { engine.stop() } }
        let description = "\(minutes) min at \(period) frames, \(voices) voices held, \(eventsPerSecond) MIDI events/s"
        let screen = ui ? SoakScreen(engine: engine) : nil
        if screen == nil { Console.info("soak: \(description)") }
        let uiStart = SynthBenchmark.threadCPUSeconds()
        let result = Result {
            try SoakBenchmark.run(engine: engine, server: server, seconds: minutes * 60, voices: voices,
                                  eventsPerSecond: eventsPerSecond,
                                  drain: { if let screen { screen.frame() } else { engine.drainEvents { _ in } } })
        }
        let uiSeconds = SynthBenchmark.threadCPUSeconds() - uiStart
        screen?.close()
        let figures = try result.get()
        engine.stop()
        engineRunning = false
        var idle: Int?, midisine: Int?
        let referenceSeconds = (referenceMinutes ?? minutes) * 60
        if baseline {
            Console.info("soak: jack_midisine with the same traffic for \(referenceSeconds / 60) min, then the server idle as long (the xrun references)")
            midisine = try SoakBenchmark.referenceXruns(server: server, seconds: referenceSeconds, voices: voices, eventsPerSecond: eventsPerSecond)
            idle = try SoakBenchmark.idleXruns(server: server, seconds: referenceSeconds)
        }
        func perMinute(_ count: Int, _ seconds: Double) -> String { String(format: "%d (%.1f/min)", count, Double(count) / seconds * 60) }
        var references: [String] = []
        if let midisine { references.append("jack_midisine, same MIDI: " + perMinute(midisine, referenceSeconds)) }
        if let idle { references.append("idle server: " + perMinute(idle, referenceSeconds)) }

        let p999 = Double(figures.p999Nanoseconds) / figures.periodNanoseconds
        var rows: [Bench.Row] = [
            .init(metric: "xruns in \(minutes) min at \(period) frames, \(voices) voices, \(eventsPerSecond) ev/s",
                  backbeat: perMinute(figures.xruns, figures.seconds), reference: references.isEmpty ? "-" : references.joined(separator: "; "),
                  ratio: "-", target: "0", pass: figures.xruns == 0),
            .init(metric: "callback p99.9 / period (max)", backbeat: String(format: "%.1f %% (max %.1f %%)", p999 * 100, Double(figures.maxNanoseconds) / figures.periodNanoseconds * 100),
                  reference: "-", ratio: "-", target: "< 70 %", pass: p999 < 0.7),
            .init(metric: "ring drops (events sent \(figures.eventsSent), received \(figures.eventsReceived))", backbeat: "\(figures.ringDrops)",
                  reference: "-", ratio: "-", target: "0", pass: figures.ringDrops == 0),
            .init(metric: String(format: "resident memory at %.0f s -> end (this process, JACK's shared segments included)", figures.warmUpSeconds), backbeat: String(format: "%.1f -> %.1f MiB", Double(figures.residentStartKiB) / 1024, Double(figures.residentEndKiB) / 1024),
                  reference: "-", ratio: "-", target: "no growth", pass: figures.residentEndKiB <= figures.residentStartKiB + 1024),
        ]
        if let screen {
            rows.append(.init(metric: "workstation frames drawn (CPU of the thread drawing them and sending the MIDI)",
                              backbeat: String(format: "%d, %.1f/s (%.1f %%)", screen.frames, Double(screen.frames) / figures.seconds, uiSeconds / figures.seconds * 100),
                              reference: "-", ratio: "-", target: "redraws throughout", pass: Double(screen.frames) / figures.seconds >= 20))
        }
        let text = json ? rows.map(Bench.json).joined(separator: "\n") : Bench.table(rows)
        Console.out(text)
        if let path = report {
            do {
                try OutputFile.write(Array((text + "\n").utf8), to: path)
            } catch {
                throw ValidationError("cannot write the report: \(error.description)")
            }
        }
    }
}

/// The workstation on screen during a soak: every call of `frame` drains the engine through it, then draws
/// the whole grid and hands it to curses (which writes what changed), whether or not the workstation
/// reported a change: a frame every time, as a session draws while MIDI streams in.
final class SoakScreen {
    let workstation: Workstation
    let driver: CursesDriver
    private var grid = Grid(width: 0, height: 0)
    private let start = ContinuousClock.now
    private(set) var frames = 0

    init(engine: Engine) {
        let utf8 = CursesDriver.prepareLocale()
        var settings = WorkstationSettings()
        settings.ascii = !utf8
        workstation = Workstation(engine: engine, settings: settings)
        let theme = (try? Theme.resolve("dark", environment: ProcessInfo.processInfo.environment)) ?? Theme.builtInDark
        driver = CursesDriver(theme: theme, noColor: false, utf8: utf8, asciiOnly: settings.ascii)
        workstation.say("soak running: the table prints when it ends")
    }

    func frame() {
        let elapsed = ContinuousClock.now - start
        let now = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        while driver.readKey(timeoutMilliseconds: 0) != nil {} // keys are not the soak's business
        workstation.tick(now: now)
        let size = driver.size
        if grid.width != size.width || grid.height != size.height { grid = Grid(width: size.width, height: size.height) }
        grid.fill(Rect(x: 0, y: 0, width: grid.width, height: grid.height))
        workstation.draw(into: &grid)
        driver.present(grid)
        frames += 1
    }

    func close() { driver.close() }
}
