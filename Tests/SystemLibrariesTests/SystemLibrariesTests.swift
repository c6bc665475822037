import CALSA
import CCurses
import CJack
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
}
