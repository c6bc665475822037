/// Builds the instrument from the lexer's headers and opcodes: keeps the opcodes of the `<global>`,
/// `<master>` and `<group>` in force (a header clears those beneath it), and applies them in that order, then
/// the region's own, to each region when the region ends. Each opcode is checked once where it is written:
/// an unknown name is counted, a bad value is a diagnostic (and ignored wherever it is inherited).
struct SFZInstrumentBuilder {
    private enum Scope { case none, control, global, master, group, region, curve, unknown }

    private var instrument: SFZInstrument
    private let folder: String
    private var scope = Scope.none
    private var global: [SFZOpcode] = [], master: [SFZOpcode] = [], group: [SFZOpcode] = [], region: [SFZOpcode] = []
    private var regionLocation: SFZLocation?
    private var curve: SFZCurve?
    private var noteOffset = 0, octaveOffset = 0
    /// Counts `<global>`, `<master>` and `<group>` headers: the regions under one share a polyphony set.
    private var setSerial = 0
    private var unknownOpcodes: [String: Int] = [:], unknownHeaders: [String: Int] = [:]

    init(path: String) {
        instrument = SFZInstrument(path: path)
        folder = SFZPath.folder(of: path)
    }

    mutating func take(_ token: SFZToken) {
        switch token.kind {
        case .header(let name): header(name, token.location)
        case .opcode(let name, let value): opcode(SFZOpcode(name: name, value: value, location: token.location))
        case .diagnostic(let message): instrument.diagnostics.append(SFZDiagnostic(token.location, message))
        }
    }

    mutating func finish() -> SFZInstrument {
        endRegion()
        endCurve()
        instrument.unknownOpcodes = unknownOpcodes.map { SFZNameCount(name: $0.key, count: $0.value) }.sorted { $0.name < $1.name }
        instrument.unknownHeaders = unknownHeaders.map { SFZNameCount(name: $0.key, count: $0.value) }.sorted { $0.name < $1.name }
        return instrument
    }

    private mutating func header(_ name: String, _ location: SFZLocation) {
        endRegion()
        endCurve()
        switch name {
        case "control":
            scope = .control
            instrument.defaultPath = ""  // each <control> starts without one, as in sfizz
        case "global": scope = .global; (global, master, group) = ([], [], []); setSerial += 1
        case "master": scope = .master; (master, group) = ([], []); setSerial += 1
        case "group": scope = .group; group = []; setSerial += 1
        case "region": scope = .region; regionLocation = location
        case "curve": scope = .curve; curve = SFZCurve(index: -1, points: [:], location: location)
        default:
            scope = .unknown
            unknownHeaders[name, default: 0] += 1
        }
    }

    private mutating func opcode(_ opcode: SFZOpcode) {
        switch scope {
        case .unknown: return
        case .none:
            instrument.diagnostics.append(SFZDiagnostic(opcode.location,
                "\(SFZText.clipped(opcode.name))=\(SFZText.clipped(opcode.value)) is ignored: it comes before any <header>"))
        case .control: control(opcode)
        case .curve: curvePoint(opcode)
        case .global, .master, .group, .region:
            var probe = SFZRegion(location: opcode.location)
            switch probe.apply(opcode, samplesFolder: "") {
            case .applied: break
            case .unknown:
                unknownOpcodes[opcode.name, default: 0] += 1
                return
            case .bad(let accepted):
                bad(opcode, accepted)
                return
            }
            switch scope {
            case .global: global.append(opcode)
            case .master: master.append(opcode)
            case .group: group.append(opcode)
            default: region.append(opcode)
            }
        }
    }

    private mutating func control(_ opcode: SFZOpcode) {
        let name = SFZOpcodeName(opcode.name)
        do throws(SFZBadValue) {
            switch (name.pattern, name.numbers.first ?? 0) {
            case ("default_path", _): instrument.defaultPath = opcode.value.replacing("\\", with: "/")
            case ("note_offset", _): noteOffset = try SFZValue.integer(opcode.value, -127...127)
            case ("octave_offset", _): octaveOffset = try SFZValue.integer(opcode.value, -10...10)
            case ("set_ccN", let cc) where cc <= sfzMaximumCC: instrument.initialControls[cc] = try SFZValue.integer(opcode.value, 0...127)
            // The high-definition form (0...1): the nearest of the 128 values a MIDI controller takes.
            case ("set_hdccN", let cc) where cc <= sfzMaximumCC:
                instrument.initialControls[cc] = Int((try SFZValue.number(opcode.value, 0...1) * 127).rounded())
            case ("label_ccN", let cc) where cc <= sfzMaximumCC: instrument.controlLabels[cc] = opcode.value
            case ("label_keyN", let key) where key <= 127: instrument.keyLabels[key] = opcode.value
            default: unknownOpcodes[opcode.name, default: 0] += 1
            }
        } catch {
            bad(opcode, error.accepted)
        }
    }

    private mutating func curvePoint(_ opcode: SFZOpcode) {
        let name = SFZOpcodeName(opcode.name)
        do throws(SFZBadValue) {
            switch (name.pattern, name.numbers.first ?? 0) {
            case ("curve_index", _): curve?.index = try SFZValue.integer(opcode.value, 0...255)
            case ("vN", let point) where point <= 127: curve?.points[point] = try SFZValue.number(opcode.value, -1...1)
            default: unknownOpcodes[opcode.name, default: 0] += 1
            }
        } catch {
            bad(opcode, error.accepted)
        }
    }

    private mutating func bad(_ opcode: SFZOpcode, _ accepted: String) {
        instrument.diagnostics.append(SFZDiagnostic(opcode.location,
            "\(SFZText.clipped(opcode.name))=\(SFZText.clipped(opcode.value)) is ignored: \(opcode.name.hasPrefix("sample") ? "" : "the value must be ")\(accepted)"))
    }

    private mutating func endRegion() {
        guard scope == .region, let location = regionLocation else { return }
        var built = SFZRegion(location: location)
        let samples = SFZPath.resolve(instrument.defaultPath, relativeTo: folder)
        for opcode in global + master + group + region { _ = built.apply(opcode, samplesFolder: samples) }
        built.offsetKeys(by: noteOffset + 12 * octaveOffset)
        // sfizz: a `polyphony` in the <group> (or its <master>) without a `group=` limits the header's regions together.
        let scoped = master + group
        if let limit = scoped.last(where: { $0.name == "polyphony" }), !scoped.contains(where: { $0.name == "group" }) {
            built.setPolyphony = try? SFZValue.integer(limit.value, 0...65535)
            built.polyphonySet = setSerial
        }
        instrument.regions.append(built)
        region = []
        regionLocation = nil
        scope = .none
    }

    private mutating func endCurve() {
        guard let curve else { return }
        if curve.index < 0 {
            instrument.diagnostics.append(SFZDiagnostic(curve.location, "<curve> without a curve_index is ignored"))
        } else {
            instrument.curves.append(curve)
        }
        self.curve = nil
    }
}
