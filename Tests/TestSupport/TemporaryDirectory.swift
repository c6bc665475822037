// Fresh directories and file names of a test's own, shared by the test targets.
import Foundation

/// Creates and returns a new directory `<temporary>/<prefix>-<pid>-<random>`, so that tests running at the
/// same time, in this process or another, never share one.
public func makeTemporaryDirectory(_ prefix: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// A path `<temporary>/backbeat-<name>-<pid>-<random>` that no other test uses (nothing is created).
public func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
}

/// A suite whose tests work in a fresh folder of their own (`directory`, from `makeTemporaryDirectory` in
/// its `init`): paths in it, bytes written to it, and what it holds.
public protocol FolderTest {
    var directory: URL { get }
}

extension FolderTest {
    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `bytes` to `name` in the folder; its path.
    public func write(_ bytes: [UInt8], _ name: String) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// The names in the folder, sorted (hidden ones too).
    public var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted() }
}
