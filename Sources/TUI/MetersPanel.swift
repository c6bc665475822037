import Foundation

/// One horizontal meter per output channel on a -60...0 dBFS scale with marks, hold, clip lamp and readouts,
/// then the loudness line.
public enum MetersPanel {
    public static let floorDB: Float = -60
    /// In drawing priority: a label that would touch one already drawn is left out on narrow bars.
    public static let marks: [Int] = [0, -60, -6, -20, -12, -40]

    /// Where `db` sits on the bar, 0...1: piecewise linear in dB, with more room near the top where levels
    /// matter (-60...-40 takes 15 %, -40...-20 25 %, -20...0 60 %), as on IEC-style peak meters.
    public static func fraction(for db: Float) -> Float {
        guard db.isFinite else { return 0 }
        let d = min(max(db, floorDB), 0)
        if d < -40 { return (d + 60) / 20 * 0.15 }
        if d < -20 { return 0.15 + (d + 40) / 20 * 0.25 }
        return 0.4 + (d + 20) / 20 * 0.6
    }

    /// Cells lit for `db` on a bar of `width` cells.
    public static func cells(for db: Float, width: Int) -> Int {
        guard db.isFinite, width > 0 else { return 0 }
        return Int((fraction(for: db) * Float(width)).rounded())
    }

    /// The level at the right edge of bar cell `c`.
    static func level(atCell c: Int, width: Int) -> Float {
        let f = Float(c + 1) / Float(width)
        if f < 0.15 { return -60 + f / 0.15 * 20 }
        if f < 0.4 { return -40 + (f - 0.15) / 0.25 * 20 }
        return -20 + (f - 0.4) / 0.6 * 20
    }

    /// Column (0-based in the bar) of a scale mark.
    public static func column(ofMark db: Int, width: Int) -> Int {
        min(width - 1, max(0, cells(for: Float(db), width: width) - 1))
    }

    static func zone(_ db: Float) -> Role { db > -6 ? .meterHigh : db > -20 ? .meterMid : .meterLow }

    /// Lowest level the readouts show in figures: below it they read "-inf", so a decaying note never needs
    /// more than the 5 columns of "-99.9" (a wider figure would lose its minus sign in the column).
    public static let readoutFloorDB: Float = -99.9

    /// "-3.0", "-inf" (silent or below ``readoutFloorDB``), "--" (nil: not measured).
    public static func format(_ db: Float?) -> String {
        guard let db else { return "--" }
        guard db.isFinite, db > readoutFloorDB - 0.05 else { return "-inf" }
        return String(format: "%.1f", db)
    }

    public static func draw(_ channels: [MeterReadout], loudness: LoudnessReadout, into grid: inout Grid, rect: Rect, context: DrawContext) {
        context.frame(&grid, rect, PanelID.meters.title)
        let inner = rect.inset(1)
        guard inner.height >= 1, inner.width >= 20 else { return }
        // Narrow panels show the peak figure and the lamp only.
        let compact = inner.width < 56
        let labelWidth = 2, readoutWidth = compact ? 8 : 24
        let barX = inner.x + labelWidth
        let barWidth = inner.width - labelWidth - readoutWidth - 1
        let names = channels.count == 2 ? ["L", "R"] : channels.indices.map { String($0 + 1) }
        var y = inner.y
        for (i, m) in channels.enumerated() where y < inner.maxY {
            grid.put(inner.x, y, names[i], .title)
            let rms = cells(for: m.rmsDB, width: barWidth)
            let peak = cells(for: m.peakDB, width: barWidth)
            for c in 0..<barWidth {
                let db = level(atCell: c, width: barWidth)
                if c < rms { grid.set(barX + c, y, context.glyphs.barFull, zone(db)) }
                else if c < peak { grid.set(barX + c, y, context.glyphs.barPeak, zone(db)) }
                else { grid.set(barX + c, y, context.glyphs.barEmpty, .meterTrack) }
            }
            if m.holdDB.isFinite, m.holdDB > floorDB {
                let hold = max(0, cells(for: m.holdDB, width: barWidth) - 1)
                grid.set(barX + hold, y, context.glyphs.hold, .meterHold)
            }
            let readout = compact ? "\(format(m.peakDB).rightAligned(5)) " : "\(format(m.peakDB).rightAligned(5)) pk \(format(m.rmsDB).rightAligned(5)) rms "
            let rx = grid.put(barX + barWidth + 1, y, readout, .normal)
            let lamp = String(context.glyphs.lamp) + (compact ? "" : m.clip ? "CLIP" : "clip")
            grid.put(rx, y, lamp, m.clip ? .clip : .clipOff)
            y += 1
        }
        if y < inner.maxY {
            // Scale: tick marks at 0, -6, -12, -20, -40, -60 with their numbers.
            var taken: [ClosedRange<Int>] = []
            for mark in marks {
                let c = column(ofMark: mark, width: barWidth)
                let label = String(mark)
                let lx = max(barX, min(barX + c - label.count / 2, barX + barWidth - label.count))
                let span = (lx - 1)...(lx + label.count)
                if taken.contains(where: { $0.overlaps(span) }) { continue }
                taken.append(span)
                grid.put(lx, y, label, .meterScale)
            }
            grid.put(barX + barWidth + 1, y, "dBFS", .meterScale)
            y += 1
        }
        if y < inner.maxY {
            let m = format(loudness.momentaryLUFS), st = format(loudness.shortTermLUFS), i = format(loudness.integratedLUFS)
            let tp = format(loudness.truePeakDB)
            // Longest first; a form that does not fit whole gives way to a shorter one, never a cut word.
            let line = String.firstFitting(["M \(m) · S \(st) · I \(i) LUFS · TP \(tp) dBTP", "M \(m) S \(st) I \(i) LUFS TP \(tp) dBTP",
                                            "S \(st) I \(i) LUFS TP \(tp) dBTP", "I \(i) LUFS TP \(tp) dBTP"], width: inner.width)
            grid.put(inner.x, y, line, .normal, limit: inner.width)
        }
    }
}
