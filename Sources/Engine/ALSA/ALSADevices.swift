// The ALSA door's two handles: every alsa-lib call Backbeat makes on a PCM device or on the sequencer is a
// method here, named once, so no other file calls `snd_*`. Each handle is a `~Copyable` owner: it closes
// its device in its own `deinit`, also when a configuration step fails half-way.
import CALSA
import SystemPackage

/// A PCM device open for playback. Setting it up throws an `ALSAError` naming the device, what was refused,
/// the alsa-lib call and ALSA's reason; the PCM thread's calls (`available`, `write`, `recover`...) return
/// alsa-lib's result as it is (negative: an error code for `ALSA.reason`), neither throwing nor allocating.
struct PCMDevice: ~Copyable {
    /// The device's name, as in errors.
    let name: String
    private let handle: OpaquePointer

    /// What the device agreed to: sample format, rate, period and buffer sizes in frames.
    struct Configuration {
        var float32: Bool, rate: Int, period: Int, buffer: Int
    }

    /// Opens `name` for playback, non-blocking (snd_pcm_open).
    init(playback name: String) throws(ALSAError) {
        var pcm: OpaquePointer?
        let what = "cannot open ALSA PCM device '\(name)' for playback"
        try ALSA.call(what, "snd_pcm_open") { snd_pcm_open(&pcm, name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK) }
        guard let pcm else { throw ALSAError(what, call: "snd_pcm_open", code: -ENODEV) }
        self.name = name
        handle = pcm
    }

    deinit { snd_pcm_close(handle) }

    /// `ALSA.call`, naming the device.
    private func check(_ what: String, _ call: StaticString, _ body: () -> Int32) throws(ALSAError) {
        try ALSA.call("ALSA PCM device '\(name)': \(what)", call, body)
    }

    /// Runs `body` with a parameter block that `allocate` (alsa-lib's `call`) makes and `free` frees after it.
    private func withParameters<R>(_ kind: String, _ allocate: (UnsafeMutablePointer<OpaquePointer?>) -> Int32,
                                   _ call: StaticString, free: (OpaquePointer?) -> Void,
                                   _ body: (OpaquePointer?) throws(ALSAError) -> R) throws(ALSAError) -> R {
        var parameters: OpaquePointer?
        try check("cannot allocate \(kind) parameters", call) { allocate(&parameters) }
        defer { free(parameters) }
        return try body(parameters)
    }

    /// Stereo interleaved float32 (else S16), the rate, period and period count nearest to those asked for;
    /// starts once the buffer is full, wakes when a period is free.
    func configure(rate: Int, period: Int, periods: Int) throws(ALSAError) -> Configuration {
        let agreed = try withParameters("hardware", snd_pcm_hw_params_malloc, "snd_pcm_hw_params_malloc",
                                        free: snd_pcm_hw_params_free) { hw throws(ALSAError) in
            try hardware(hw, rate: rate, period: period, periods: periods)
        }
        try withParameters("software", snd_pcm_sw_params_malloc, "snd_pcm_sw_params_malloc",
                           free: snd_pcm_sw_params_free) { sw throws(ALSAError) in
            try check("cannot read software parameters", "snd_pcm_sw_params_current") { snd_pcm_sw_params_current(handle, sw) }
            try check("start threshold refused", "snd_pcm_sw_params_set_start_threshold") {
                snd_pcm_sw_params_set_start_threshold(handle, sw, snd_pcm_uframes_t(agreed.buffer))
            }
            try check("wake-up threshold refused", "snd_pcm_sw_params_set_avail_min") {
                snd_pcm_sw_params_set_avail_min(handle, sw, snd_pcm_uframes_t(agreed.period))
            }
            try check("software parameters refused", "snd_pcm_sw_params") { snd_pcm_sw_params(handle, sw) }
        }
        return agreed
    }

