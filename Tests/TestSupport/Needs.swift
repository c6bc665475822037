// What a test needs installed (a font, a tool, the built binary, fixtures), as one trait for tests and suites:
// `@Test(.needs(condition, "what is missing and which package brings it"))`. A skip on a missing dependency
// hides a test that never ran, so CI (the environment variable CI is "true"), where scripts/setup test has
// installed everything, fails such a test with the reason instead; elsewhere (a newcomer's machine) it is
// skipped with the reason. Gates no install can satisfy (a CPU feature, a device the machine has, an opt-in
// generator) stay plain `.enabled(if:)` skips.
import Foundation
import Testing

/// A dependency of a test or of every test of a suite: present, the test runs; missing, it fails on CI and is
/// skipped elsewhere, with `reason` either way.
public struct Needs: TestTrait, SuiteTrait {
    let isPresent: @Sendable () -> Bool
    let reason: String
    let onCI: Bool

    /// Each test of a suite checks for itself, as `ConditionTrait` does: a failure is then the test's own.
    public var isRecursive: Bool { true }
    public var comments: [Comment] { [Comment(rawValue: reason)] }

    /// What the trait does with a test: run it, fail it with the reason, or skip it with the reason.
    public enum Verdict: Equatable, Sendable { case run, fail(String), skip(String) }

    public var verdict: Verdict {
        isPresent() ? .run : onCI ? .fail(reason) : .skip(reason)
    }

    public func prepare(for test: Test) async throws {
        switch verdict {
        case .run: return
        case .fail: throw MissingDependency(reason: reason)
        // ConditionTrait's own skip, so the runner reports it as any skipped test, with the reason.
        case .skip(let reason): try await ConditionTrait.enabled(if: false, Comment(rawValue: reason)).prepare(for: test)
        }
    }

    /// Whether this run is CI's: the environment variable CI is "true" (as GitHub Actions and most CI set it).
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
}

/// A dependency missing where it must be there (CI): the test fails with this, naming it.
public struct MissingDependency: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { "missing on CI (CI=true), where every test must run: \(reason)" }
}

extension Trait where Self == Needs {
    /// Runs the test when `condition` holds; otherwise fails it on CI and skips it elsewhere, saying `reason`
    /// (what is missing and which package or step brings it). `onCI` is for the trait's own tests.
    public static func needs(_ condition: @autoclosure @escaping @Sendable () -> Bool, _ reason: String,
                             onCI: Bool = Needs.isCI) -> Self {
        Needs(isPresent: condition, reason: reason, onCI: onCI)
    }

    /// The file at `path` (a font, a fixture), which Debian package `package` installs.
    public static func needs(file path: String, package: String) -> Self {
        .needs(FileManager.default.fileExists(atPath: path), "needs \(path): Debian package \(package) (scripts/setup test)")
    }

    /// The program at `path` (/usr/bin/tmux), which Debian package `package` installs.
    public static func needs(executable path: String, package: String) -> Self {
        .needs(FileManager.default.isExecutableFile(atPath: path), "needs \(path): Debian package \(package) (scripts/setup test)")
    }

    /// FluidSynth, the reference player, in /usr/bin or /usr/local/bin.
    public static var needsFluidSynth: Self {
        .needs(["/usr/bin/fluidsynth", "/usr/local/bin/fluidsynth"].contains { FileManager.default.isExecutableFile(atPath: $0) },
               "needs fluidsynth in /usr/bin or /usr/local/bin: Debian package fluidsynth (scripts/setup test)")
    }

    /// The `backbeat` binary built beside the tests (`backbeatBinary`).
    public static var needsBackbeatBinary: Self {
        .needs(backbeatBinary != nil, "needs the backbeat binary: swift build --build-tests builds it")
    }
}
