/// What runs the real-time context against an audio device: a JACK client (`JackSession`) or an ALSA PCM
/// device (`ALSAPCMBackend`). Each calls `RealtimeContext`'s period entry on its own real-time thread (JACK's
/// process callback, the PCM thread); the engine reads what it shows in its status through this protocol.
/// Non-real-time: nothing here is called from the real-time thread.
///
/// A new backend implements this, renders each period with `RealtimeContext.process(frames:left:right:...)`
/// after the engine prepared the context for its rate (`Engine.prepare(sampleRate:)`), and is opened by the
/// engine's `start()` for its `AudioDriver` case.
protocol AudioBackend: AnyObject {
    /// The sample rate the device runs at.
    var sampleRate: Int { get }
    /// Frames per period (JACK's buffer size, the PCM's period).
    var periodFrames: Int { get }
    /// The backend's running frame count, for monitor times.
    var frameTime: UInt32 { get }
    /// The device's own DSP load estimate in percent (JACK's), 0 where it has none.
    var deviceLoad: Float { get }
}
