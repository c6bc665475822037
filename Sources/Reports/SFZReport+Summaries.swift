import SFZ

extension SFZReport {
    /// One sample's place on the keyboard: the keys its regions cover, as runs ("36-48,50"; "none" when its
    /// regions take no key), and how many regions play it. `path` is the file's (nil for a generator).
    struct KeyMapEntry {
        var path: String?
        var sample: String
        var keys: String
        var regions: Int
    }

    /// The samples in the order the regions first play them.
    func keyMap() -> [KeyMapEntry] {
        var order: [String] = []
        var keys: [String: Set<Int>] = [:]
        var counts: [String: Int] = [:]
        var paths: [String: String] = [:]
        let folder = instrument.path.lastIndex(of: "/").map { String(instrument.path[...$0]) } ?? ""
        for region in instrument.regions {
            let name: String
            switch region.sample {
            case .file(let path)?:
                name = !folder.isEmpty && path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : path
                paths[name] = path
            case .generator(let generator)?: name = generator.rawValue
            case nil: name = "(no sample)"
            }
            if counts[name] == nil { order.append(name) }
            counts[name, default: 0] += 1
            let low = max(region.keys.low, 0), high = min(region.keys.high, 127)
            if region.keys.low >= 0, low <= high { keys[name, default: []].formUnion(low...high) } else { keys[name, default: []].formUnion([]) }
        }
        return order.map { KeyMapEntry(path: paths[$0], sample: $0, keys: Self.runs(keys[$0] ?? []), regions: counts[$0] ?? 0) }
    }

    /// "36-48,50", "none".
    static func runs(_ keys: Set<Int>) -> String {
        var parts: [String] = []
        var start: Int?
        var previous = -2
        for key in keys.sorted() {
            if key != previous + 1 {
                if let start { parts.append(start == previous ? "\(start)" : "\(start)-\(previous)") }
                start = key
            }
            previous = key
        }
        if let start { parts.append(start == previous ? "\(start)" : "\(start)-\(previous)") }
        return parts.isEmpty ? "none" : parts.joined(separator: ",")
    }

    /// The distinct `lovel`-`hivel` ranges of the regions, lowest first, with how many regions each; an
    /// instrument whose regions all take every velocity has none.
    func velocityLayers() -> [(range: SFZRange<Int>, regions: Int)] {
        var counts: [SFZRange<Int>: Int] = [:]
        for region in instrument.regions { counts[region.velocities, default: 0] += 1 }
        if counts.count == 1, counts.keys.first == SFZRange(1, 127) || counts.keys.first == SFZRange(0, 127) { return [] }
        return counts.map { ($0.key, $0.value) }.sorted { ($0.range.low, $0.range.high) < ($1.range.low, $1.range.high) }
    }

    /// The regions in round robins (`seq_length` above 1), by sequence length.
    func roundRobins() -> [(length: Int, regions: Int)] {
        var counts: [Int: Int] = [:]
        for region in instrument.regions where region.seqLength > 1 { counts[region.seqLength, default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The `sw_last` keys, lowest first: the label a region gives it (`sw_label`, else `label_keyN`), how
    /// many regions it selects, and whether it is `sw_default`.
    func keySwitches() -> [(key: Int, label: String?, regions: Int, isDefault: Bool)] {
        var counts: [Int: Int] = [:]
        var labels: [Int: String] = [:]
        var defaults: Set<Int> = []
        for region in instrument.regions {
            if let key = region.switchDefault { defaults.insert(key) }
            guard let key = region.switchLast else { continue }
            counts[key, default: 0] += 1
            if labels[key] == nil, let label = region.switchLabel { labels[key] = label }
        }
        return counts.sorted { $0.key < $1.key }.map { key, regions in
            (key, labels[key] ?? instrument.keyLabels[key], regions, defaults.contains(key))
        }
    }

    /// The CCs the `<control>` header labels or sets, lowest first.
    func labelledControls() -> [(cc: Int, label: String?, initial: Int?)] {
        Set(instrument.controlLabels.keys).union(instrument.initialControls.keys).sorted().map {
            ($0, instrument.controlLabels[$0], instrument.initialControls[$0])
        }
    }
}
