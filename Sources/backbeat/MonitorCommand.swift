import ArgumentParser
import Engine
import MIDI
import TUI

/// `backbeat monitor`: a headless MIDI monitor on midi_in, one line per message, until SIGINT/SIGTERM.
struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every MIDI message arriving on midi_in, with JACK frame time and time in seconds.",
        discussion: "The synth plays what arrives, as in the workstation. Messages dropped while the simulated app is suspended are marked lost."
    )

    @Flag(help: "One JSON object per message: the fields of `decode --json` plus frame, time and source.")
    var json = false

    @Flag(help: "Name middle C (note 60) C3 instead of C4.")
    var middleC3 = false

    @OptionGroup var engine: EngineArguments
    @OptionGroup(title: "ALSA") var alsa: ALSAArguments

    func run() throws {
        let signals = QuitSignals.install()
        let preset = engine.loadPreset()
        let engine = Engine(options: alsa.apply(to: engine.engineOptions).applying(preset), log: { Console.info($0) })
        preset?.apply(to: engine.synth)
        do { try engine.start() } catch { Console.fail("\(error)") }
        defer { engine.stop() }
        let formatter = MonitorFormatter(middleC: middleC3 ? .c3 : .c4)
        let rate = Double(max(engine.status().sampleRate, 1))
        let startFrame = engine.frameTime() ?? 0
        var count = 0
        while signals.wait(timeout: .milliseconds(20)) == nil {
            engine.drainEvents { event in
                guard case let .midi(monitored) = event else { return }
                let seconds = Double(monitored.frameTime &- startFrame) / rate
                count += 1
                guard let message = engine.message(of: monitored) else {
                    let status = hexString([monitored.message.status])
                    Console.out(json ? MIDIJSON.object([("type", .string("undefined")), ("status", .string(status)), ("frame", .int(Int(monitored.frameTime))), ("time", .double(seconds))])
                                     : "\(String(monitored.frameTime).leftPadded(10))  undefined status byte \(status)")
                    return
                }
                if json {
                    // `frame` is the JACK frame time here (issue contract); an MTC quarter frame's data byte,
                    // which decode calls `frame`, is `mtc_frame` in the monitor so no key appears twice.
                    var fields = message.jsonFields.map { $0.key == "frame" ? (key: "mtc_frame", value: $0.value) : $0 }
                    fields.append(("frame", .int(Int(monitored.frameTime))))
                    fields.append(("time", .double(seconds)))
                    fields.append(("source", .string(monitored.source.description)))
                    if monitored.lost { fields.append(("lost", .bool(true))) }
                    Console.out(MIDIJSON.object(fields))
                } else {
                    let time = String(format: "%10.3f s", seconds)
                    let lost = monitored.lost ? " LOST" : ""
                    Console.out("\(String(monitored.frameTime).leftPadded(10))  \(time)  \(monitored.source.description.padded(5))\(lost)  \(formatter.line(message))")
                }
            }
        }
        Console.info("\(count) messages")
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
