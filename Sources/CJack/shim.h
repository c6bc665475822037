#ifndef BACKBEAT_CJACK_SHIM_H
#define BACKBEAT_CJACK_SHIM_H
#include <jack/jack.h>
#include <jack/midiport.h>
#include <jack/ringbuffer.h>
#include <jack/statistics.h>

/// jack_client_open is variadic (the server name travels as a vararg): Swift cannot call it directly.
static inline jack_client_t *backbeat_jack_client_open(const char *client_name, jack_options_t options,
                                                       jack_status_t *status, const char *server_name) {
    if (server_name != NULL && server_name[0] != '\0') {
        return jack_client_open(client_name, (jack_options_t)(options | JackServerName), status, server_name);
    }
    return jack_client_open(client_name, options, status);
}

/// JACK_DEFAULT_AUDIO_TYPE / JACK_DEFAULT_MIDI_TYPE are macros.
static inline const char *backbeat_jack_audio_type(void) { return JACK_DEFAULT_AUDIO_TYPE; }
static inline const char *backbeat_jack_midi_type(void) { return JACK_DEFAULT_MIDI_TYPE; }
#endif
