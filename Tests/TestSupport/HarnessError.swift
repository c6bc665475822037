/// A test harness failure whose message says what went wrong (a process that did not start, a line that did
/// not come).
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
