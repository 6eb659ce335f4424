import Aggregator
import AggregatorTestSupport
import ConsoleFrontEnd
import XCTest

final class TimelineRendererTests: XCTestCase {
    func stored(_ item: Item, ref: Int64, read: Bool = false, section: String? = "Forum › Hot") -> StoredItem {
        StoredItem(ref: ref, item: item, firstSeen: ItemFactory.epoch, readAt: read ? ItemFactory.epoch : nil, sectionTitle: section)
    }

    func testColumnsFitTheWidthCountingWideCharacters() {
        let renderer = TimelineRenderer(terminal: TerminalProfile(isTTY: false, width: 60, color: false), now: ItemFactory.epoch)
        let items = [
            stored(ItemFactory.item(id: "1", title: "一个很长的中文标题，用来测试宽字符的截断是否正确处理", minutesAgo: 5, metrics: Metrics(replies: 12)), ref: 7),
            stored(ItemFactory.item(id: "2", title: "Short \u{1B}[2Jtitle", minutesAgo: 60 * 26), ref: 12, read: true, section: nil),
        ]
        let lines = renderer.render(items, format: .text).split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines,
            [
                " 7 *     5m  Forum › Hot  一个很长的中文标题，…  12 replies",
                "12       1d  forum/hot    Short title",
            ])
        for line in lines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 60) }
    }

    func testColourOnlyWhenEnabled() {
        let item = stored(ItemFactory.item(id: "1"), ref: 1)
        let plain = TimelineRenderer(terminal: TerminalProfile(isTTY: true, width: 80, color: false), now: ItemFactory.epoch)
        let colored = TimelineRenderer(terminal: TerminalProfile(isTTY: true, width: 80, color: true), now: ItemFactory.epoch)
        XCTAssertFalse(plain.render([item], format: .text).contains("\u{1B}"))
        XCTAssertTrue(colored.render([item], format: .text).contains("\u{1B}[1m"))
    }

    func testTSVHasOneCleanLinePerItem() {
        let renderer = TimelineRenderer(terminal: TerminalProfile(isTTY: false, width: 80, color: false), now: ItemFactory.epoch)
        let output = renderer.render([stored(ItemFactory.item(id: "1", title: "tab\there\nnewline"), ref: 3)], format: .tsv)
        XCTAssertEqual(
            output,
            "ref\tprovider\tsection\tid\tkind\tpublished\ttitle\turl\tauthor\ttags\n3\tforum\thot\t1\ttopic\t2026-11-21T00:00:00Z\ttab here newline\thttps://forum.example/t/1\talice\t\n"
        )
    }

    func testRelativeTimes() {
        let now = ItemFactory.epoch
        XCTAssertEqual(RelativeTime.short(now.addingTimeInterval(-30), now: now), "now")
        XCTAssertEqual(RelativeTime.short(now.addingTimeInterval(-3_599), now: now), "59m")
        XCTAssertEqual(RelativeTime.short(now.addingTimeInterval(-7_200), now: now), "2h")
        XCTAssertEqual(RelativeTime.short(now.addingTimeInterval(-86_400 * 3), now: now), "3d")
        XCTAssertEqual(RelativeTime.short(now.addingTimeInterval(-86_400 * 20), now: now), "Nov 1")
        XCTAssertEqual(RelativeTime.short(now.addingTimeInterval(-86_400 * 400), now: now), "2025-10-17")
        XCTAssertEqual(RelativeTime.long(now.addingTimeInterval(-7_200), now: now), "2 hours ago")
    }

    /// The reader's four-cell column never cuts an age short (it showed `Nov…` and `202…`).
    func testCompactAgesFitFourCells() {
        let now = ItemFactory.epoch
        let cases: [(TimeInterval, String)] = [
            (30, "now"), (3_599, "59m"), (7_200, "2h"), (86_400 * 3, "3d"), (86_400 * 20, "2w"), (86_400 * 29, "4w"),
            (86_400 * 30, "1mo"), (86_400 * 364, "12mo"), (86_400 * 400, "1y"), (86_400 * 365 * 12, "12y"),
        ]
        for (age, expected) in cases {
            let text = RelativeTime.compact(now.addingTimeInterval(-age), now: now)
            XCTAssertEqual(text, expected, "\(age) s")
            XCTAssertLessThanOrEqual(DisplayWidth.of(text), 4)
        }
    }
}
