#ifndef BACKBEAT_CSNDFILE_SHIM_H
#define BACKBEAT_CSNDFILE_SHIM_H
#include <string.h>
#include <sndfile.h>

/// libsndfile's SF_INSTRUMENT holds its loops in a fixed C array, which Swift sees as a 16-element tuple; these
/// helpers read and write the fields SFZ needs (the WAV `smpl` chunk's root key and loops) by index instead.

/// The file's instrument chunk: returns the number of loops (0 to 16) and sets `basenote` (the root key,
/// 0 when the chunk has none), or returns -1 when the file has no instrument chunk.
static inline int backbeat_sf_instrument(SNDFILE *file, int *basenote) {
    SF_INSTRUMENT instrument;
    memset(&instrument, 0, sizeof instrument);
    if (sf_command(file, SFC_GET_INSTRUMENT, &instrument, sizeof instrument) != SF_TRUE) return -1;
    *basenote = instrument.basenote;
    int count = instrument.loop_count;
    if (count < 0) count = 0;
    if (count > 16) count = 16;
    return count;
}

/// Loop `index` of the file's instrument chunk: its mode (SF_LOOP_*), first frame, end frame and play
/// count. Returns 0, or -1 when there is no such loop.
static inline int backbeat_sf_loop(SNDFILE *file, int index, int *mode, unsigned *start, unsigned *end,
                                   unsigned *count) {
    SF_INSTRUMENT instrument;
    memset(&instrument, 0, sizeof instrument);
    if (sf_command(file, SFC_GET_INSTRUMENT, &instrument, sizeof instrument) != SF_TRUE) return -1;
    if (index < 0 || index >= instrument.loop_count || index >= 16) return -1;
    *mode = instrument.loops[index].mode;
    *start = instrument.loops[index].start;
    *end = instrument.loops[index].end;
    *count = instrument.loops[index].count;
    return 0;
}

/// Writes an instrument chunk with one forward loop from `start` to `end` and the root key `basenote`
/// (a WAV file opened for writing gets it as its `smpl` chunk). Returns SF_TRUE on success.
static inline int backbeat_sf_set_loop(SNDFILE *file, int basenote, unsigned start, unsigned end) {
    SF_INSTRUMENT instrument;
    memset(&instrument, 0, sizeof instrument);
    instrument.basenote = (char)basenote;
    instrument.velocity_hi = 127;
    instrument.key_hi = 127;
    instrument.loop_count = 1;
    instrument.loops[0].mode = SF_LOOP_FORWARD;
    instrument.loops[0].start = start;
    instrument.loops[0].end = end;
    instrument.loops[0].count = 0;
    return sf_command(file, SFC_SET_INSTRUMENT, &instrument, sizeof instrument);
}
#endif
