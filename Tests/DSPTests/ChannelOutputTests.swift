// Per-channel outputs (ChannelOutputs.swift, Synth+ChannelOutputs.swift): with them on, the main output is the
// same sample for sample as with them off; each channel's pair carries its voices alone; below the clip knee
// the sixteen pairs plus the reverb's and the chorus's returns add up to the main output.
import Foundation
import Testing
@testable import DSP
import MIDI
import TestSupport

/// A render with the per-channel outputs read after every call, as the engine reads them after a period.
private struct SplitRender {
    var left: [Float] = [], right: [Float] = []
    /// `Synth.channelOutputCount` rows.
    var rows = [[Float]](repeating: [], count: Synth.channelOutputCount)
}

/// Renders `frames` frames in calls of `block` (events applied at their frames, as `render(_:frames:events:)`
/// does), reading the per-channel outputs after each call when the synth renders them.
private func splitRender(_ synth: Synth, frames: Int, events: [(frame: Int, message: ShortMessage)],
                         block: Int = 256) -> SplitRender {
    var out = SplitRender()
    var done = 0, next = 0
    var left = [Float](repeating: 0, count: block), right = [Float](repeating: 0, count: block)
    while done < frames {
        while next < events.count && events[next].frame <= done { synth.handle(events[next].message); next += 1 }
        let until = next < events.count ? min(events[next].frame, frames) : frames
        let n = min(block, until - done)
        synth.startChannelOutputs()
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in synth.render(left: l.baseAddress!, right: r.baseAddress!, frames: n) }
        }
        out.left += left[0..<n]
        out.right += right[0..<n]
        if synth.rendersChannelOutputs {
            #expect(synth.channelOutputFrames == n)
            for row in 0..<Synth.channelOutputCount {
                out.rows[row] += UnsafeBufferPointer(start: synth.channelOutput(row)!, count: n)
            }
        }
        done += n
    }
    return out
}

/// Two channels at different pitches (built-in sine voices, the steady ones kept in the lane cache), channel
/// 3 sending to the reverb and the chorus, a drum on channel 10: quiet, below the clip knee.
private let twoChannels: [(frame: Int, message: ShortMessage)] = [
    (0, cc(91, 127, channel: 3)), (0, cc(93, 127, channel: 3)),
    (0, noteOn(57, velocity: 40, channel: 0)),          // 220 Hz
    (0, noteOn(76, velocity: 40, channel: 3)),          // 659 Hz
    (4_800, noteOn(38, velocity: 30, channel: 9)),      // a snare
    (24_000, noteOff(57, channel: 0)), (30_000, noteOff(76, channel: 3)),
]

private func quietSynth(split: Bool, soundFont: SoundFont? = nil) -> Synth {
    let synth = soundFont.map { Synth(voices: 64, soundFont: $0) } ?? steadySynth(voices: 64)
    synth.prepare(sampleRate: 48_000, maxFrames: 256)
    synth.setChannelOutputs(split)
    return synth
}

struct ChannelOutputTests {
    @Test func offByDefaultAndNothingToRead() {
        let synth = steadySynth()
        #expect(!synth.rendersChannelOutputs)
        #expect(synth.channelOutput(0) == nil)
        #expect(synth.channelOutputFrames == 0)
    }

    @Test func theMainOutputIsTheSameWithChannelOutputsOn() throws {
        for file in ["chords", "controllers", "drums"] {
            let events = asMainPlayedThem(try fixtureEvents(file))
            let frames = events.last!.frame + 48_000
            var outs: [SplitRender] = []
            for split in [false, true] {
                let synth = Synth(voices: 64)
                synth.prepare(sampleRate: 48_000, maxFrames: 256)
                synth.setChannelOutputs(split)
                outs.append(splitRender(synth, frames: frames, events: events))
            }
            #expect(outs[0].left == outs[1].left && outs[0].right == outs[1].right, "\(file): the main output changed")
            #expect(outs[1].rows.contains { $0.contains { abs($0) > 0.001 } }, "\(file): the channel outputs are silent")
        }
    }

    @Test func eachChannelCarriesItsOwnVoicesAndAllAddUpToTheMainOutput() throws {
        let synth = quietSynth(split: true)
        let out = splitRender(synth, frames: 36_000, events: twoChannels)
        try checkTwoChannels(out)
        #expect(synth.builtIn.laneCache.keptRenders > 0, "no kept group was rendered")
    }

    @Test(.needs(file: "/usr/share/sounds/sf2/TimGM6mb.sf2", package: "timgm6mb-soundfont"))
    func sampleVoicesSplitAsTheBuiltInOnesDo() throws {
        let font = try SoundFont.load(path: "/usr/share/sounds/sf2/TimGM6mb.sf2")
        let off = splitRender(quietSynth(split: false, soundFont: font), frames: 36_000, events: twoChannels)
        let on = splitRender(quietSynth(split: true, soundFont: font), frames: 36_000, events: twoChannels)
        #expect(off.left == on.left && off.right == on.right, "the main output changed")
        try checkTwoChannels(on, pureTones: false)
    }

    /// Channels 1 and 4 (and 10's drum) in their own pairs, nothing in the others, the returns sounding, and the
    /// main output the sum of them all (no sample near the clip knee).
    private func checkTwoChannels(_ out: SplitRender, pureTones: Bool = true) throws {
        let frames = out.left.count
        #expect(peak(out.left[...]) < clipKnee && peak(out.right[...]) < clipKnee, "loud enough to clip")
        var worst: Float = 0
        for n in 0..<frames {
            var l: Float = 0, r: Float = 0
            for row in stride(from: 0, to: Synth.channelOutputCount, by: 2) { l += out.rows[row][n]; r += out.rows[row + 1][n] }
            worst = max(worst, abs(l - out.left[n]), abs(r - out.right[n]))
        }
        #expect(worst < 1e-5, "channels + returns differ from the main output by up to \(worst)")
        for ch in 0..<16 {
            let level = max(peak(out.rows[2 * ch][...]), peak(out.rows[2 * ch + 1][...]))
            if [0, 3, 9].contains(ch) {
                #expect(level > 0.001, "channel \(ch + 1) is silent")
            } else {
                #expect(level == 0, "channel \(ch + 1) carries \(level)")
            }
        }
        for row in [32, 34] { #expect(peak(out.rows[row][...]) > 1e-4, "return row \(row) is silent") }
        guard pureTones else { return }
        // Before the drum: channel 1 is 220 Hz alone, channel 4 659 Hz alone.
        let one = out.rows[0][2_400..<4_800], four = out.rows[6][2_400..<4_800]
        #expect(abs(zeroCrossingFrequency(one, sampleRate: 48_000) - noteFrequency(57)) < 2)
        #expect(abs(zeroCrossingFrequency(four, sampleRate: 48_000) - noteFrequency(76)) < 2)
    }
}
