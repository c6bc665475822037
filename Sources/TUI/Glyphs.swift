/// The characters panels draw with: UTF-8 block and box drawing, or plain ASCII when the locale is not
/// UTF-8 or `--ascii` is given.
public struct Glyphs: Sendable, Equatable {
    public var horizontal: Unicode.Scalar, vertical: Unicode.Scalar
    public var topLeft: Unicode.Scalar, topRight: Unicode.Scalar, bottomLeft: Unicode.Scalar, bottomRight: Unicode.Scalar
    /// Meter bar: full, partial (peak above RMS), empty track, hold marker, scale tick.
    public var barFull: Unicode.Scalar, barPeak: Unicode.Scalar, barEmpty: Unicode.Scalar, hold: Unicode.Scalar, tick: Unicode.Scalar
    /// Piano keys: a white key's face, a black key, a held key.
    public var whiteKey: Unicode.Scalar, blackKey: Unicode.Scalar, keyDown: Unicode.Scalar
    public var lamp: Unicode.Scalar, selection: Unicode.Scalar, ellipsis: Unicode.Scalar

    public static let unicode = Glyphs(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
        barFull: "█", barPeak: "▒", barEmpty: "·", hold: "▌", tick: "┴",
        whiteKey: " ", blackKey: "█", keyDown: "█", lamp: "●", selection: "▶", ellipsis: "…")

    public static let ascii = Glyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        barFull: "#", barPeak: "=", barEmpty: ".", hold: "|", tick: "+",
        whiteKey: " ", blackKey: "#", keyDown: "@", lamp: "*", selection: ">", ellipsis: "~")

    public var isASCII: Bool { self == .ascii }
}
