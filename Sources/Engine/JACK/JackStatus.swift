import CJack

/// `jack_status_t` bits, as a Swift option set with readable names.
public struct JackStatus: OptionSet, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    init(_ status: jack_status_t) { rawValue = status.rawValue }

    public static let failure = JackStatus(rawValue: JackFailure.rawValue)
    public static let invalidOption = JackStatus(rawValue: JackInvalidOption.rawValue)
    public static let nameNotUnique = JackStatus(rawValue: JackNameNotUnique.rawValue)
    public static let serverStarted = JackStatus(rawValue: JackServerStarted.rawValue)
    public static let serverFailed = JackStatus(rawValue: JackServerFailed.rawValue)
    public static let serverError = JackStatus(rawValue: JackServerError.rawValue)
    public static let noSuchClient = JackStatus(rawValue: JackNoSuchClient.rawValue)
    public static let loadFailure = JackStatus(rawValue: JackLoadFailure.rawValue)
    public static let initFailure = JackStatus(rawValue: JackInitFailure.rawValue)
    public static let shmFailure = JackStatus(rawValue: JackShmFailure.rawValue)
    public static let versionError = JackStatus(rawValue: JackVersionError.rawValue)
    public static let backendError = JackStatus(rawValue: JackBackendError.rawValue)
    public static let clientZombie = JackStatus(rawValue: JackClientZombie.rawValue)

    public var description: String {
        let names: [(JackStatus, String)] = [
            (.failure, "overall failure"), (.invalidOption, "invalid option"), (.nameNotUnique, "client name not unique"),
            (.serverStarted, "server started"), (.serverFailed, "cannot connect to the server"),
            (.serverError, "communication error with the server"), (.noSuchClient, "no such client"),
            (.loadFailure, "cannot load internal client"), (.initFailure, "cannot initialize client"),
            (.shmFailure, "cannot access shared memory"), (.versionError, "client/server protocol mismatch"),
            (.backendError, "backend error"), (.clientZombie, "client zombified"),
        ]
        let parts = names.filter { contains($0.0) }.map(\.1)
        return parts.isEmpty ? "no error" : parts.joined(separator: ", ")
    }
}
