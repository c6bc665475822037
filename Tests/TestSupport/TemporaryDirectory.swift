// A fresh directory of its own for a test's files, shared by the CLI and Engine tests.
import Foundation

/// Creates and returns a new directory `<temporary>/<prefix>-<pid>-<random>`, so that tests running at the
/// same time, in this process or another, never share one.
public func makeTemporaryDirectory(_ prefix: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}
