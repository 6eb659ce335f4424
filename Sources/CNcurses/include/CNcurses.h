#ifndef AGGR_CNCURSES_H
#define AGGR_CNCURSES_H
/* ncursesw for `aggr tui`, loaded on first use.
 *
 * Only `aggr tui` draws with curses, yet linking ncursesw (and libtinfo) loaded both into
 * every aggr process before main. NcursesLoader.c defines the curses functions aggr calls
 * and forwards each to libncursesw.so.6, resolved with dlopen the first time one runs; the
 * aggr_ functions below wrap what Swift cannot import (macros, and globals that Swift 6
 * concurrency checking rejects), reading the library's globals through dlsym. The
 * declarations are ncurses' own headers. */
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Why ncursesw could not be loaded (the loader's own words, for a message that names the
   library), or NULL when it is. */
const char *aggr_curses_load_error(void);

WINDOW *aggr_stdscr(void);
int aggr_lines(void);
int aggr_cols(void);
int aggr_colors(void);
int aggr_attrset(attr_t attributes);
int aggr_move(int y, int x);
int aggr_add_wide(const wchar_t *text, int count);
int aggr_erase(void);
int aggr_refresh(void);
int aggr_get_key(wint_t *key);
void aggr_timeout(int milliseconds);
int aggr_keypad(void);
int aggr_clear_to_end_of_line(void);
/* Whether terminfo describes $TERM (initscr would print an error and exit otherwise);
   0 when ncursesw cannot be loaded. */
int aggr_terminal_known(void);
/* The next refresh repaints every cell (what an inline image drew over is wiped). */
int aggr_repaint_all(void);

static inline attr_t aggr_bold(void) { return A_BOLD; }
static inline attr_t aggr_dim(void) { return A_DIM; }
static inline attr_t aggr_reverse(void) { return A_REVERSE; }
static inline attr_t aggr_underline(void) { return A_UNDERLINE; }
static inline attr_t aggr_color_pair(short pair) { return COLOR_PAIR(pair); }
/* One cell's size in pixels as the terminal reports it; 0 when it does not. */
static inline void aggr_cell_pixels(int *width, int *height) {
    struct winsize size = {0};
    *width = 0;
    *height = 0;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 && size.ws_row > 0) {
        *width = size.ws_xpixel / size.ws_col;
        *height = size.ws_ypixel / size.ws_row;
    }
}
#endif
