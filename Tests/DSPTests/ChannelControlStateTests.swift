// The synth's per-channel controller state is one inline `ChannelControlState` per channel: a controller field added
// to it grows that struct, with no count of arrays to run out of, and every channel answers its own controllers.
import MIDI
import Testing
@testable import DSP

@Suite struct ChannelControlStateTests {
    @Test func theSixteenChannelStatesArePlainInlineValues() {
        #expect(_isPOD(ChannelControlState.self))
        // The fixed-size parts (scale, portamento, mono keys) are inside the struct, not pointers to memory.
        #expect(MemoryLayout<ChannelControlState>.size >= 12 * 4 + 4 * 4 + monoStride)
        #expect(MemoryLayout<InlineArray<16, ChannelControlState>>.size == 16 * MemoryLayout<ChannelControlState>.stride)
    }

    @Test func everyChannelStartsAtTheDefaultsAndAnswersItsOwnControllers() {
        let synth = Synth(voices: 8)
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        for ch in 0..<channelCount {
            let c = synth.controls.channels[ch]
            #expect(c.levels.volume == 100.0 / 127 && c.levels.expression == 1 && c.levels.pan == 0.5 && c.pitch.bendRange == 2)
            #expect(c.pitch.tuningProgram == -1 && c.rhythm == -1 && c.vibrato.depthRange == 0.5 && c.pedal == 0)
            #expect(c.portamento[Portamento.from] == -1 && c.portamento[Portamento.lastNote] == -1)
            #expect(c.pitch.scale[11] == 0 && c.mono[0] == 0 && c.mono[monoStride - 1] == 0)
        }
        for ch in 0..<UInt8(channelCount) {
            synth.handle(cc(7, ch + 1, channel: ch))
            synth.handle(cc(11, ch + 20, channel: ch))
            synth.handle(cc(10, ch + 40, channel: ch))
            synth.handle(cc(64, 127, channel: ch))
            synth.handle(cc(5, ch, channel: ch))
            synth.handle(cc(65, 127, channel: ch))
            synth.handle(cc(126, 1, channel: ch))
            synth.handle(bend(Int(ch) * 100, channel: ch))
        }
        for ch in 0..<channelCount {
            let c = synth.controls.channels[ch]
            #expect(c.levels.volume == Float(ch + 1) / 127, "channel \(ch)")
            #expect(c.levels.expression == Float(ch + 20) / 127, "channel \(ch)")
            #expect(c.levels.pan == Float(ch + 39) / 126, "channel \(ch)")
            #expect(c.pedal == 1 && c.mono[0] == 1, "channel \(ch)")
            #expect(c.portamento[Portamento.time] == Int32(ch) << 7 && c.portamento[Portamento.on] == 1, "channel \(ch)")
            #expect(c.pitch.bendValue == Int32(ch) * 100, "channel \(ch)")
        }
    }
}
