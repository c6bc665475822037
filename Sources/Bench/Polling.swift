import Glibc

/// A short sleep for the benchmarks' polling loops, whose conditions (a child's output, a port appearing)
/// have no signal of their own.
func usleepMilliseconds(_ milliseconds: Int) { usleep(useconds_t(milliseconds * 1000)) }
