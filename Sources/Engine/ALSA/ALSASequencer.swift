import CALSA
import Foundation
import MIDI
import Realtime
import Synchronization
import SystemPackage

/// Backbeat's ALSA sequencer client: a client named like the JACK client with one writable, subscribable
/// port `midi_in`, subscribed to System:Announce, and a reader thread that polls the sequencer's
/// descriptors (and a pipe, to stop it) and pushes what arrives into the engine's ALSA ring.
///
/// MIDI out: a readable, subscribable port `midi_out`. The real-time callback pushes what it sends (the same
/// messages as JACK's midi_out) into `outRing`; the real-time thread may not write to a pipe to wake this
/// thread, so while a port is open the reader's poll wakes every `outPollMilliseconds` to send what waits
/// there (that is the added latency: at most a few milliseconds).
///
/// Sysex travels in two parts: its bytes into `sysexRing` (this thread is its only producer), then
/// `.sysex(length:, .alsa)` into `ring`; the real-time callback moves that many bytes to the monitor's sysex
/// ring and gives the message to the synth. A sysex is sent only
/// when its bytes and its event both fit (else it is dropped and counted), so the two stay in step.
final class ALSASequencer: @unchecked Sendable {
    /// The device alsa-lib's "default" sequencer opens (named in errors).
    static var device: String { SequencerClient.device }

