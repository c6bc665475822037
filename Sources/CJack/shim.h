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

// Functions JACK documents as callable from the process callback, re-exported with @_noLocks so Swift's
// performance checker accepts them on the real-time path (it cannot look into C). The attribute is our
// assertion that each is real-time safe: keep this list to what JACK's own docs allow in process().
#define BACKBEAT_RT_SAFE __attribute__((swift_attr("@_noLocks")))

static inline void *backbeat_rt_port_buffer(jack_port_t *port, jack_nframes_t frames) BACKBEAT_RT_SAFE {
    return jack_port_get_buffer(port, frames);
}
static inline uint32_t backbeat_rt_midi_event_count(void *port_buffer) BACKBEAT_RT_SAFE {
    return jack_midi_get_event_count(port_buffer);
}
static inline int backbeat_rt_midi_event_get(jack_midi_event_t *event, void *port_buffer, uint32_t index) BACKBEAT_RT_SAFE {
    return jack_midi_event_get(event, port_buffer, index);
}
static inline jack_nframes_t backbeat_rt_last_frame_time(const jack_client_t *client) BACKBEAT_RT_SAFE {
    return jack_last_frame_time(client);
}
static inline void backbeat_rt_midi_clear_buffer(void *port_buffer) BACKBEAT_RT_SAFE {
    jack_midi_clear_buffer(port_buffer);
}
static inline int backbeat_rt_midi_event_write(void *port_buffer, jack_nframes_t time, const jack_midi_data_t *data,
                                               size_t size) BACKBEAT_RT_SAFE {
    return jack_midi_event_write(port_buffer, time, data, size);
}
#endif
