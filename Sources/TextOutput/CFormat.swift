#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// `format` with `arguments` put in by C's `vsnprintf` ("%.1f", "%d", "%s" with a C string...): on Linux the
    /// same text as Foundation's `String(format:)`, which hands each number to `snprintf` under the process's
    /// locale too, without Foundation's formatting machinery. The paths a render takes use this one: the
    /// first `String(format:)` of a process maps about 6 MB of Foundation's and ICU's pages (docs/sfz.md,
    /// "Speed"), more than the rest of the render's own memory.
    public init(cFormat format: String, _ arguments: CVarArg...) {
        self = withVaList(arguments) { list in
            // vsnprintf consumes its va_list: a second pass for a longer text needs a list of its own.
            var small = [CChar](repeating: 0, count: 128)
            let needed = Int(vsnprintf(&small, small.count, format, list))
            guard needed >= small.count else { return needed < 0 ? "" : String(decoding: small.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            return withVaList(arguments) { again in
                var large = [CChar](repeating: 0, count: needed + 1)
                _ = vsnprintf(&large, large.count, format, again)
                return String(decoding: large.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }
}
