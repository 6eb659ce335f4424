import Aggregator
import CNcurses
import Foundation

/// What one wait for input brought.
public enum KeyEvent: Equatable, Sendable {
    /// A key by its name in ``ReaderKeys`` terms (`j`, `ctrl-d`, `enter`, `shift-tab`…).
    case key(String)
    case resize
    /// Nothing arrived before the timeout.
    case idle
}

/// The terminal through ncursesw: the alternate screen, no echo, keys one at a time.
///
/// Each frame is drawn whole into curses' buffer and curses sends only the cells that
/// changed, so redraws never flicker. ``close()`` restores the terminal; the reader calls it
/// on quit, on every error path and on SIGINT, SIGTERM and SIGHUP.
///
/// A signal closes the screen from another thread while the reader's thread may be inside
/// curses: every curses call holds `lock` and does nothing once the screen is closed, since
/// a draw or a key wait after `endwin` puts the terminal back into raw mode.
final class CursesScreen: @unchecked Sendable {
    // Invariant: curses is called, and `isOpen` changed, only while holding `lock`.
    private let lock = NSLock()
    private let color: Bool
    /// Dim text drawn in a grey of the 256-colour palette rather than with A_DIM.
    private let greyDim: Bool
    private var isOpen = false
    /// The longest one wait for a key holds the lock, so a signal restores the terminal
    /// within this many milliseconds.
    private static let waitSlice: Int32 = 100

