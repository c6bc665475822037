#ifndef BACKBEAT_CALSA_SHIM_H
#define BACKBEAT_CALSA_SHIM_H
#include <alsa/asoundlib.h>

/// SND_LIB_VERSION_STR is a macro; snd_asoundlib_version() is the runtime library's own.
static inline const char *backbeat_alsa_header_version(void) { return SND_LIB_VERSION_STR; }
#endif
