import DSP
import Glibc

// The level a region's note gives it (SampleZoneLevel, played by Synth+SampleZoneLevels.swift): crossfades over
// key and velocity with their curves, `amp_velcurve_N`, `amp_veltrack` below 0 and `amp_keytrack` fixed at the
// note-on; crossfades over controllers followed while it sounds.
// Also where a stereo sample's two sides go (`width`, `position`), fixed at load.

extension SFZRegion {
    /// The region's key, velocity and controller crossfades and key tracking for its zones' rule.
    func noteLevel(notes: inout SFZNotes) -> SampleZoneLevel {
        var level = SampleZoneLevel()
        level.key = Self.fade(keyCrossfade, power: keyCrossfadeCurve == .power)
        level.velocity = Self.fade(velocityCrossfade, power: velocityCrossfadeCurve == .power)
        level.keytrackDecibels = Float(ampKeytrack)
        level.keycenter = UInt8(clamping: min(max(ampKeycenter, 0), 127))
        // The controllers' crossfades, multiplied, followed while the note sounds (as sfizz's).
        let played = ccCrossfades.keys.filter { $0 < 128 }.sorted()
        for cc in played {
            if !level.controllerFades.add(controller: UInt8(cc), Self.fade(ccCrossfades[cc]!, power: ccCrossfadeCurve == .power)) {
                notes.add("xfin_loccN/xfout_loccN over more than \(SampleZoneControllerFades.capacity) CCs (the lowest \(SampleZoneControllerFades.capacity) CCs' only)")
                break
            }
        }
        if !ampVelcurve.isEmpty {
            level.velocityCurve = velocityCurve(notes: &notes)
            level.velocityTrack = Float(ampVeltrack / 100)
        } else if ampVeltrack < 0 {
            // Louder at low velocity: sfizz's squared velocity, inverted (the velocity modulator is off).
            level.squaredVelocity = true
            level.velocityTrack = Float(ampVeltrack / 100)
        }
        if played.count < ccCrossfades.count { notes.add("xfin_loccN/xfout_loccN above CC 127 (ignored)") }
        return level
    }

    /// `amp_velcurve_N` as sfizz reads it: the points given, velocity 0 at 0 and 127 at 1 unless given, straight
    /// lines between.
    func velocityCurve(notes: inout SFZNotes) -> SampleZoneCurve {
        var points: [Int: Double] = [0: 0, 127: 1]
        for (velocity, gain) in ampVelcurve where (0...127).contains(velocity) { points[velocity] = gain }
        return Self.zoneCurve(points, what: "amp_velcurve_N", notes: &notes)
    }

    /// A curve through `points` (x 0...127) as a zone rule holds it: a curve of more points than that loses,
    /// one by one, the inner point that moves it least (said once per `what`).
    static func zoneCurve(_ points: [Int: Double], what: String, notes: inout SFZNotes) -> SampleZoneCurve {
        var curve = points.sorted { $0.key < $1.key }.map { (x: $0.key, y: $0.value) }
        if curve.count > SampleZoneCurve.capacity { notes.add("\(what) with more than \(SampleZoneCurve.capacity) points (the closest \(SampleZoneCurve.capacity)-point curve)") }
        while curve.count > SampleZoneCurve.capacity {
            func error(_ i: Int) -> Double {
                let (a, b, c) = (curve[i - 1], curve[i], curve[i + 1])
                return abs(a.y + (c.y - a.y) * Double(b.x - a.x) / Double(c.x - a.x) - b.y)
            }
            let least = (1..<curve.count - 1).min { error($0) < error($1) }!
            curve.remove(at: least)
        }
        return SampleZoneCurve(curve.map { (x: UInt8($0.x), y: Float($0.y)) })
    }

    static func fade(_ crossfade: SFZCrossfade, power: Bool) -> SampleZoneFade {
        func byte(_ value: Int) -> UInt8 { UInt8(clamping: min(max(value, 0), 127)) }
        var fade = SampleZoneFade()
        fade.inLow = byte(crossfade.inLow)
        fade.inHigh = max(byte(crossfade.inHigh), fade.inLow)
        fade.outLow = byte(crossfade.outLow)
        fade.outHigh = max(byte(crossfade.outHigh), fade.outLow)
        fade.power = power
        return fade
    }

    /// Where side `side` (0 left, 1 right) of the region's stereo sample goes, as sfizz places it: `width`
    /// mixes each side into the other channel (100: none, 0: both sides in both channels, -100: swapped), each
    /// at equal power, then `position` balances the two channels at equal power, so that at the centre each
    /// channel is 3 dB down. Each side's two channel gains are one zone's pan (in SF2's 0.1 % units, the
    /// region's `pan` added) and a gain factor.
    func stereoSide(_ side: Int) -> (pan: Int, gain: Double) {
        let mix = min(max((1 - width / 100) / 2, 0), 1) * Double.pi / 2  // 0 at width 100, pi/2 at -100
        let balance = min(max((position / 100 + 1) / 2, 0), 1) * Double.pi / 2
        let own = cos(mix), other = sin(mix)
        let left = cos(balance) * (side == 0 ? own : other), right = sin(balance) * (side == 0 ? other : own)
        let gain = (left * left + right * right).squareRoot()
        let angle = gain > 0 ? atan2(right, left) : Double.pi / 4
        return (Int((angle * 2000 / Double.pi).rounded()) - 500, gain)
    }
}