    /// The hardware half of `configure`: access, format, channels, rate, period size and count.
    private func hardware(_ hw: OpaquePointer?, rate: Int, period: Int, periods: Int) throws(ALSAError) -> Configuration {
        try check("cannot read its configuration space", "snd_pcm_hw_params_any") { snd_pcm_hw_params_any(handle, hw) }
        try check("interleaved read/write access refused", "snd_pcm_hw_params_set_access") {
            snd_pcm_hw_params_set_access(handle, hw, SND_PCM_ACCESS_RW_INTERLEAVED)
        }
        let float32 = snd_pcm_hw_params_test_format(handle, hw, SND_PCM_FORMAT_FLOAT_LE) == 0
        try check(float32 ? "float32 samples refused" : "accepts neither float32 nor S16 samples",
                  "snd_pcm_hw_params_set_format") {
            snd_pcm_hw_params_set_format(handle, hw, float32 ? SND_PCM_FORMAT_FLOAT_LE : SND_PCM_FORMAT_S16_LE)
        }
        try check("2 channels refused", "snd_pcm_hw_params_set_channels") { snd_pcm_hw_params_set_channels(handle, hw, 2) }
        var actualRate = UInt32(rate)
        try check("rate \(rate) Hz refused", "snd_pcm_hw_params_set_rate_near") {
            snd_pcm_hw_params_set_rate_near(handle, hw, &actualRate, nil)
        }
        var actualPeriod = snd_pcm_uframes_t(period)
        try check("period of \(period) frames refused", "snd_pcm_hw_params_set_period_size_near") {
            snd_pcm_hw_params_set_period_size_near(handle, hw, &actualPeriod, nil)
        }
        var actualPeriods = UInt32(periods)
        try check("\(periods) periods refused", "snd_pcm_hw_params_set_periods_near") {
            snd_pcm_hw_params_set_periods_near(handle, hw, &actualPeriods, nil)
        }
        try check("configuration (\(rate) Hz, \(period) frames x \(periods)) refused", "snd_pcm_hw_params") {
            snd_pcm_hw_params(handle, hw)
        }
        var buffer: snd_pcm_uframes_t = 0
        _ = snd_pcm_hw_params_get_buffer_size(hw, &buffer)
        _ = snd_pcm_hw_params_get_period_size(hw, &actualPeriod, nil)
        _ = snd_pcm_hw_params_get_rate(hw, &actualRate, nil)
        return Configuration(float32: float32, rate: Int(actualRate), period: Int(actualPeriod), buffer: Int(buffer))
    }

    // MARK: The PCM thread's calls

    /// How many poll descriptors the device has (snd_pcm_poll_descriptors_count).
    var pollDescriptorCount: Int { Int(snd_pcm_poll_descriptors_count(handle)) }

    /// Fills `count` descriptors to poll for the device (snd_pcm_poll_descriptors).
    func pollDescriptors(_ fds: UnsafeMutablePointer<pollfd>, count: Int) {
        _ = snd_pcm_poll_descriptors(handle, fds, UInt32(count))
    }

    /// The device's events from the revents of its `count` descriptors (snd_pcm_poll_descriptors_revents).
    func pollEvents(_ fds: UnsafeMutablePointer<pollfd>, count: Int) -> UInt16 {
        var events: UInt16 = 0
        _ = snd_pcm_poll_descriptors_revents(handle, fds, UInt32(count), &events)
        return events
    }

    /// Frames free in the device's buffer, or a negative error code (snd_pcm_avail_update).
    func available() -> Int { snd_pcm_avail_update(handle) }

    /// The stream is prepared, not yet running (snd_pcm_state).
    var isPrepared: Bool { snd_pcm_state(handle) == SND_PCM_STATE_PREPARED }
    /// The stream is suspended (power management) (snd_pcm_state).
    var isSuspended: Bool { snd_pcm_state(handle) == SND_PCM_STATE_SUSPENDED }

