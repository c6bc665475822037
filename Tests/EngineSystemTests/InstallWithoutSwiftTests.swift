import Foundation
import Testing

/// `scripts/install --binary FILE` with no Swift toolchain on PATH: nothing is built, the man page is the
/// repository's docs/backbeat.1, and the completions come from the binary.
@Suite struct InstallWithoutSwiftTests {
    @Test func aBinaryInstallsWithoutSwift() throws {
        let root = NSTemporaryDirectory() + "backbeat-binary-install-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        // The system's PATH without the toolchain's folder.
        let path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        let noSwift = try InstalledPrefix.shell("PATH=\(path); command -v swift || echo none", in: root)
        try #require(noSwift.output.contains("none"), "swift is on \(path): the test cannot show an install without it (\(noSwift.output))")
        let repository = InstalledPrefix.repository
        let result = try InstalledPrefix.shell("PATH=\(path) '\(repository)/scripts/install' --prefix '\(root)/prefix' --binary '\(backbeatExecutable())'", in: root)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("swift build"), "\(result.output)")
        let installed = try Data(contentsOf: URL(fileURLWithPath: root + "/prefix/share/man/man1/backbeat.1"))
        let shipped = try Data(contentsOf: URL(fileURLWithPath: repository + "/docs/backbeat.1"))
        #expect(installed == shipped)
        for file in ["bin/backbeat", "share/bash-completion/completions/backbeat", "share/zsh/site-functions/_backbeat",
                     "share/fish/vendor_completions.d/backbeat.fish"] {
            #expect(FileManager.default.fileExists(atPath: root + "/prefix/" + file), "missing \(file)")
        }
        let removed = try InstalledPrefix.shell("PATH=\(path) '\(repository)/scripts/install' --prefix '\(root)/prefix' --uninstall", in: root)
        #expect(removed.status == 0, "\(removed.output)")
    }
}
