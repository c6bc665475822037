/// The synth's per-channel controller state (16 entries each), owned by its `ArrayStore` (freed with the
/// synth).
struct ChannelControls: ~Copyable {
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
    private let store: ArrayStore

    init() {
        var store = ArrayStore()
        bend = store.make(channelCount, 0 as Float)
        bendRange = store.make(channelCount, 2 as Float)
        bendValue = store.make(channelCount, 0 as Int32)
        modulation = store.make(channelCount, 0 as Float)
        vibrato = store.make(channelCount, 0 as Float)
        lfoPhase = store.make(channelCount, 0 as Float)
        volume = store.make(channelCount, 100.0 / 127 as Float)
        expression = store.make(channelCount, 1 as Float)
        pan = store.make(channelCount, 0.5 as Float)
        pedal = store.make(channelCount, 0 as UInt8)
        gainLeft = store.make(channelCount, 0 as Float)
        gainRight = store.make(channelCount, 0 as Float)
        self.store = store
    }
}
