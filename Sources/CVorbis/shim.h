#ifndef BACKBEAT_CVORBIS_SHIM_H
#define BACKBEAT_CVORBIS_SHIM_H
#include <stddef.h>
#include <string.h>
#include <vorbis/vorbisfile.h>

/// SoundFont 3 samples are Ogg Vorbis streams inside the font's smpl chunk. libvorbisfile reads them through
/// these callbacks over the bytes in memory (the font's mapping): no file is opened, nothing is copied.
typedef struct {
    const unsigned char *data;
    size_t size;
    size_t position;
} backbeat_vorbis_memory;

static size_t backbeat_vorbis_read(void *buffer, size_t size, size_t count, void *source) {
    backbeat_vorbis_memory *m = (backbeat_vorbis_memory *)source;
    if (size == 0 || m->position >= m->size) return 0;
    size_t items = (m->size - m->position) / size;
    if (items > count) items = count;
    memcpy(buffer, m->data + m->position, items * size);
    m->position += items * size;
    return items;
}

static int backbeat_vorbis_seek(void *source, ogg_int64_t offset, int whence) {
    backbeat_vorbis_memory *m = (backbeat_vorbis_memory *)source;
    ogg_int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (ogg_int64_t)m->position : (ogg_int64_t)m->size;
    ogg_int64_t target = base + offset;
    if (target < 0 || target > (ogg_int64_t)m->size) return -1;
    m->position = (size_t)target;
    return 0;
}

static long backbeat_vorbis_tell(void *source) {
    return (long)((backbeat_vorbis_memory *)source)->position;
}

/// Not a libvorbisfile code: the stream is not mono (SoundFont samples are; FluidSynth refuses others too).
#define BACKBEAT_VORBIS_NOT_MONO (-1000)

/// Decodes the Ogg Vorbis stream in `data` (`size` bytes) into `out` as 16-bit frames, at most `capacity`;
/// returns the frames written (the rest of a longer stream is dropped), or a negative OV_ error code.
/// `rate` receives the stream's sample rate.
static inline long backbeat_vorbis_decode(const unsigned char *data, size_t size, short *out, long capacity,
                                          long *rate) {
    backbeat_vorbis_memory memory = { data, size, 0 };
    ov_callbacks callbacks = { backbeat_vorbis_read, backbeat_vorbis_seek, NULL, backbeat_vorbis_tell };
    OggVorbis_File file;
    int opened = ov_open_callbacks(&memory, &file, NULL, 0, callbacks);
    if (opened < 0) return opened;
    vorbis_info *info = ov_info(&file, -1);
    if (info == NULL) { ov_clear(&file); return OV_EBADHEADER; }
    if (info->channels != 1) { ov_clear(&file); return BACKBEAT_VORBIS_NOT_MONO; }
    *rate = info->rate;
    long frames = 0;
    int section = 0;
    while (frames < capacity) {
        long want = (capacity - frames) * 2;
        if (want > 8192) want = 8192;
        long got = ov_read(&file, (char *)(out + frames), (int)want, 0, 2, 1, &section);
        if (got == OV_HOLE) continue;  // a gap in the data: libvorbisfile resyncs
        if (got < 0) { ov_clear(&file); return got; }
        if (got == 0) break;
        frames += got / 2;
    }
    ov_clear(&file);
    return frames;
}
#endif