    /// Opens the screen; `color` off draws with bold, dim and reverse only (NO_COLOR).
    ///
    /// Colours follow the terminal's depth as terminfo reports it: none (attributes only),
    /// the 8 basic colours, or a grey for dim text on 256-colour terminals.
    init(color: Bool) throws(TerminalError) {
        // The locale decides whether curses speaks UTF-8: use the user's, else C.UTF-8.
        if setlocale(LC_ALL, "") == nil || String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" {
            setlocale(LC_ALL, "C.UTF-8")
        }
        if let reason = aggr_curses_load_error() {
            throw TerminalError(localized("cannot load ncursesw: \(String(cString: reason))"))
        }
        guard aggr_terminal_known() != 0 else {
            let term = ProcessEnvironment.variables["TERM"] ?? ""
            throw TerminalError(
                localized(
                    "terminal type '\(TerminalText.sanitize(term))' is not in the terminfo database (install ncurses-term, or run with TERM=xterm-256color)"
                ))
        }
        initscr()
        cbreak()
        noecho()
        nonl()
        _ = aggr_keypad()
        set_escdelay(25)
        curs_set(0)
        var colored = false
        var greyDim = false
        if color, has_colors() {
            start_color()
            // The terminal's own background where it allows it (else the default black).
            let background: Int16 = use_default_colors() == OK ? -1 : Int16(COLOR_BLACK)
            init_pair(1, Int16(COLOR_CYAN), background)
            init_pair(2, Int16(COLOR_BLUE), background)
            init_pair(3, Int16(COLOR_RED), background)
            // 256 colours: dim text in grey, which every such terminal shows (A_DIM is ignored
            // by several); 8 or 16 colours keep A_DIM.
            if aggr_colors() >= 256 {
                init_pair(4, 244, background)
                greyDim = true
            }
            colored = true
        }
        self.color = colored
        self.greyDim = greyDim
        isOpen = true
    }

    var width: Int { Int(aggr_cols()) }
    var height: Int { Int(aggr_lines()) }

    /// Draws `lines` as the whole screen.
    func draw(_ lines: [StyledLine]) {
        lock.lock()
        defer { lock.unlock() }
        guard isOpen else { return }
        _ = aggr_erase()
        for (row, line) in lines.enumerated() {
            _ = aggr_move(Int32(row), 0)
            for span in line.spans {
                _ = aggr_attrset(attributes(span.attribute))
                var wide = span.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
                _ = aggr_add_wide(&wide, Int32(wide.count))
            }
        }
        _ = aggr_attrset(0)
        _ = aggr_refresh()
    }

    private func attributes(_ attribute: TextAttribute) -> attr_t {
        switch attribute {
        case .plain, .tab: 0
        case .bold: aggr_bold()
        case .dim: greyDim ? aggr_color_pair(4) : aggr_dim()
        case .selected, .currentTab: aggr_reverse() | aggr_bold()
        case .unread: color ? aggr_color_pair(2) | aggr_bold() : aggr_bold()
        case .accent: color ? aggr_color_pair(1) : 0
        case .error: color ? aggr_color_pair(3) | aggr_bold() : aggr_bold()
        }
    }

    /// Waits up to `milliseconds` (-1: until a key) for input, in slices of ``waitSlice``.
    func readKey(timeout milliseconds: Int32) -> KeyEvent {
        var remaining = milliseconds
        while true {
            let slice = remaining < 0 ? Self.waitSlice : min(remaining, Self.waitSlice)
            lock.lock()
            guard isOpen else {
                lock.unlock()
                usleep(useconds_t(max(slice, 1)) * 1_000)
                return .idle
            }
            aggr_timeout(slice)
            var code: wint_t = 0
            let status = aggr_get_key(&code)
            lock.unlock()
            if status != ERR { return Self.event(status: status, code: code) }
            if remaining >= 0 {
                remaining -= slice
                if remaining <= 0 { return .idle }
            }
        }
    }

    /// The event of one `get_wch` result.
    private static func event(status: Int32, code: wint_t) -> KeyEvent {
        if status == KEY_CODE_YES {
            switch Int32(code) {
            case KEY_RESIZE: return .resize
            case KEY_UP: return .key("up")
            case KEY_DOWN: return .key("down")
            case KEY_LEFT: return .key("left")
            case KEY_RIGHT: return .key("right")
            case KEY_NPAGE: return .key("pgdn")
            case KEY_PPAGE: return .key("pgup")
            case KEY_HOME: return .key("home")
            case KEY_END: return .key("end")
            case KEY_BTAB: return .key("shift-tab")
            case KEY_BACKSPACE: return .key("backspace")
            case KEY_ENTER: return .key("enter")
            default: return .idle
            }
        }
        return .key(name(of: UInt32(code)))
    }

    /// The key name of character `code`.
    static func name(of code: UInt32) -> String {
        switch code {
        case 9: "tab"
        case 10, 13: "enter"
        case 27: "esc"
        case 8, 127: "backspace"
        case 32: "space"
        case 1...26: "ctrl-" + String(UnicodeScalar(UInt8(96 + code)))
        default: UnicodeScalar(code).map { String(Character($0)) } ?? ""
        }
    }

    /// Makes the next draw repaint every cell, wiping what an inline image drew.
    func repaintAll() {
        lock.withLock { if isOpen { _ = aggr_repaint_all() } }
    }

    /// One cell's size in pixels, as the terminal reports it (10×20 when it does not).
    var cellPixels: (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        aggr_cell_pixels(&width, &height)
        return width > 0 && height > 0 ? (Int(width), Int(height)) : (10, 20)
    }

    /// Writes `sequence` at row `row`, column `column` (from 0) without moving curses' cursor.
    func writeOutOfBand(_ sequence: String, row: Int, column: Int) {
        let framed = "\u{1B}7\u{1B}[\(row + 1);\(column + 1)H" + sequence + "\u{1B}8"
        lock.withLock { if isOpen { StandardStream.output.write(framed) } }
    }

    /// Gives the terminal to `body` (an editor), then takes it back and repaints.
    func suspend(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard isOpen else {
            body()
            return
        }
        def_prog_mode()
        endwin()
        body()
        reset_prog_mode()
        _ = aggr_repaint_all()
    }

    /// Restores the terminal (idempotent).
    func close() {
        lock.lock()
        defer { lock.unlock() }
        guard isOpen else { return }
        isOpen = false
        endwin()
    }
}

/// The terminal cannot host the reader.
public struct TerminalError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
