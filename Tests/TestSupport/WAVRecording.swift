// Reading WAV files the tests recorded or rendered: shared by the CLI and Engine tests.
import Foundation

/// A WAV file read into floats, one array per channel (PCM 16/24/32-bit or IEEE float 32): what jack_rec,
/// `backbeat render` and `fluidsynth -F` write.
public struct WAVRecording {
    public var sampleRate: Int
    public var channels: [[Float]]

    public init(path: String) throws {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 | Int(data[at + 2]) << 16 | Int(data[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
        guard data.count >= 12, data[0..<4].elementsEqual("RIFF".utf8), data[8..<12].elementsEqual("WAVE".utf8) else {
            throw HarnessError("\(path): not a RIFF/WAVE file")
        }
        var offset = 12
        var format = 0, channelCount = 0, rate = 0, bits = 0
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<offset + 4], as: UTF8.self)
            var size = u32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                format = u16(body); channelCount = u16(body + 2); rate = u32(body + 4); bits = u16(body + 14)
                if format == 0xFFFE { format = u16(body + 24) }
            } else if id == "data" {
                if size == 0 || body + size > data.count { size = data.count - body }  // jack_rec killed early
                let bytesPerSample = bits / 8
                let frames = size / (bytesPerSample * max(channelCount, 1))
                var channels = Array(repeating: [Float](repeating: 0, count: frames), count: channelCount)
                for frame in 0..<frames {
                    for channel in 0..<channelCount {
                        let at = body + (frame * channelCount + channel) * bytesPerSample
                        let value: Float
                        switch (format, bits) {
                        case (3, 32): value = Float(bitPattern: UInt32(u32(at)))
                        case (1, 16): value = Float(Int16(bitPattern: UInt16(u16(at)))) / 32768
                        case (1, 24): value = Float(Int32(bitPattern: UInt32(u32(at - 1) & ~0xFF)) >> 8) / 8_388_608
                        case (1, 32): value = Float(Int32(bitPattern: UInt32(u32(at)))) / 2_147_483_648
                        default: throw HarnessError("\(path): unsupported WAV format \(format)/\(bits) bits")
                        }
                        channels[channel][frame] = value
                    }
                }
                sampleRate = rate
                self.channels = channels
                return
            }
            offset = body + size + (size & 1)
        }
        throw HarnessError("\(path): no data chunk")
    }
}
