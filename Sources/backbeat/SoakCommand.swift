import ArgumentParser
import Engine
import Foundation

/// `backbeat soak`: the long real-time run of the performance issue, with the same table as `bench`.
struct Soak: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hold many voices at a small period with random MIDI arriving, for minutes; report xruns, callback p99.9, drops, memory.",
        discussion: "Runs a private JACK server (dummy driver) of its own. Defaults: 10 minutes, 64 frames, 512 voices, 1000 MIDI events per second.")

    @Option(help: "Minutes to run.") var minutes = 10.0
    @Option(help: "JACK period in frames.") var period = 64
    @Option(help: "Voices held.") var voices = 512
    @Option(name: .customLong("events-per-second"), help: "Random MIDI events per second.") var eventsPerSecond = 1000
    @Flag(help: "One JSON object per row.") var json = false

    func validate() throws {
        guard minutes > 0 else { throw ValidationError("--minutes must be positive") }
        guard (16...4096).contains(period), period & (period - 1) == 0 else { throw ValidationError("--period must be a power of two 16...4096") }
        guard (1...2048).contains(voices) else { throw ValidationError("--voices must be 1...2048, the distinct keys of 16 channels (got \(voices))") }
        guard (1...20_000).contains(eventsPerSecond) else { throw ValidationError("--events-per-second must be 1...20000") }
    }

    func run() throws {
        let server = "backbeat-soak"
        PrivateJackServer.quietLibjack()
        let jackd: PrivateJackServer? = PrivateJackServer.isRunning(name: server)
            ? nil : try PrivateJackServer.start(name: server, rate: 48_000, period: period)
        defer { jackd?.stop() }
        var options = EngineOptions()
        options.serverName = server
        options.voices = voices
        options.patch = 1
        let engine = Engine(options: options, log: { Console.info($0) })
        try engine.start()
        defer { engine.stop() }
        Console.info("soak: \(minutes) min at \(period) frames, \(voices) voices held, \(eventsPerSecond) MIDI events/s")
        let report = try SoakBenchmark.run(engine: engine, server: server, seconds: minutes * 60, voices: voices,
                                           eventsPerSecond: eventsPerSecond, drain: { engine.drainEvents { _ in } })
        let p999 = Double(report.p999Nanoseconds) / report.periodNanoseconds
        let rows: [Bench.Row] = [
            .init(metric: "xruns in \(minutes) min at \(period) frames, \(voices) voices, \(eventsPerSecond) ev/s", backbeat: "\(report.xruns)",
                  reference: "-", ratio: "-", target: "0", pass: report.xruns == 0),
            .init(metric: "callback p99.9 / period (max)", backbeat: String(format: "%.1f %% (max %.1f %%)", p999 * 100, Double(report.maxNanoseconds) / report.periodNanoseconds * 100),
                  reference: "-", ratio: "-", target: "< 70 %", pass: p999 < 0.7),
            .init(metric: "ring drops (events sent \(report.eventsSent), received \(report.eventsReceived))", backbeat: "\(report.ringDrops)",
                  reference: "-", ratio: "-", target: "0", pass: report.ringDrops == 0),
            .init(metric: "resident memory start -> end (this process)", backbeat: String(format: "%.1f -> %.1f MiB", Double(report.residentStartKiB) / 1024, Double(report.residentEndKiB) / 1024),
                  reference: "-", ratio: "-", target: "no growth", pass: report.residentEndKiB <= report.residentStartKiB + 1024),
        ]
        if json { rows.forEach { Console.out(Bench.json($0)) } } else { Console.out(Bench.table(rows)) }
    }
}
