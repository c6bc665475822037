#ifndef BACKBEAT_BENCH_CJACK_SHIM_H
#define BACKBEAT_BENCH_CJACK_SHIM_H
/* JACK's lock-free ring buffer: the reference the SPSCRing benchmark runs against. */
#include <jack/ringbuffer.h>
#endif
