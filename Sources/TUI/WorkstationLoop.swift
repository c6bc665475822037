/// The workstation on a terminal: keys in, engine drained, frames out, until `q` (or F10) or `stop`. Seconds
/// count from the loop's creation; the workstation's times (key gates, the lifecycle's wall clock) are these.
public struct WorkstationLoop {
    public let workstation: Workstation
    public let driver: CursesDriver
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    public init(workstation: Workstation, driver: CursesDriver) {
        self.workstation = workstation
        self.driver = driver
        start = clock.now
    }

    /// Seconds since the loop was made.
    public func now() -> Double {
        let d = clock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// Runs until the workstation asks to quit or `stop` says so (a signal came). `messages` hands over the
    /// engine's log lines since the last call (for the status line); `firstFrame` is told once, when the
    /// first frame is on screen.
    public func run(messages: () -> [String], stop: () -> Bool, firstFrame: () -> Void = {}) {
        var grid = Grid(width: 0, height: 0)
        var needsDraw = true
        var lastDraw = -1.0
        var drawnOnce = false
        var receivedAtDraw = 0
        while !workstation.quitRequested, !stop() {
            if let key = driver.readKey(timeoutMilliseconds: needsDraw ? 5 : 33) {
                let size = driver.size
                let layout = Layout.compute(width: size.width, height: size.height)
                workstation.handle(key, layout: layout, now: now())
                var more = 0
                while more < 64, let next = driver.readKey(timeoutMilliseconds: 0) {
                    workstation.handle(next, layout: layout, now: now())
                    more += 1
                }
                needsDraw = true
            }
            for line in messages() { workstation.say(line) }
            if workstation.tick(now: now()) { needsDraw = true }
            let t = now()
            // Up to 30 frames a second; when messages stream in (a scrolling log nobody can read line by line)
            // 20 are enough and cost a third less terminal output.
            let streaming = workstation.log.received - receivedAtDraw > 20
            guard needsDraw, t - lastDraw >= (streaming ? 1.0 / 20 : 1.0 / 30) else { continue }
            receivedAtDraw = workstation.log.received
            let size = driver.size
            if grid.width != size.width || grid.height != size.height { grid = Grid(width: size.width, height: size.height) }
            // Only what changed: an idle second redraws the lifecycle panel alone, and the driver writes the
            // cells that differ.
            if workstation.drawChanges(into: &grid) { driver.present(grid) }
            lastDraw = t
            needsDraw = false
            if !drawnOnce {
                drawnOnce = true
                firstFrame()
            }
        }
    }
}
