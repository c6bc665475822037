import CALSA
import CCurses
import CJack
import Foundation
import Testing

/// Links all three system libraries and checks that the versions the runtime reports are the ones we built against.
@Suite struct SystemLibrariesTests {
    @Test func jackReportsAVersion() {
        var major: Int32 = 0, minor: Int32 = 0, micro: Int32 = 0, proto: Int32 = 0
        jack_get_version(&major, &minor, &micro, &proto)
        let text = String(cString: jack_get_version_string())
        // jackd2's libjack reports 0.0.0 from jack_get_version but a real string ("1.9.x").
        #expect(text.hasPrefix("1.9."), "libjack version string: \(text)")
    }

    @Test func alsaRuntimeMatchesHeaders() {
        let runtime = String(cString: snd_asoundlib_version())
        let headers = String(cString: backbeat_alsa_header_version())
        #expect(runtime.hasPrefix("1."))
        #expect(runtime == headers, "libasound \(runtime) vs headers \(headers)")
    }

    @Test func ncursesIsWideAndVersion6() {
        let version = String(cString: curses_version())
        #expect(version.hasPrefix("ncurses 6."), "\(version)")
        // The wide-character API is there: this symbol only exists in ncursesw.
        let wadd: (UnsafeMutablePointer<WINDOW>?, UnsafePointer<cchar_t>?) -> Int32 = wadd_wch
        _ = wadd
    }

    /// Issue 36: every build (and `scripts/run --help`) printed "warning: prohibited flag(s): -D_DEFAULT_SOURCE,
    /// -D_XOPEN_SOURCE=600" twice: SwiftPM takes only -I from a system library's pkg-config cflags and warns
    /// of the rest. No system library of Package.swift may name a pkg-config package that gives it others.
    /// pkg-config is part of every build (scripts/setup installs it): a machine without it fails here too.
    @Test func noSystemLibraryTakesPkgConfigFlagsSwiftPMRefuses() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/pkg-config"), "pkg-config (Debian package pkg-config, scripts/setup)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let names = manifest.matches(of: /\.systemLibrary\(name: "(\w+)", pkgConfig: "([\w.+-]+)"/).map { (String($0.1), String($0.2)) }
        #expect(names.count >= 4, "\(names)")
        for (target, package) in names {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/pkg-config")
            process.arguments = ["--cflags", package]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let flags = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "pkg-config \(package)")
            let refused = flags.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .filter { !$0.isEmpty && !$0.hasPrefix("-I") }
            #expect(refused.isEmpty, "\(target): pkg-config \(package) gives \(refused), which SwiftPM refuses with a warning")
        }
    }
}
