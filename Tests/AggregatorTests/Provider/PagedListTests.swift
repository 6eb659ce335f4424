import Aggregator
import XCTest

/// The pager owns what an unchanged page means and where a list ends.
final class PagedListTests: XCTestCase {
    /// Pages 1… as item ids "p<page>-<n>"; `unchanged` pages answer nil.
    func read(
        _ list: PagedList<Int>, unchanged: Set<Int> = [], sizes: [Int: Int] = [:], last: Int = .max
    ) async throws -> (items: [String]?, asked: [Int]) {
        var asked: [Int] = []
        let items = try await list.read { page -> Int? in
            asked.append(page)
            return unchanged.contains(page) ? nil : page
        } parse: { page, cursor, readBefore in
            XCTAssertEqual(page, cursor)
            let items = (0..<(sizes[page] ?? 2)).map {
                Item(
                    provider: "p", section: "s", id: "p\(page)-\(readBefore + $0)", kind: .topic, title: "t", url: "http://127.0.0.1/",
                    published: Date(timeIntervalSince1970: 0))
            }
            return PagedList.Page(items: items, next: page < last ? page + 1 : nil)
        }
        return (items?.map(\.id), asked)
    }

    func testPageOneUnchangedMeansTheSectionIsUnchanged() async throws {
        let result = try await read(PagedList(first: 1, pages: 3), unchanged: [1])
        XCTAssertNil(result.items)
        XCTAssertEqual(result.asked, [1])
    }

    func testALaterUnchangedPageEndsTheListAndKeepsWhatCameBefore() async throws {
        let result = try await read(PagedList(first: 1, pages: 5), unchanged: [3])
        XCTAssertEqual(result.items, ["p1-0", "p1-1", "p2-2", "p2-3"], "ranks continue across pages")
        XCTAssertEqual(result.asked, [1, 2, 3])
    }

    func testTheListStopsAtThePageCapAndAtTheLastPage() async throws {
        let capped = try await read(PagedList(first: 1, pages: 2))
        XCTAssertEqual(capped.asked, [1, 2])
        let short = try await read(PagedList(first: 1, pages: 9), last: 3)
        XCTAssertEqual(short.asked, [1, 2, 3])
        XCTAssertEqual(short.items?.count, 6)
    }

    func testSkippedPagesAreSteppedOverAndTheSectionIsUnchangedOnlyWhenEveryPageIs() async throws {
        let skipping = PagedList(first: 1, pages: 3, unchanged: .isSkipped(then: { $0 + 1 }))
        let some = try await read(skipping, unchanged: [1, 2])
        XCTAssertEqual(some.items, ["p3-0", "p3-1"])
        XCTAssertEqual(some.asked, [1, 2, 3])
        let none = try await read(skipping, unchanged: [1, 2, 3])
        XCTAssertNil(none.items)
    }
}
