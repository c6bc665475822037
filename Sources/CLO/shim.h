#ifndef BACKBEAT_CLO_SHIM_H
#define BACKBEAT_CLO_SHIM_H
// liblo, used only as the OSC codec: Backbeat binds and reads its own UDP socket (so it chooses the address
// it listens on and sees who sent each datagram) and has liblo encode and decode the messages.
#include <lo/lo.h>

/// lo_arg is a union; a string argument is the address of its first byte.
static inline const char *backbeat_lo_arg_string(lo_arg **argv, int index) { return &argv[index]->s; }
static inline int32_t backbeat_lo_arg_int32(lo_arg **argv, int index) { return argv[index]->i; }
#endif
