import Aggregator
import Foundation

/// What the output terminal can do: its width and whether to colour.
public struct TerminalProfile: Sendable, Equatable {
    public var isTTY: Bool
    public var width: Int
    public var color: Bool

    public init(isTTY: Bool, width: Int, color: Bool) {
        self.isTTY = isTTY
        self.width = width
        self.color = color
    }

    /// Reads standard output: width from the terminal, else `$COLUMNS`, else 100; colour
    /// only on a TTY, never with `NO_COLOR` set or `TERM=dumb`.
    public static func standardOutput(environment: [String: String]) -> TerminalProfile {
        let tty = isatty(STDOUT_FILENO) == 1
        var width = 0
        if tty {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 { width = Int(size.ws_col) }
        }
        if width <= 0 { width = environment["COLUMNS"].flatMap(Int.init) ?? 100 }
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let color = tty && !noColor && environment["TERM"] != "dumb"
        return TerminalProfile(isTTY: tty, width: max(40, width), color: color)
    }
}
