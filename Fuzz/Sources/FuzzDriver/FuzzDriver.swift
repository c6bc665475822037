// SwiftPM links an executable with `main` aliased to `<Target>_main` (its testable-executable entry point), so
// libFuzzer's own main is not used: each fuzz target's `<Target>_main` hands over to libFuzzer's driver here.

/// What libFuzzer calls with each input.
public typealias FuzzerCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzerCallback
) -> CInt

/// Runs libFuzzer's driver on the process's arguments with `callback` as the fuzz target.
public func runFuzzerDriver(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                            _ callback: FuzzerCallback) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, callback)
}
