import Foundation

/// How the terminal is told to draw an image in place: the kitty graphics protocol or sixel.
public enum InlineImageProtocol: String, Sendable, CaseIterable {
    case kitty, sixel

    /// The protocol `setting` asks for in this `environment`.
    ///
    /// `off` (the default) none, `kitty` or `sixel` that one, `auto` what the terminal is
    /// known by its variables to speak (kitty, WezTerm and Ghostty: kitty; foot, mlterm, contour and xterm started
    /// with sixel: sixel), else none. Inside tmux or screen, `auto` shows none: they do not
    /// pass these sequences through.
    public static func chosen(by setting: String, environment: [String: String]) -> InlineImageProtocol? {
        switch setting {
        case "kitty": return .kitty
        case "sixel": return .sixel
        case "auto": break
        default: return nil
        }
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        if environment["TMUX"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") { return nil }
        if term == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil || term == "xterm-ghostty" || program == "ghostty"
            || program == "WezTerm"
        {
            return .kitty
        }
        if term.hasPrefix("foot") || term.hasPrefix("mlterm") || term.hasPrefix("contour") || term.contains("sixel") {
            return .sixel
        }
        return nil
    }

    /// The settings `--images` accepts.
    public static let settings = ["off", "auto", "kitty", "sixel"]

    /// The escape sequence that draws `image` in `columns`×`rows` cells at the cursor.
    public func sequence(for image: PixelImage, columns: Int, rows: Int, cell: (width: Int, height: Int)) -> String {
        switch self {
        case .kitty:
            // The terminal scales to the cells: send no more pixels than they show.
            let scale = min(1, Double(columns * cell.width) / Double(image.width), Double(rows * cell.height) / Double(image.height))
            let sent = image.resized(width: Int(Double(image.width) * scale), height: Int(Double(image.height) * scale))
            return KittyGraphics.place(sent, columns: columns, rows: rows)
        case .sixel:
            return SixelImage.encode(image.resized(width: columns * cell.width, height: rows * cell.height))
        }
    }
}
