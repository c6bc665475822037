#ifndef BACKBEAT_CCURSES_SHIM_H
#define BACKBEAT_CCURSES_SHIM_H
// ncursesw's pkg-config cflags (-D_XOPEN_SOURCE) are not used (SwiftPM refuses them: Package.swift); ask for
// the wide-character API here instead.
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

// Used by the workstation driver (Sources/TUI/CursesDriver.swift).
#include <wchar.h>
/// Sets attributes and an extended colour pair (pairs above 32767 need the opts pointer form).
static inline int backbeat_attr_set(attr_t attrs, int pair) { return wattr_set(stdscr, attrs, 0, &pair); }
static inline int backbeat_mvaddnwstr(int y, int x, const wchar_t *text, int n) { return mvwaddnwstr(stdscr, y, x, text, n); }
static inline int backbeat_getch(void) { return wgetch(stdscr); }
static inline void backbeat_timeout(int ms) { wtimeout(stdscr, ms); }
static inline int backbeat_keypad(bool on) { return keypad(stdscr, on); }
static inline int backbeat_erase(void) { return werase(stdscr); }
static inline int backbeat_clearok(bool on) { return clearok(stdscr, on); }
static inline int backbeat_wnoutrefresh(void) { return wnoutrefresh(stdscr); }
static inline mmask_t backbeat_mouse_clicks(void) { return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_RELEASED; }
static inline mmask_t backbeat_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t backbeat_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline int backbeat_key_code_yes(void) { return KEY_CODE_YES; }
#include <signal.h>
#include <langinfo.h>
#include <string.h>
/// True when the current locale's character set is UTF-8 (call after setlocale).
static inline bool backbeat_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}
/// setupterm lives in term.h, whose macros (lines, columns...) would clash: declare just it.
extern int setupterm(const char *term, int filedes, int *errret);
/// 1 when $TERM has a usable terminfo entry; `error` gets setupterm's reason otherwise.
static inline int backbeat_terminal_usable(int *error) { return setupterm(0, 1, error) == OK; }
/// On a crash, put the terminal back before dying (ncurses does the same for SIGINT/SIGTERM).
static void backbeat_crash_restore(int sig) {
    endwin();
    signal(sig, SIG_DFL);
    raise(sig);
}
static inline void backbeat_install_crash_restore(void) {
    int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
    for (unsigned i = 0; i < sizeof fatal / sizeof fatal[0]; i++) signal(fatal[i], backbeat_crash_restore);
}
#endif
