#ifndef AGGR_CNCURSES_H
#define AGGR_CNCURSES_H
/* ncursesw for `aggr tui`: wide characters on, and static inline wrappers for what Swift
 * cannot import (macros, and globals that Swift 6 concurrency checking rejects). */
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <sys/ioctl.h>
#include <unistd.h>

static inline WINDOW *aggr_stdscr(void) { return stdscr; }
static inline int aggr_lines(void) { return LINES; }
static inline int aggr_cols(void) { return COLS; }
static inline int aggr_colors(void) { return COLORS; }
static inline attr_t aggr_bold(void) { return A_BOLD; }
static inline attr_t aggr_dim(void) { return A_DIM; }
static inline attr_t aggr_reverse(void) { return A_REVERSE; }
static inline attr_t aggr_underline(void) { return A_UNDERLINE; }
static inline attr_t aggr_color_pair(short pair) { return COLOR_PAIR(pair); }
static inline int aggr_attrset(attr_t attributes) { return wattrset(stdscr, (int)attributes); }
static inline int aggr_move(int y, int x) { return wmove(stdscr, y, x); }
static inline int aggr_add_wide(const wchar_t *text, int count) { return waddnwstr(stdscr, text, count); }
static inline int aggr_erase(void) { return werase(stdscr); }
static inline int aggr_refresh(void) { return wrefresh(stdscr); }
static inline int aggr_get_key(wint_t *key) { return wget_wch(stdscr, key); }
static inline void aggr_timeout(int milliseconds) { wtimeout(stdscr, milliseconds); }
static inline int aggr_keypad(void) { return keypad(stdscr, TRUE); }
static inline int aggr_clear_to_end_of_line(void) { return wclrtoeol(stdscr); }
/* Whether terminfo describes $TERM (initscr would print an error and exit otherwise). */
static inline int aggr_terminal_known(void) {
    int status = 0;
    if (setupterm(NULL, STDOUT_FILENO, &status) != OK) return 0;
    del_curterm(cur_term);
    return status == 1;
}
/* The next refresh repaints every cell (what an inline image drew over is wiped). */
static inline int aggr_repaint_all(void) { return clearok(curscr, TRUE); }
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
