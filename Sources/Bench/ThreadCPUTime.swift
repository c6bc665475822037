// Per-thread CPU time from /proc, for the CPU-time capacity rows of `backbeat bench`: what a synth's JACK
// process thread spends on the CPU, read the same way for a thread of this process (Backbeat's engine) and
// for a child's (FluidSynth).
import Engine
import Glibc

/// One thread of a process as /proc showed it at one moment.
public struct TaskSample: Sendable, Equatable {
    public var tid: Int32
    /// The thread's name (`comm`).
    public var name: String
    /// Scheduling policy, /proc/PID/task/TID/stat field 41: 0 SCHED_OTHER, 1 SCHED_FIFO, 2 SCHED_RR.
    public var policy: Int
    /// Time on the CPU so far, in ns: schedstat's first field, or utime+stime (stat fields 14 and 15, clock
    /// ticks of 10 ms) converted when the kernel has no schedstat.
    public var onCPUNanoseconds: UInt64

    /// SCHED_FIFO or SCHED_RR: how JACK runs a client's process thread when the server runs with -R.
    public var isRealtime: Bool { policy == 1 || policy == 2 }
}

/// Reading and comparing threads' CPU time under /proc.
public enum ThreadCPUTime {
    /// The fields of a `stat` line the benchmark uses.
    public struct Stat: Sendable, Equatable {
        public var name: String
        public var policy: Int
        /// utime and stime (fields 14 and 15), in clock ticks.
        public var userTicks: UInt64
        public var systemTicks: UInt64
    }

    /// Parses a /proc/PID/task/TID/stat line. The name (field 2) is in parentheses and may itself hold
    /// spaces and parentheses, so fields are counted from the last ')'. Nil when the line is not a stat line.
    public static func parseStat(_ line: String) -> Stat? {
        let bytes = Array(line.utf8)
        guard let open = bytes.firstIndex(of: UInt8(ascii: "(")),
              let close = bytes.lastIndex(of: UInt8(ascii: ")")), open < close else { return nil }
        let name = String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
        // Fields from 3 (state) on: field N is rest[N - 3].
        let rest = bytes[(close + 1)...].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
        guard rest.count >= 41 - 2,
              let user = UInt64(rest[14 - 3]), let system = UInt64(rest[15 - 3]),
              let policy = Int(rest[41 - 3].trimmingSpaceAndNewline()) else { return nil }
        return Stat(name: name, policy: policy, userTicks: user, systemTicks: system)
    }

    /// The first field of a /proc/PID/task/TID/schedstat line: ns on the CPU. Nil when malformed.
    public static func parseSchedstat(_ line: String) -> UInt64? {
        guard let first = line.split(separator: " ", omittingEmptySubsequences: true).first else { return nil }
        return UInt64(String(first).trimmingSpaceAndNewline())
    }

    /// Every thread of process `pid` now, keyed by thread id. Threads that end while being read are left
    /// out; an unreadable process gives an empty dictionary.
    public static func snapshot(pid: pid_t) -> [Int32: TaskSample] {
        var result: [Int32: TaskSample] = [:]
        guard let directory = opendir("/proc/\(pid)/task") else { return result }
        defer { closedir(directory) }
        let ticks = UInt64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let tid = Int32(name) else { continue }
            let base = "/proc/\(pid)/task/\(tid)/"
            guard let statLine = readSmallFile(base + "stat"), let stat = parseStat(statLine) else { continue }
            let nanoseconds = readSmallFile(base + "schedstat").flatMap(parseSchedstat)
                ?? (stat.userTicks + stat.systemTicks) * (1_000_000_000 / ticks)
            result[tid] = TaskSample(tid: tid, name: stat.name, policy: stat.policy, onCPUNanoseconds: nanoseconds)
        }
        return result
    }

    /// The thread that spent the most CPU time between two snapshots of one process, and that time in ns.
    /// Only threads in both snapshots count (a thread id is not reused while the process holds it, but a
    /// thread that ended and another that began are different threads); `excluding` (e.g. the main
    /// thread) never counts. Real-time threads are preferred when the later snapshot has any: JACK runs a
    /// client's process thread SCHED_FIFO under `jackd -R`. Nil when no thread qualifies.
    public static func busiest(before: [Int32: TaskSample], after: [Int32: TaskSample],
                               excluding: Set<Int32> = []) -> (task: TaskSample, nanoseconds: UInt64)? {
        let candidates = after.values.filter { !excluding.contains($0.tid) && before[$0.tid] != nil }
        let realtime = candidates.filter(\.isRealtime)
        var best: (task: TaskSample, nanoseconds: UInt64)?
        for task in (realtime.isEmpty ? candidates : realtime).sorted(by: { $0.tid < $1.tid }) {
            let delta = spent(by: task.tid, from: before, to: after) ?? 0
            if best == nil || delta > best!.nanoseconds { best = (task, delta) }
        }
        return best
    }

    /// CPU ns thread `tid` spent between two snapshots; nil when it is missing from either.
    public static func spent(by tid: Int32, from before: [Int32: TaskSample], to after: [Int32: TaskSample]) -> UInt64? {
        guard let start = before[tid], let end = after[tid] else { return nil }
        return end.onCPUNanoseconds >= start.onCPUNanoseconds ? end.onCPUNanoseconds - start.onCPUNanoseconds : 0
    }

    /// A /proc file's text (such files report size 0: read to end of file). Nil when it cannot be read.
    static func readSmallFile(_ path: String) -> String? {
        guard let bytes = try? SystemCall.readFile(path, limit: 1 << 20, what: "a /proc file"), !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate func trimmingSpaceAndNewline() -> String {
        String(self.filter { $0 != "\n" && $0 != " " })
    }
}
