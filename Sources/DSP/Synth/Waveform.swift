/// The oscillator shapes of the synth.
public enum Waveform: Int, CaseIterable, Sendable, CustomStringConvertible {
    case sine = 0, triangle, saw, square

    public var description: String {
        switch self {
        case .sine: "sine"
        case .triangle: "triangle"
        case .saw: "saw"
        case .square: "square"
        }
    }
}
