/// Every element a theme colours. The raw value is the theme file's key.
public enum Role: String, CaseIterable, Sendable {
    case normal, dim, border
    case borderFocused = "border_focused"
    case title
    case header
    case headerValue = "header_value"
    case badgeActive = "badge_active"
    case badgeWarning = "badge_warning"
    case selected
    case statusLine = "status_line"
    case error
    case meterLow = "meter_low"
    case meterMid = "meter_mid"
    case meterHigh = "meter_high"
    case meterPeak = "meter_peak"
    case meterTrack = "meter_track"
    case meterHold = "meter_hold"
    case meterScale = "meter_scale"
    case clip
    case clipOff = "clip_off"
    case monitorTime = "monitor_time"
    case monitorSource = "monitor_source"
    case monitorNote = "monitor_note"
    case monitorControl = "monitor_control"
    case monitorSystem = "monitor_system"
    case monitorLost = "monitor_lost"
    case monitorHex = "monitor_hex"
    case whiteKey = "white_key"
    case blackKey = "black_key"
    case noteOnSoft = "note_on_soft"
    case noteOnMedium = "note_on_medium"
    case noteOnLoud = "note_on_loud"
    case help

    /// The colour pair number the driver gives this role (1-based: pair 0 is the terminal's default).
    public var pair: Int { Role.allCases.firstIndex(of: self)! + 1 }

    /// Index for table lookups.
    public var index: Int { Role.allCases.firstIndex(of: self)! }
}
