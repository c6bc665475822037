/// One channel's peak needle, hold marker, clip lamp and true-peak maximum.
struct PeakBallistics: Sendable {
    var peakDB = -Double.infinity
    var holdDB = -Double.infinity
    var holdAge = 0.0
    var clipped = false
    var truePeak: Float = 0

    mutating func hit(_ peak: Float, truePeak: Float) {
        let db = MeterMath.decibels(amplitude: Double(peak))
        if db > peakDB { peakDB = db }
        if db >= holdDB && db > -Double.infinity { holdDB = db; holdAge = 0 }
        if peak >= 1 { clipped = true }
        self.truePeak = max(self.truePeak, truePeak)
    }

    mutating func advance(_ seconds: Double) {
        peakDB -= MeterState.peakFallDecibelsPerSecond * seconds
        if peakDB < MeterState.floorDB { peakDB = -.infinity }
        holdAge += seconds
        // An expired hold follows the falling peak until a higher one comes.
        if holdAge >= MeterState.peakHoldSeconds { holdDB = peakDB }
    }

    func readout(rmsDB: Double) -> MeterState.Readout.Channel {
        MeterState.Readout.Channel(peakDB: peakDB, rmsDB: rmsDB, holdDB: holdDB, clipped: clipped,
                             truePeakDB: MeterMath.decibels(amplitude: Double(truePeak)))
    }
}
