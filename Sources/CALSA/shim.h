#ifndef BACKBEAT_CALSA_SHIM_H
#define BACKBEAT_CALSA_SHIM_H
#include <alsa/asoundlib.h>

/// SND_LIB_VERSION_STR is a macro; snd_asoundlib_version() is the runtime library's own.
static inline const char *backbeat_alsa_header_version(void) { return SND_LIB_VERSION_STR; }

/// alsa-lib prints its own diagnostics to stderr ("ALSA lib seq_hw.c:...: open /dev/snd/seq failed")
/// through a variadic handler, which Swift cannot define. This one drops them: used around calls whose
/// failure Backbeat reports itself in one line (the sequencer probe of `--midi auto`).
static void backbeat_alsa_silent_handler(const char *file, int line, const char *function, int err,
                                         const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// Silences (true) or restores (false) alsa-lib's stderr diagnostics (process-wide).
static inline void backbeat_alsa_silence_errors(int silent) {
    snd_lib_error_set_handler(silent ? backbeat_alsa_silent_handler : NULL);
}

/// Macros and enum values Swift would import awkwardly.
static inline unsigned int backbeat_seq_port_caps_midi_in(void) {
    return SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE;
}
static inline unsigned int backbeat_seq_port_caps_midi_out(void) {
    return SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ;
}
/// Addresses an outgoing event from `port` to all its subscribers, delivered at once (no queue):
/// snd_seq_ev_set_source, snd_seq_ev_set_subs and snd_seq_ev_set_direct are macros.
static inline void backbeat_seq_event_set_output(snd_seq_event_t *ev, int port) {
    snd_seq_ev_set_source(ev, port);
    snd_seq_ev_set_subs(ev);
    snd_seq_ev_set_direct(ev);
}
static inline unsigned int backbeat_seq_port_type_app(void) {
    return SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION;
}
static inline int backbeat_seq_client_system(void) { return SND_SEQ_CLIENT_SYSTEM; }
static inline int backbeat_seq_port_system_announce(void) { return SND_SEQ_PORT_SYSTEM_ANNOUNCE; }
/// True when the event carries variable-length data (a sysex's bytes in ev->data.ext).
static inline int backbeat_seq_event_is_variable(const snd_seq_event_t *ev) {
    return snd_seq_ev_is_variable(ev);
}
/// Sets the length flags as snd_seq_ev_set_variable/fixed do (for events built in tests).
static inline void backbeat_seq_event_set_variable(snd_seq_event_t *ev, unsigned int len, void *ptr) {
    snd_seq_ev_set_variable(ev, len, ptr);
}
#endif
