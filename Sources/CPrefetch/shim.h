#ifndef BACKBEAT_CPREFETCH_SHIM_H
#define BACKBEAT_CPREFETCH_SHIM_H
// A hint to the CPU to start loading the cache line holding `address` (a read, kept in every cache level):
// Swift has no prefetch of its own. It cannot fault (an address outside any mapping is a no-op), takes no lock
// and allocates nothing, hence the @_noLocks (Swift's performance checker cannot look into C; as in CJack's
// shim, the attribute is our assertion). The sample voices ask for the next block's sample data with it
// (Synth+SampleGroup.swift).
static inline void backbeat_prefetch(const void *address) __attribute__((swift_attr("@_noLocks"))) {
    __builtin_prefetch(address, 0, 3);
}
#endif
