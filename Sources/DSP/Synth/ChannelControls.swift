/// The synth's per-channel controller state (16 entries each), in one `ArrayBlock`. Like `VoiceSlots`, plain
/// pointers the synth owns and frees in `deinit`.
struct ChannelControls {
    let bend: UnsafeMutablePointer<Float>           // semitones now
    let bendRange: UnsafeMutablePointer<Float>      // semitones at full bend
    let bendValue: UnsafeMutablePointer<Int32>      // last 14-bit bend - 8192
    let modulation: UnsafeMutablePointer<Float>     // vibrato depth target, semitones
    let vibrato: UnsafeMutablePointer<Float>        // smoothed depth
    let lfoPhase: UnsafeMutablePointer<Float>
    let volume: UnsafeMutablePointer<Float>         // CC7 / 127
    let expression: UnsafeMutablePointer<Float>     // CC11 / 127
    let pan: UnsafeMutablePointer<Float>            // 0 left ... 1 right
    let pedal: UnsafeMutablePointer<UInt8>
    let gainLeft: UnsafeMutablePointer<Float>       // smoothed channel gains
    let gainRight: UnsafeMutablePointer<Float>
    private let block: ArrayBlock

    init(count: Int) {
        var block = ArrayBlock(arrays: 12, count: count, bytesPerEntry: 11 * 4 + 1)
        bend = block.take(count, 0)
        bendRange = block.take(count, 2)
        bendValue = block.take(count, 0)
        modulation = block.take(count, 0)
        vibrato = block.take(count, 0)
        lfoPhase = block.take(count, 0)
        volume = block.take(count, 100.0 / 127)
        expression = block.take(count, 1)
        pan = block.take(count, 0.5)
        pedal = block.take(count, 0)
        gainLeft = block.take(count, 0)
        gainRight = block.take(count, 0)
        self.block = block
    }

    func deallocate() { block.deallocate() }
}
