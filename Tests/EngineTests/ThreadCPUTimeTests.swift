import Foundation
import Glibc
import Testing

@testable import Bench

/// Reading threads' CPU time from /proc for the CPU-time capacity rows: the parsers on captured lines, the
/// busiest-thread choice on made-up snapshots, and one snapshot of this very process.
@Suite struct ThreadCPUTimeTests {
    /// A stat line captured from a SCHED_FIFO thread (fields 14/15 = 2 and 10 ticks, field 41 = 1), its
    /// name holding a space and parentheses as a thread name may.
    static let statLine = "4071 (jack (rt) x) S 736 744 744 0 -1 4194560 8813 244917 0 60 2 10 163 137 -6 0 4 0 1100946 "
        + "5324800 1009 18446744073709551615 94657202409472 94657203198877 140732606599840 0 0 0 65536 4 1132560123 1 0 0 "
        + "17 0 5 1 0 0 0 94657203432176 94657203480420 94657504751616 140732606606186 140732606606201 140732606606201 "
        + "140732606607338 0\n"

    @Test func parsesAStatLine() throws {
        let stat = try #require(ThreadCPUTime.parseStat(Self.statLine))
        #expect(stat.name == "jack (rt) x")
        #expect(stat.userTicks == 2)
        #expect(stat.systemTicks == 10)
        #expect(stat.policy == 1)
    }

    @Test func parsesAnOrdinaryThreadsStatLine() throws {
        let line = "744 (bash) S 736 744 744 0 -1 4194560 8813 244917 0 60 2 10 163 137 20 0 1 0 1100946 5324800 1009 "
            + "18446744073709551615 94657202409472 94657203198877 140732606599840 0 0 0 65536 4 1132560123 1 0 0 17 0 0 0 0 0 0 "
            + "94657203432176 94657203480420 94657504751616 140732606606186 140732606606201 140732606606201 140732606607338 0"
        let stat = try #require(ThreadCPUTime.parseStat(line))
        #expect(stat.name == "bash")
        #expect(stat.policy == 0)
    }

    @Test func rejectsWhatIsNotAStatLine() {
        #expect(ThreadCPUTime.parseStat("") == nil)
        #expect(ThreadCPUTime.parseStat("744 bash S 736") == nil)
        #expect(ThreadCPUTime.parseStat("744 (bash) S 736 744") == nil)  // too few fields
    }

    @Test func parsesASchedstatLine() {
        #expect(ThreadCPUTime.parseSchedstat("127780992 588212095 266\n") == 127_780_992)
        #expect(ThreadCPUTime.parseSchedstat("") == nil)
        #expect(ThreadCPUTime.parseSchedstat("x 1 2") == nil)
    }

    static func task(_ tid: Int32, policy: Int = 0, _ nanoseconds: UInt64) -> TaskSample {
        TaskSample(tid: tid, name: "t\(tid)", policy: policy, onCPUNanoseconds: nanoseconds)
    }

    static func snapshot(_ tasks: [TaskSample]) -> [Int32: TaskSample] {
        Dictionary(uniqueKeysWithValues: tasks.map { ($0.tid, $0) })
    }

    @Test func theBusiestRealtimeThreadWinsOverBusierOrdinaryOnes() throws {
        let before = Self.snapshot([Self.task(100, 0), Self.task(101, 1_000), Self.task(102, policy: 1, 5_000), Self.task(103, policy: 1, 0)])
        let after = Self.snapshot([Self.task(100, 9_000_000), Self.task(101, 8_000_000), Self.task(102, policy: 1, 2_005_000),
                                   Self.task(103, policy: 1, 700)])
        let busiest = try #require(ThreadCPUTime.busiest(before: before, after: after, excluding: [100]))
        #expect(busiest.task.tid == 102)
        #expect(busiest.nanoseconds == 2_000_000)
        #expect(ThreadCPUTime.spent(by: 103, from: before, to: after) == 700)
    }

    @Test func withoutRealtimeThreadsTheBusiestOtherThreadWins() throws {
        let before = Self.snapshot([Self.task(100, 0), Self.task(101, 1_000), Self.task(102, 1_000)])
        let after = Self.snapshot([Self.task(100, 9_000_000), Self.task(101, 3_000), Self.task(102, 51_000)])
        let busiest = try #require(ThreadCPUTime.busiest(before: before, after: after, excluding: [100]))
        #expect(busiest.task.tid == 102)
        #expect(busiest.nanoseconds == 50_000)
    }

    /// A thread only in the later snapshot started during the window: its whole life is not the window's.
    @Test func threadsMissingFromASnapshotDoNotCount() {
        let before = Self.snapshot([Self.task(100, 0)])
        let after = Self.snapshot([Self.task(100, 10), Self.task(200, policy: 1, 9_000_000)])
        #expect(ThreadCPUTime.busiest(before: before, after: after, excluding: [100]) == nil)
        #expect(ThreadCPUTime.spent(by: 200, from: before, to: after) == nil)
    }

    /// This process, read before and after a thread of it spun for 200 ms of its own CPU time: that thread
    /// is in both snapshots with its name and policy, and spent about that time between them.
    @Test func readsAThreadOfThisProcess() throws {
        let started = DispatchSemaphore(value: 0), spun = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0)
        let box = TidBox()
        let thread = Thread {
            // /proc/thread-self links to PID/task/TID of the calling thread (Glibc's Swift module has no gettid).
            box.tid = Int32((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))?.split(separator: "/").last ?? "") ?? 0
            started.signal()
            let start = SynthBenchmark.threadCPUSeconds()
            var x = 0.0
            while SynthBenchmark.threadCPUSeconds() - start < 0.2 { for i in 0..<1000 { x += Double(i).squareRoot() } }
            box.sink = x
            spun.signal()
            finish.wait()
        }
        thread.start()
        started.wait()
        let before = ThreadCPUTime.snapshot(pid: getpid())
        spun.wait()
        let after = ThreadCPUTime.snapshot(pid: getpid())
        finish.signal()
        let tid = box.tid
        #expect(before[getpid()] != nil)  // the main thread
        let sample = try #require(after[tid])
        #expect(!sample.name.isEmpty)
        #expect(sample.policy == 0 && !sample.isRealtime)
        let spent = try #require(ThreadCPUTime.spent(by: tid, from: before, to: after))
        #expect(spent >= 100_000_000)
        #expect(spent < 1_000_000_000)
    }
}

/// The spinning thread's id and result, handed to the test after a semaphore.
final class TidBox: @unchecked Sendable {
    var tid: Int32 = 0
    var sink = 0.0
}
