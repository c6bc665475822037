import Glibc

/// Finds a sample file whose name an instrument writes in other letter cases than the disk has: instruments
/// made on Windows or macOS (case-insensitive file systems) often say `Samples/Piano C4.WAV` for
/// `samples/piano c4.wav`. sfizz looks such files up the same way. Each folder is listed once per lookup
/// value, however many samples are looked up in it.
public struct SFZSampleLookup {
    /// Each folder listed so far: its names by their lowercase form (the first name of each form).
    private var listings: [String: [String: String]] = [:]

    public init() {}

    /// `path` if it names an existing file; else the one path whose folders and name match it ignoring ASCII
    /// case (the first in its folder's listing when several do); else nil.
    public mutating func find(_ path: String) -> String? {
        if Self.exists(path) { return path }
        let absolute = path.hasPrefix("/")
        var found = absolute ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            let next = found + "/" + part
            if Self.exists(next) {
                found = next
                continue
            }
            let folder = found.isEmpty ? "/" : found
            if listings[folder] == nil {
                listings[folder] = Dictionary(Self.entries(of: folder).map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
            }
            guard let match = listings[folder]?[part.lowercased()] else { return nil }
            found += "/" + match
        }
        if !absolute { found = String(found.dropFirst(2)) }
        return Self.exists(found) ? found : nil
    }

    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// The names in `folder` (without `.` and `..`); none if it cannot be listed.
    private static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