    /// Starts the stream; 0 or a negative error code (snd_pcm_start).
    func start() -> Int32 { snd_pcm_start(handle) }

    /// Writes up to `frames` interleaved frames from `bytes`; the frames written or a negative error code,
    /// -EAGAIN when the buffer is full (snd_pcm_writei).
    func write(_ bytes: UnsafeRawPointer, frames: Int) -> Int {
        snd_pcm_writei(handle, bytes, snd_pcm_uframes_t(frames))
    }

    /// Waits up to `milliseconds` for room in the buffer (snd_pcm_wait).
    func wait(milliseconds: Int32) { _ = snd_pcm_wait(handle, milliseconds) }

    /// Recovers from `code` (an underrun, a suspend), silently; 0 or the error that could not be recovered
    /// (snd_pcm_recover).
    func recover(_ code: Int32) -> Int32 { snd_pcm_recover(handle, code, 1) }

    /// Drops what is queued in the device (snd_pcm_drop).
    func drop() { snd_pcm_drop(handle) }
}

/// A client of the ALSA sequencer ("default", duplex, non-blocking). Setting it up throws an `ALSAError`
/// naming the device, the step, the call and ALSA's reason; the reader thread's calls return results.
struct SequencerClient: ~Copyable {
    /// The device alsa-lib's "default" sequencer opens (named in errors).
    static let device = "/dev/snd/seq"
    private let handle: OpaquePointer

    /// Opens the sequencer (alsa-lib's own stderr diagnostics silenced: Backbeat says a failure in one line)
    /// (snd_seq_open).
    init() throws(ALSAError) {
        var seq: OpaquePointer?
        backbeat_alsa_silence_errors(1)
        let opened = snd_seq_open(&seq, "default", SND_SEQ_OPEN_DUPLEX, SND_SEQ_NONBLOCK)
        backbeat_alsa_silence_errors(0)
        let what = "cannot open the ALSA sequencer \(Self.device)"
        try ALSA.call(what, "snd_seq_open") { opened }
        guard let seq else { throw ALSAError(what, call: "snd_seq_open", code: -ENODEV) }
        handle = seq
    }

    /// Names the client, as other clients list it (snd_seq_set_client_name).
    func setName(_ name: String) throws(ALSAError) {
        try ALSA.call("cannot name the ALSA sequencer client \(name)", "snd_seq_set_client_name") {
            snd_seq_set_client_name(handle, name)
        }
    }

    deinit { snd_seq_close(handle) }

    /// This client's number (snd_seq_client_id).
    var clientID: Int32 { snd_seq_client_id(handle) }

    /// A new subscribable port: writable (`input`: others send to it) or readable (snd_seq_create_simple_port).
    func createPort(_ name: String, input: Bool) throws(ALSAError) -> Int32 {
        try ALSA.call("cannot create the ALSA sequencer port \(name)", "snd_seq_create_simple_port") {
            snd_seq_create_simple_port(handle, name, input ? backbeat_seq_port_caps_midi_in() : backbeat_seq_port_caps_midi_out(),
                                       backbeat_seq_port_type_app())
        }
    }

    /// Subscribes `port` to the source `client:sourcePort`; `what` names it in the error (snd_seq_connect_from).
    func connect(_ port: Int32, from client: Int32, _ sourcePort: Int32, what: String) throws(ALSAError) {
        try ALSA.call(what, "snd_seq_connect_from") { snd_seq_connect_from(handle, port, client, sourcePort) }
    }

    /// Subscribes `port` to System:Announce (clients and ports coming and going).
    func subscribeToAnnouncements(_ port: Int32) throws(ALSAError) {
        try connect(port, from: backbeat_seq_client_system(), backbeat_seq_port_system_announce(),
                    what: "cannot subscribe to the ALSA sequencer's System:Announce port")
    }

