import Aggregator
import AggregatorTestSupport
import XCTest

@testable import TerminalFrontEnd

/// The reader's layout, widths and keys without a terminal.
final class ReaderLayoutTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_200_000)

    func stored(_ ref: Int64, _ title: String, read: Bool = false) -> StoredItem {
        let item = Item(
            provider: "v2ex", section: "hot", id: "\(ref)", kind: .topic, title: title, url: "https://v2ex.com/t/\(ref)", summary: "",
            published: Date(timeIntervalSince1970: 1_795_100_000), metrics: Metrics(replies: 12))
        return StoredItem(ref: ref, item: item, firstSeen: now, readAt: read ? now : nil, sectionTitle: "Hot")
    }

    func testRowsFillTheWidthExactlyWithCJKCountedTwice() {
        var model = ReaderModel(tabs: [ReaderTab(tab: .all)])
        model.items = [stored(1, "数据库选型讨论：SQLite 还是 PostgreSQL，这是一个很长的标题"), stored(2, "ASCII title", read: true)]
        let layout = ReaderLayout(width: 60, height: 10, now: now)
        let lines = layout.screen(model, keys: ReaderKeys())
        XCTAssertEqual(lines.count, 10)
        for row in lines[1...2] {
            XCTAssertEqual(DisplayWidth.of(row.text), 60, row.text)
            XCTAssertTrue(row.text.hasSuffix("12💬"), row.text)
        }
        XCTAssertEqual(lines[1].spans.first?.attribute, .selected, "the selection is drawn reversed")
        XCTAssertTrue(lines[2].text.hasPrefix(" "), "a read item has no unread mark")
        XCTAssertTrue(lines[9].text.contains("1/2"), lines[9].text)
    }

    /// At 60 columns nothing the reader says is cut: help, the facts line, the thread's note;
    /// a long filter's caret stays on screen under its column; "0 of 12 replies" when none are stored.
    func testNarrowScreensWrapWhatTheyCannotFitAndKeepTheCaretInView() {
        let layout = ReaderLayout(width: 60, height: 40, now: now)
        let help = layout.help(ReaderKeys()).map(\.text)
        XCTAssertTrue(help.allSatisfy { DisplayWidth.of($0) <= 60 }, help.joined(separator: "\n"))
        let words = help.map { $0.trimmingWhitespace() }.joined(separator: " ")
        XCTAssertTrue(words.contains("on a page, open link N"), "wrapped, not cut: \(help.joined(separator: "\n"))")
        XCTAssertTrue(words.contains("q on the list quits"))

        let note =
            "12 replies counted upstream, none stored: its provider \"v2ex\" is no longer in providers.json, so they cannot be fetched"
        let page = layout.page(stored(1, "A title"), thread: [], threadNote: note).lines.map(\.text)
        XCTAssertTrue(page.allSatisfy { DisplayWidth.of($0) <= 60 }, page.joined(separator: "\n"))
        XCTAssertTrue(page.contains { $0.hasPrefix("── 0 of 12 replies ──") }, page.joined(separator: "\n"))
        XCTAssertTrue(page.joined(separator: " ").contains("so they cannot be fetched"))

        let filter = "title ~ \"数据库\" and replies > 10 and author = \"someone\" and likes >"
        let error =
            "likes > needs a number, found the end of the filter (column 66)\n  \(filter)\n"
            + String(repeating: " ", count: 2 + DisplayWidth.of(filter)) + "^"
        let lines = layout.filterErrorLines(error).map(\.text)
        let caret = lines[2].count - 1
        XCTAssertLessThan(caret, 60, "the caret is on screen: \(lines)")
        XCTAssertEqual(DisplayWidth.of(lines[1]), caret, "it stands right after the filter's last cell: \(lines)")
        XCTAssertTrue(lines[1].hasPrefix("…") && lines[1].hasSuffix("likes >"), lines[1])
    }

    func testTheTabBarKeepsTheCurrentTabInView() {
        var model = ReaderModel(tabs: (0..<12).map { ReaderTab(tab: .provider("provider-\($0)"), unread: 3) })
        model.currentTab = 11
        let bar = ReaderLayout(width: 40, height: 10, now: now).tabBar(model).truncated(to: 40)
        XCTAssertTrue(bar.text.hasPrefix("‹"), bar.text)
        XCTAssertTrue(bar.text.contains("provider-11 3"), bar.text)
    }

    func testSelectionFollowsItsItemWhenNewItemsArrive() {
        var model = ReaderModel(tabs: [ReaderTab(tab: .all)])
        model.replaceItems([stored(1, "a"), stored(2, "b"), stored(3, "c")], height: 10)
        model.move(by: 1, height: 10)
        XCTAssertEqual(model.selected?.ref, 2)
        model.replaceItems([stored(4, "new"), stored(5, "newer"), stored(1, "a"), stored(2, "b"), stored(3, "c")], height: 10)
        XCTAssertEqual(model.selected?.ref, 2)
        XCTAssertEqual(model.selection, 3)
    }

    func testWrappingBreaksCJKAnywhereAndWordsAtSpaces() {
        XCTAssertEqual(TextWrap.lines("数据库选型讨论", width: 6), ["数据库", "选型讨", "论"])
        XCTAssertEqual(TextWrap.lines("hello brave new world", width: 11), ["hello brave", "new world"])
        XCTAssertEqual(TextWrap.lines("abcdefghij", width: 4), ["abcd", "efgh", "ij"])
    }

    func testKeysHaveVimDefaultsAndRemapsMoveAKey() throws {
        let defaults = ReaderKeys()
        XCTAssertEqual(defaults.action(for: "j"), .down)
        XCTAssertEqual(defaults.action(for: "ctrl-d"), .pageDown)
        XCTAssertEqual(defaults.action(for: "shift-tab"), .previousTab)
        let remapped = ReaderKeys(overrides: [.toggleRead: "m", .openBrowser: "r"])
        XCTAssertEqual(remapped.action(for: "m"), .toggleRead)
        XCTAssertEqual(remapped.action(for: "r"), .openBrowser, "r left toggle-read for open-browser")
        XCTAssertNil(remapped.action(for: "o"))
        XCTAssertEqual(CursesScreen.name(of: 4), "ctrl-d")
        XCTAssertEqual(CursesScreen.name(of: 13), "enter")
        XCTAssertEqual(CursesScreen.name(of: 0x6570), "数")

        let loader = ConfigLoader(registry: ProviderRegistry([]))
        XCTAssertEqual(
            try loader.parse(bytes: Array(#"{"keys": {"toggle-read": "m"}}"#.utf8), file: "p.json").keys.action(for: "m"), .toggleRead)
        for (text, expected) in [
            (#"{"keys": {"toggle-read": "meta-x"}}"#, "keys.toggle-read"), (#"{"keys": {"jump": "x"}}"#, "unknown key \"jump\""),
            (#"{"keys": {"up": "x", "down": "x"}}"#, "already bound to up"),
        ] {
            XCTAssertThrowsError(try loader.parse(bytes: Array(text.utf8), file: "p.json")) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }
}
