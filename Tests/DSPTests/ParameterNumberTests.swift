import Foundation
import MIDI
import Testing
@testable import DSP

/// The pitch of A4 (440 Hz) bent fully down after `messages`, measured from the rendered sine.
private func bentDownPitch(after messages: [ShortMessage], channel: UInt8 = 0) -> Double {
    let synth = steadySynth()
    for m in messages { synth.handle(m) }
    synth.handle(bend(-8192, channel: channel))
    synth.handle(noteOn(69, channel: channel))
    let out = render(synth, frames: 24_000)
    return zeroCrossingFrequency(out.left[4_800...], sampleRate: rate)
}

/// 440 Hz bent down by `semitones`.
private func bent(_ semitones: Double) -> Double { 440 * pow(2, -semitones / 12) }

/// The bug this guards: the synth decoded RPNs itself and ignored CC 99/98, so data entry meant for an NRPN
/// selected after RPN 0 changed the pitch-bend range.
@Test func nrpnDataEntryAfterRPN0LeavesTheBendRangeAlone() {
    let f = bentDownPitch(after: [cc(101, 0), cc(100, 0), cc(99, 1), cc(98, 8), cc(6, 12), cc(38, 0)])
    #expect(abs(f / bent(2) - 1) < 0.002, "\(f) Hz: the NRPN's data entry changed the bend range")
    // Selecting RPN 0 again gives data entry back to the bend range.
    let again = bentDownPitch(after: [cc(101, 0), cc(100, 0), cc(99, 1), cc(98, 8),
                                      cc(101, 0), cc(100, 0), cc(6, 12)])
    #expect(abs(again / bent(12) - 1) < 0.002, "\(again) Hz")
}

@Test func rpn0DataEntryLSBSetsCentsAndMSBKeepsThem() {
    // MSB 1 semitone, LSB 50 cents: 1.5 semitones.
    let cents = bentDownPitch(after: [cc(101, 0), cc(100, 0), cc(6, 1), cc(38, 50)])
    #expect(abs(cents / bent(1.5) - 1) < 0.002, "\(cents) Hz")
    // A later MSB alone changes the semitones and keeps the cents.
    let kept = bentDownPitch(after: [cc(101, 0), cc(100, 0), cc(6, 1), cc(38, 50), cc(6, 3)])
    #expect(abs(kept / bent(3.5) - 1) < 0.002, "\(kept) Hz")
}

@Test func resetAllControllersDeselectsTheParameterButKeepsTheRange() {
    // RP-015: CC 121 sets the RPN to null; the range set before stays.
    let f = bentDownPitch(after: [cc(101, 0), cc(100, 0), cc(6, 7), cc(121, 0), cc(6, 12)])
    #expect(abs(f / bent(7) - 1) < 0.002, "\(f) Hz")
}

@Test func parameterNumbersArePerChannel() {
    // RPN 0 on channel 1 does not select it on channel 0.
    let f = bentDownPitch(after: [cc(101, 0, channel: 1), cc(100, 0, channel: 1), cc(6, 12)])
    #expect(abs(f / bent(2) - 1) < 0.002, "\(f) Hz")
    let other = bentDownPitch(after: [cc(101, 0, channel: 1), cc(100, 0, channel: 1), cc(6, 12, channel: 1)],
                              channel: 1)
    #expect(abs(other / bent(12) - 1) < 0.002, "\(other) Hz")
}
