#ifndef BACKBEAT_BENCH_CALSA_SHIM_H
#define BACKBEAT_BENCH_CALSA_SHIM_H
/* ALSA's MIDI byte codec (snd_midi_event_*): the reference the MIDI parser benchmark runs against. */
#include <alsa/asoundlib.h>
#endif
