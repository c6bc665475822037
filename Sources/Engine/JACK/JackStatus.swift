import CJack

/// `jack_status_t` bits, with readable names for messages.
public struct JackStatus: OptionSet, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    init(_ status: jack_status_t) { rawValue = status.rawValue }

    /// The bit Backbeat sets itself when no server runs and it may not start one.
    public static let serverFailed = JackStatus(JackServerFailed)

    /// Each bit of `jack_status_t` (jack/types.h) and what it means, in libjack's order.
    private static let names: [(jack_status_t, String)] = [
        (JackFailure, "overall failure"), (JackInvalidOption, "invalid option"),
        (JackNameNotUnique, "client name not unique"), (JackServerStarted, "server started"),
        (JackServerFailed, "cannot connect to the server"), (JackServerError, "communication error with the server"),
        (JackNoSuchClient, "no such client"), (JackLoadFailure, "cannot load internal client"),
        (JackInitFailure, "cannot initialize client"), (JackShmFailure, "cannot access shared memory"),
        (JackVersionError, "client/server protocol mismatch"), (JackBackendError, "backend error"),
        (JackClientZombie, "client zombified"),
    ]

    public var description: String {
        let parts = Self.names.filter { rawValue & $0.0.rawValue != 0 }.map(\.1)
        return parts.isEmpty ? "no error" : parts.joined(separator: ", ")
    }
}
