import CLO

/// One OSC message with the argument types the NSM protocol uses. Encoding and decoding go through liblo
/// (a maintained OSC implementation); this type only carries the values across.
public struct OSCMessage: Equatable, Sendable {
    public enum Argument: Equatable, Sendable {
        case string(String)
        case int32(Int32)
    }

    public var path: String
    public var arguments: [Argument]

    public init(_ path: String, _ arguments: [Argument] = []) {
        self.path = path
        self.arguments = arguments
    }

    /// The message's strings, in order (NSM's commands are mostly strings).
    public var strings: [String] {
        arguments.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }

    /// The datagram's bytes.
    public func encoded() -> [UInt8] {
        guard let message = lo_message_new() else { return [] }
        defer { lo_message_free(message) }
        for argument in arguments {
            switch argument {
            case .string(let s): _ = lo_message_add_string(message, s)
            case .int32(let i): _ = lo_message_add_int32(message, i)
            }
        }
        let length = lo_message_length(message, path)
        var bytes = [UInt8](repeating: 0, count: length)
        var size = 0
        bytes.withUnsafeMutableBytes { buffer in _ = lo_message_serialise(message, path, buffer.baseAddress, &size) }
        return Array(bytes.prefix(size))
    }

    /// A datagram read back, or nil when liblo does not accept it as an OSC message. Argument types other
    /// than strings and 32-bit integers are dropped (NSM sends none to a client).
    public static func decode(_ bytes: [UInt8]) -> OSCMessage? {
        var copy = bytes
        return copy.withUnsafeMutableBytes { buffer -> OSCMessage? in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return nil }
            var result: Int32 = 0
            guard let message = lo_message_deserialise(base, buffer.count, &result), result == 0 else { return nil }
            defer { lo_message_free(message) }
            guard let rawPath = lo_get_path(base, buffer.count) else { return nil }
            let path = String(cString: rawPath)
            var arguments: [Argument] = []
            let count = Int(lo_message_get_argc(message))
            if count > 0, let types = lo_message_get_types(message), let argv = lo_message_get_argv(message) {
                for index in 0..<count {
                    switch UInt8(bitPattern: types[index]) {
                    case UInt8(ascii: "s"), UInt8(ascii: "S"):
                        arguments.append(.string(String(cString: backbeat_lo_arg_string(argv, Int32(index)))))
                    case UInt8(ascii: "i"):
                        arguments.append(.int32(backbeat_lo_arg_int32(argv, Int32(index))))
                    default: continue
                    }
                }
            }
            return OSCMessage(path, arguments)
        }
    }
}
