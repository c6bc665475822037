#ifndef BACKBEAT_CCURSES_SHIM_H
#define BACKBEAT_CCURSES_SHIM_H
// SwiftPM drops ncursesw's -D_XOPEN_SOURCE cflags; ask for the wide-character API here instead.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <ncursesw/curses.h>

// Macros and C globals, re-exported as functions (Swift 6 rejects the globals as shared mutable state).
static inline WINDOW *backbeat_stdscr(void) { return stdscr; }
static inline int backbeat_lines(void) { return LINES; }
static inline int backbeat_cols(void) { return COLS; }
static inline int backbeat_colors(void) { return COLORS; }
static inline int backbeat_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t backbeat_color_pair(short n) { return (attr_t)COLOR_PAIR(n); }
static inline attr_t backbeat_a_bold(void) { return A_BOLD; }
static inline attr_t backbeat_a_dim(void) { return A_DIM; }
static inline attr_t backbeat_a_reverse(void) { return A_REVERSE; }
static inline attr_t backbeat_a_underline(void) { return A_UNDERLINE; }
static inline attr_t backbeat_a_normal(void) { return A_NORMAL; }
static inline int backbeat_err(void) { return ERR; }
static inline int backbeat_key_resize(void) { return KEY_RESIZE; }
static inline int backbeat_key_mouse(void) { return KEY_MOUSE; }
#endif
