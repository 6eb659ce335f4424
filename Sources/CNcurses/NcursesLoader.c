/* Defines the curses functions aggr calls and forwards them to libncursesw.so.6, loaded with
 * dlopen on first use (see include/CNcurses.h for why). */
#include "CNcurses.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    void *library;
    char error[512];
    WINDOW **stdscr;
    WINDOW **curscr;
    int *screen_lines;
    int *screen_cols;
    int *screen_colors;
    TERMINAL **cur_term;
    WINDOW *(*initscr)(void);
    int (*endwin)(void);
    int (*cbreak)(void);
    int (*noecho)(void);
    int (*nonl)(void);
    int (*set_escdelay)(int);
    int (*curs_set)(int);
    bool (*has_colors)(void);
    int (*start_color)(void);
    int (*use_default_colors)(void);
    int (*init_pair)(NCURSES_PAIRS_T, NCURSES_COLOR_T, NCURSES_COLOR_T);
    int (*def_prog_mode)(void);
    int (*reset_prog_mode)(void);
    int (*wattrset)(WINDOW *, int);
    int (*wmove)(WINDOW *, int, int);
    int (*waddnwstr)(WINDOW *, const wchar_t *, int);
    int (*werase)(WINDOW *);
    int (*wrefresh)(WINDOW *);
    int (*wget_wch)(WINDOW *, wint_t *);
    void (*wtimeout)(WINDOW *, int);
    int (*keypad)(WINDOW *, bool);
    int (*wclrtoeol)(WINDOW *);
    int (*clearok)(WINDOW *, bool);
    int (*setupterm)(const char *, int, int *);
    int (*del_curterm)(TERMINAL *);
} curses;

static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, name)                                                                      \
    do {                                                                                          \
        *(void **)(&curses.field) = dlsym(curses.library, name);                                   \
        if (curses.field == NULL) {                                                                \
            snprintf(curses.error, sizeof curses.error, "libncursesw.so.6 has no %s", name);       \
            curses.library = NULL;                                                                 \
            return;                                                                                \
        }                                                                                         \
    } while (0)

static void load(void) {
    curses.library = dlopen("libncursesw.so.6", RTLD_NOW | RTLD_LOCAL);
    if (curses.library == NULL) {
        snprintf(curses.error, sizeof curses.error, "%s", dlerror());
        return;
    }
    RESOLVE(stdscr, "stdscr");
    RESOLVE(curscr, "curscr");
    RESOLVE(screen_lines, "LINES");
    RESOLVE(screen_cols, "COLS");
    RESOLVE(screen_colors, "COLORS");
    RESOLVE(cur_term, "cur_term");
    RESOLVE(initscr, "initscr");
    RESOLVE(endwin, "endwin");
    RESOLVE(cbreak, "cbreak");
    RESOLVE(noecho, "noecho");
    RESOLVE(nonl, "nonl");
    RESOLVE(set_escdelay, "set_escdelay");
    RESOLVE(curs_set, "curs_set");
    RESOLVE(has_colors, "has_colors");
    RESOLVE(start_color, "start_color");
    RESOLVE(use_default_colors, "use_default_colors");
    RESOLVE(init_pair, "init_pair");
    RESOLVE(def_prog_mode, "def_prog_mode");
    RESOLVE(reset_prog_mode, "reset_prog_mode");
    RESOLVE(wattrset, "wattrset");
    RESOLVE(wmove, "wmove");
    RESOLVE(waddnwstr, "waddnwstr");
    RESOLVE(werase, "werase");
    RESOLVE(wrefresh, "wrefresh");
    RESOLVE(wget_wch, "wget_wch");
    RESOLVE(wtimeout, "wtimeout");
    RESOLVE(keypad, "keypad");
    RESOLVE(wclrtoeol, "wclrtoeol");
    RESOLVE(clearok, "clearok");
    RESOLVE(setupterm, "setupterm");
    RESOLVE(del_curterm, "del_curterm");
}

static int ready(void) {
    pthread_once(&once, load);
    return curses.library != NULL;
}

const char *aggr_curses_load_error(void) { return ready() ? NULL : curses.error; }

int aggr_terminal_known(void) {
    if (!ready()) return 0;
    int status = 0;
    if (curses.setupterm(NULL, STDOUT_FILENO, &status) != OK) return 0;
    curses.del_curterm(*curses.cur_term);
    return status == 1;
}

/* Everything below runs after aggr_terminal_known() loaded the library (the screen checks
   it before initscr); each still checks, so a call out of order fails instead of crashing. */
WINDOW *initscr(void) { return ready() ? curses.initscr() : NULL; }
int endwin(void) { return ready() ? curses.endwin() : ERR; }
int cbreak(void) { return ready() ? curses.cbreak() : ERR; }
int noecho(void) { return ready() ? curses.noecho() : ERR; }
int nonl(void) { return ready() ? curses.nonl() : ERR; }
int set_escdelay(int delay) { return ready() ? curses.set_escdelay(delay) : ERR; }
int curs_set(int visibility) { return ready() ? curses.curs_set(visibility) : ERR; }
bool has_colors(void) { return ready() ? curses.has_colors() : FALSE; }
int start_color(void) { return ready() ? curses.start_color() : ERR; }
int use_default_colors(void) { return ready() ? curses.use_default_colors() : ERR; }
int init_pair(NCURSES_PAIRS_T pair, NCURSES_COLOR_T foreground, NCURSES_COLOR_T background) {
    return ready() ? curses.init_pair(pair, foreground, background) : ERR;
}
int def_prog_mode(void) { return ready() ? curses.def_prog_mode() : ERR; }
int reset_prog_mode(void) { return ready() ? curses.reset_prog_mode() : ERR; }

WINDOW *aggr_stdscr(void) { return ready() ? *curses.stdscr : NULL; }
int aggr_lines(void) { return ready() ? *curses.screen_lines : 0; }
int aggr_cols(void) { return ready() ? *curses.screen_cols : 0; }
int aggr_colors(void) { return ready() ? *curses.screen_colors : 0; }
int aggr_attrset(attr_t attributes) { return ready() ? (curses.wattrset)(*curses.stdscr, (int)attributes) : ERR; }
int aggr_move(int y, int x) { return ready() ? curses.wmove(*curses.stdscr, y, x) : ERR; }
int aggr_add_wide(const wchar_t *text, int count) { return ready() ? curses.waddnwstr(*curses.stdscr, text, count) : ERR; }
int aggr_erase(void) { return ready() ? curses.werase(*curses.stdscr) : ERR; }
int aggr_refresh(void) { return ready() ? curses.wrefresh(*curses.stdscr) : ERR; }
int aggr_get_key(wint_t *key) { return ready() ? curses.wget_wch(*curses.stdscr, key) : ERR; }
void aggr_timeout(int milliseconds) { if (ready()) curses.wtimeout(*curses.stdscr, milliseconds); }
int aggr_keypad(void) { return ready() ? curses.keypad(*curses.stdscr, TRUE) : ERR; }
int aggr_clear_to_end_of_line(void) { return ready() ? curses.wclrtoeol(*curses.stdscr) : ERR; }
int aggr_repaint_all(void) { return ready() ? curses.clearok(*curses.curscr, TRUE) : ERR; }
