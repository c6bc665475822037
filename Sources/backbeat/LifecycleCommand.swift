import ArgumentParser
import Lifecycle

struct LifecycleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lifecycle", abstract: "Simulate iOS app lifecycle scenarios.")
    func run() throws { throw ValidationError("lifecycle is not implemented yet") }
}