    /// The descriptors to poll for input (snd_seq_poll_descriptors), with `extra` room at the end.
    func inputPollDescriptors(extra: Int) -> [pollfd] {
        let count = Int(snd_seq_poll_descriptors_count(handle, Int16(POLLIN)))
        var fds = [pollfd](repeating: pollfd(), count: count + extra)
        _ = fds.withUnsafeMutableBufferPointer { snd_seq_poll_descriptors(handle, $0.baseAddress, UInt32(count), Int16(POLLIN)) }
        return fds
    }

    /// The next input event: its result (0 or more: events left; -EAGAIN: none; -ENOSPC: input overrun)
    /// and the event, valid until the next call (snd_seq_event_input).
    func nextEvent() -> (result: Int32, event: UnsafeMutablePointer<snd_seq_event_t>?) {
        var event: UnsafeMutablePointer<snd_seq_event_t>?
        let result = snd_seq_event_input(handle, &event)
        return (result, event)
    }

    /// Sends `event` from `port` to its subscribers at once; false when the sequencer did not take it
    /// (snd_seq_event_output_direct).
    func send(_ event: inout snd_seq_event_t, from port: Int32) -> Bool {
        backbeat_seq_event_set_output(&event, port)
        return snd_seq_event_output_direct(handle, &event) >= 0
    }

    /// The address `spec` ("client:port", or names) names, or nil (snd_seq_parse_address).
    func address(_ spec: String) -> snd_seq_addr_t? {
        var address = snd_seq_addr_t()
        return snd_seq_parse_address(handle, &address, spec) >= 0 ? address : nil
    }

    /// The name of client `client`, or nil (snd_seq_get_any_client_info).
    func clientName(_ client: UInt8) -> String? {
        var info: OpaquePointer?
        guard snd_seq_client_info_malloc(&info) == 0, let info else { return nil }
        defer { snd_seq_client_info_free(info) }
        guard snd_seq_get_any_client_info(handle, Int32(client), info) == 0 else { return nil }
        return String(cString: snd_seq_client_info_get_name(info))
    }

    /// Whether `source` is subscribed to `destination` (snd_seq_get_port_subscription).
    func isSubscribed(_ source: snd_seq_addr_t, to destination: snd_seq_addr_t) -> Bool {
        var subscription: OpaquePointer?
        guard snd_seq_port_subscribe_malloc(&subscription) == 0, let subscription else { return false }
        defer { snd_seq_port_subscribe_free(subscription) }
        var sender = source, receiver = destination
        snd_seq_port_subscribe_set_sender(subscription, &sender)
        snd_seq_port_subscribe_set_dest(subscription, &receiver)
        return snd_seq_get_port_subscription(handle, subscription) == 0
    }
}

/// alsa-lib's MIDI byte encoder (snd_midi_event), which turns a short message into a sequencer event.
struct MIDIEventEncoder: ~Copyable {
    private let handle: OpaquePointer

    init() throws(ALSAError) {
        var encoder: OpaquePointer?
        try ALSA.call("ALSA sequencer: cannot create the MIDI encoder for midi_out", "snd_midi_event_new") {
            snd_midi_event_new(16, &encoder)
        }
        guard let encoder else {
            throw ALSAError("ALSA sequencer: cannot create the MIDI encoder for midi_out", call: "snd_midi_event_new", code: -ENOMEM)
        }
        handle = encoder
    }

    deinit { snd_midi_event_free(handle) }

    /// The event of the `size` bytes of `bytes` (one whole message), or nil when they do not make one
    /// (snd_midi_event_encode).
    func encode(_ bytes: inout [UInt8], size: Int) -> snd_seq_event_t? {
        var event = snd_seq_event_t()
        snd_midi_event_reset_encode(handle)
        let used = bytes.withUnsafeMutableBufferPointer { snd_midi_event_encode(handle, $0.baseAddress, size, &event) }
        guard used == size, event.type != UInt8(SND_SEQ_EVENT_NONE.rawValue) else { return nil }
        return event
    }
}
