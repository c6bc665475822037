import CALSA
import SystemPackage

/// An ALSA call that failed: what Backbeat tried (naming the device), ALSA's reason (`snd_strerror`) and
/// the alsa-lib function: "cannot open the ALSA sequencer /dev/snd/seq: No such file or directory (snd_seq_open)".
public struct ALSAError: Error, CustomStringConvertible, Sendable {
    public let description: String

    /// `code`: the negative result of `call`.
    init(_ what: String, call: String, code: Int32) {
        description = "\(what): \(ALSA.reason(code)) (\(call))"
    }

    /// A system call on ALSA's behalf (a wake-up pipe, the PCM thread) that failed.
    init(_ what: String, _ error: Errno) {
        description = SystemError(what, error).description
    }
}

/// The one way Backbeat calls alsa-lib where a failure is possible, off the real-time path: runs the call
/// and throws an `ALSAError` naming what Backbeat tried, the call and ALSA's reason. Only the handles in
/// ALSADevices.swift (`PCMDevice`, `SequencerClient`, `MIDIEventEncoder`) call alsa-lib; the PCM thread's
/// calls there neither throw nor allocate, and keep a failure's code for `ALSA.reason`.
enum ALSA {
    /// `snd_strerror`'s text for a negative ALSA result (a negated errno, or one of ALSA's own).
    static func reason(_ code: Int32) -> String { String(cString: snd_strerror(code)) }

    /// Runs `body`, the alsa-lib function `call`; its result when not negative, else an `ALSAError` saying
    /// `what` failed, ALSA's reason and `call`.
    @discardableResult
    static func call<R: BinaryInteger>(_ what: @autoclosure () -> String, _ call: StaticString,
                                       _ body: () -> R) throws(ALSAError) -> R {
        let result = body()
        guard result < 0 else { return result }
        throw ALSAError(what(), call: "\(call)", code: Int32(truncatingIfNeeded: result))
    }
}