    /// The sequencer client, closed when this goes (after `stop`).
    private let client: SequencerClient
    let clientID: Int32
    let port: Int32
    let clientName: String
    private let ring: SPSCRing<ControlEvent>
    private let sysexRing: SPSCRing<UInt8>
    private let log: @Sendable (String) -> Void
    /// `--alsa-connect` sources, subscribed at start and again whenever a port appears.
    private let wanted: [String]
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)
    private var running = false
    /// Reader thread only.
    private var decoder = ALSAEventDecoder()
    private var clientNames: [UInt8: String] = [:]
    private let sysexDrops = Atomic<Int>(0)
    let outPort: Int32
    private let outRing: SPSCRing<ShortMessage>
    /// Messages the sequencer did not take (its output pool full); reader thread writes, anyone reads.
    private let outDrops = Atomic<Int>(0)
    static let outPollMilliseconds: Int32 = 2

    /// Opens the sequencer and creates the port; throws an `ALSAError` naming `/dev/snd/seq` when it cannot.
    init(clientName: String, connect: [String], ring: SPSCRing<ControlEvent>, sysexRing: SPSCRing<UInt8>,
         outRing: SPSCRing<ShortMessage>, log: @escaping @Sendable (String) -> Void) throws {
        let client = try SequencerClient()
        try client.setName(clientName)
        port = try client.createPort("midi_in", input: true)
        outPort = try client.createPort("midi_out", input: false)
        try client.subscribeToAnnouncements(port)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw ALSAError("cannot create the ALSA reader's wake-up pipe", Errno.last) }
        self.clientID = client.clientID
        self.client = client
        self.outRing = outRing
        self.clientName = clientName
        self.ring = ring
        self.sysexRing = sysexRing
        self.log = log
        self.wanted = connect
        wakeRead = fds[0]
        wakeWrite = fds[1]
        connectWanted(initial: true)
    }

    deinit {
        stop()
        close(wakeRead)
        close(wakeWrite)
    }

    /// "backbeat:midi_in (128:0)": client name, port, client and port numbers.
    var address: String { "\(clientName):midi_in (\(clientID):\(port))" }
    var sysexDropped: Int { sysexDrops.load(ordering: .relaxed) }

    func start() {
        guard !running else { return }
        running = true
        let thread = Thread { [self] in readLoop() }
        thread.name = "backbeat-alsa-seq"
        thread.start()
    }

    /// Wakes the reader through its pipe and waits until it has ended. Idempotent.
    func stop() {
        guard running else { return }
        running = false
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        finished.wait()
    }

    // MARK: - Reader thread

    private func readLoop() {
        defer { finished.signal() }
        var fds = client.inputPollDescriptors(extra: 1)
        let count = fds.count - 1
        fds[count] = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        let encoder: MIDIEventEncoder
        do throws(ALSAError) { encoder = try MIDIEventEncoder() } catch {
            log(error.description)
            return
        }
        while true {
            let ready: Int32
            do throws(Errno) {
                ready = try SystemCall.retryOnInterrupt { poll(&fds, nfds_t(fds.count), Self.outPollMilliseconds) }
            } catch {
                log("ALSA sequencer: poll failed: \(error)")
                return
            }
            if fds[count].revents != 0 { return }
            if ready > 0 { drainEvents() }
            sendOutgoing(encoder)
        }
    }

    /// Sends what the real-time callback queued for midi_out to midi_out's subscribers, at once.
    private func sendOutgoing(_ encoder: borrowing MIDIEventEncoder) {
        while let message = outRing.pop() {
            var bytes: [UInt8] = [message.status, message.data1, message.data2]
            guard var event = encoder.encode(&bytes, size: midiMessageSize(status: message.status)) else { continue }
            if !client.send(&event, from: outPort) { outDrops.wrappingAdd(1, ordering: .relaxed) }
        }
    }

    private func drainEvents() {
        while true {
            let (result, event) = client.nextEvent()
            if result == -EAGAIN { return }
            if result == -ENOSPC {
                log("ALSA sequencer: input overrun, events were lost")
                continue
            }
            if result < 0 { return }
            guard let event else { continue }
            decoder.decode(event.pointee) { handle($0) }
        }
    }

    private func handle(_ input: ALSAInput) {
        switch input {
        case .message(let message):
            _ = ring.push(.midi(message, .alsa))  // a full ring counts the drop itself
        case .sysex(let bytes, _):
            pushSysex(bytes)
        case .announcement(let announcement):
            announce(announcement)
        }
    }

    private func pushSysex(_ bytes: [UInt8]) {
        // Producer side: `count` can only shrink under us, so these free-space figures are safe lower bounds.
        guard bytes.count <= 0xFFFF, sysexRing.capacity - sysexRing.count >= bytes.count, ring.capacity - ring.count >= 1 else {
            sysexDrops.wrappingAdd(1, ordering: .relaxed)
            return
        }
        _ = bytes.withUnsafeBufferPointer { sysexRing.push(contentsOf: $0) }
        _ = ring.push(.sysex(length: UInt32(bytes.count), .alsa))
    }

    private func announce(_ announcement: ALSAAnnouncement) {
        let client = announcement.client
        if client == UInt8(truncatingIfNeeded: clientID) && announcement.kind != .subscribed && announcement.kind != .unsubscribed { return }
        switch announcement.kind {
        case .clientStart:
            log("ALSA: client \(client) appeared")
        case .clientExit:
            log("ALSA: client \(client) '\(clientNames[client] ?? "?")' went away")
            clientNames[client] = nil
        case .clientChange:
            clientNames[client] = name(of: client)
        case .portStart:
            let label = name(of: client)
            clientNames[client] = label
            log("ALSA: port \(client):\(announcement.port) of '\(label)' appeared")
            connectWanted(initial: false)
        case .portExit:
            log("ALSA: port \(client):\(announcement.port) of '\(clientNames[client] ?? "?")' went away")
        case .portChange:
            break
        case .subscribed, .unsubscribed:
            guard announcement.destinationClient == UInt8(truncatingIfNeeded: clientID),
                  announcement.destinationPort == UInt8(truncatingIfNeeded: port) else { return }
            let verb = announcement.kind == .subscribed ? "connected to" : "disconnected from"
            log("ALSA: \(clientNames[client] ?? name(of: client)) (\(client):\(announcement.port)) \(verb) \(clientName):midi_in")
        }
    }

    private func name(of client: UInt8) -> String {
        self.client.clientName(client) ?? "?"
    }

    /// Subscribes every `--alsa-connect` source that exists and is not subscribed yet.
    private func connectWanted(initial: Bool) {
        for spec in wanted {
            guard let address = client.address(spec) else {
                if initial { log("ALSA source '\(spec)' is not there; Backbeat subscribes it when it appears") }
                continue
            }
            if isSubscribed(address) { continue }
            do throws(ALSAError) {
                try client.connect(port, from: Int32(address.client), Int32(address.port),
                                   what: "ALSA: cannot subscribe \(spec) (\(address.client):\(address.port))")
                log("ALSA: subscribed \(spec) (\(address.client):\(address.port)) to \(clientName):midi_in")
            } catch {
                log(error.description)
            }
        }
    }

    private func isSubscribed(_ source: snd_seq_addr_t) -> Bool {
        client.isSubscribed(source, to: snd_seq_addr_t(client: UInt8(truncatingIfNeeded: clientID),
                                                       port: UInt8(truncatingIfNeeded: port)))
    }
}
