import Foundation
import Synchronization

/// The engine's ALSA parts: sequencer input and PCM output, and what the status line says about them.
final class ALSAParts: @unchecked Sendable {
    private struct State {
        var sequencer: ALSASequencer?
        var pcm: ALSAPCMBackend?
        var midiStatus: String?
    }
    private let state = Mutex(State())

    var pcm: ALSAPCMBackend? { state.withLock { $0.pcm } }
    /// "ALSA MIDI backbeat:midi_in (128:0)" (with sysex dropped for want of ring room, if any), or why not.
    var midiStatus: String? {
        state.withLock { state in
            guard let sequencer = state.sequencer else { return state.midiStatus }
            let dropped = sequencer.sysexDropped
            return "ALSA MIDI \(sequencer.address)" + (dropped > 0 ? ", \(dropped) sysex dropped" : "")
        }
    }

    /// "ALSA PCM 'null': float32, 2 x 256 frames, SCHED_FIFO priority 70 (no device clock: paced by the system clock)".
    var pcmStatus: String? {
        guard let pcm else { return nil }
        var line = "ALSA PCM '\(pcm.device)': \(pcm.format.rawValue), \(pcm.periods) x \(pcm.periodFrames) frames, \(pcm.scheduling)"
        if pcm.pacedByClock.load(ordering: .relaxed) { line += " (no device clock: paced by the system clock)" }
        let failure = pcm.failure.load(ordering: .relaxed)
        if failure < 0 { line += "; stopped: \("device error: \(ALSA.reason(failure))")" }
        return line
    }

    fileprivate func set(sequencer: ALSASequencer?, midiStatus: String?) {
        state.withLock { $0.sequencer = sequencer; $0.midiStatus = midiStatus }
    }

    fileprivate func set(pcm: ALSAPCMBackend) { state.withLock { $0.pcm = pcm } }

    /// Stops the PCM thread and the sequencer reader, closes both. Idempotent.
    func stop() {
        let (sequencer, pcm) = state.withLock { state in
            defer { state.sequencer = nil; state.pcm = nil }
            return (state.sequencer, state.pcm)
        }
        pcm?.stop()
        sequencer?.stop()
    }
}

extension Engine {
    /// The ALSA part of `start()`: the sequencer as `--midi` asks (a required one that cannot be opened
    /// throws an `ALSAError` naming /dev/snd/seq; with `auto` the reason goes to the log and the status),
    /// then with `--driver alsa` the PCM device, opened, configured and running. Leaves nothing running when
    /// it throws.
    func startALSA() throws {
        var sequencer: ALSASequencer?
        if options.midiInput.wantsALSA {
            do {
                sequencer = try ALSASequencer(clientName: options.clientName, connect: options.alsaConnect,
                                              ring: context.alsaRing, sysexRing: context.alsaSysexRing,
                                              outRing: context.alsaOutRing, log: log)
                alsa.set(sequencer: sequencer, midiStatus: nil)
                // Before any real-time thread runs (the PCM below, JACK after this function).
                context.midiThru = options.midiThru
                context.midiOutActive = true
                context.alsaOutActive = true
                log("ALSA sequencer: \(sequencer!.address) ready")
            } catch let error as ALSAError {
                if options.midiInput.requiresALSA { throw error }
                let line = "ALSA MIDI unavailable: \(error)"
                alsa.set(sequencer: nil, midiStatus: line)
                log(line)
            }
        }
        if options.driver == .alsa {
            do {
                let pcm = try ALSAPCMBackend(device: options.alsaDevice, rate: options.rate, period: options.period,
                                             periods: options.alsaPeriods)
                prepare(sampleRate: pcm.rate)
                try pcm.start(context: context)
                alsa.set(pcm: pcm)
                log("ready: ALSA PCM '\(pcm.device)', \(pcm.rate) Hz, \(pcm.periods) x \(pcm.periodFrames) frames, \(pcm.format.rawValue), \(pcm.scheduling)")
            } catch {
                alsa.stop()
                throw error
            }
        }
        sequencer?.start()
    }

    func stopALSA() { alsa.stop() }
}
