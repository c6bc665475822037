/// The JACK server names Backbeat accepts: the ones jackd can start under without surprises.
///
/// jackd builds file names from the server name (its socket `/dev/shm/jack_NAME_UID_0`, semaphores
/// `jack_sem.UID_NAME_...`), so a `/` or `..` in a name points those files elsewhere and jackd fails with
/// an unrelated error. Accepted: letters, digits, `-`, `_` and `.`, not starting with `.`, 1 to 64
/// characters (a socket path must fit in 108 bytes).
public enum JackServerNameRule {
    public static let maximumLength = 64

    /// Why `name` cannot name a JACK server, or nil when it can.
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name.utf8.count > maximumLength { return "it is longer than \(maximumLength) characters" }
        if name.hasPrefix(".") { return "it starts with '.'" }
        if let bad = name.unicodeScalars.first(where: { !isAllowed($0) }) {
            let shown = bad.properties.generalCategory == .control || bad == " "
                ? "U+" + String(bad.value, radix: 16, uppercase: true) : "'\(bad)'"
            return "it contains \(shown); use letters, digits, '-', '_' and '.'"
        }
        return nil
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
        default: false
        }
    }
}
