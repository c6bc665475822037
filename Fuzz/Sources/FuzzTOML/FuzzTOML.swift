import FuzzDriver
import TOML

/// Feeds arbitrary bytes to the TOML parser: it must throw or succeed, never trap. An error must point into
/// the input and name no raw control character; a table it reads, written back as TOML, must read again
/// equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTOML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let table: TOMLTable
    do {
        table = try TOMLTable(bytes: bytes)
    } catch {
        let lines = bytes.count { $0 == UInt8(ascii: "\n") } + 1
        if error.line < 1 || error.line > lines || error.column < 1 { fatalError("error outside the input: \(error)") }
        if error.message.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            fatalError("control character in the message: \(error.message.debugDescription)")
        }
        return 0
    }
    let text = table.tomlText
    guard let back = try? TOMLTable(string: text) else { fatalError("written text does not read:\n\(text)") }
    if back != table { fatalError("written text reads differently:\n\(text)") }
    return 0
}

// libFuzzer's driver runs from SwiftPM's entry point (Fuzz/Sources/FuzzDriver).
@_cdecl("FuzzTOML_main")
public func fuzzerEntryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzTOML(data, size) }
}
