import Aggregator
import AggregatorTestSupport
import XCTest

/// The shipped catalogs against the code: every message the code asks for is in po/en.po and
/// po/zh-Hans.po, translated, with the same placeholders; none is left over; and no
/// user-facing string literal bypasses the catalog (scripts/po-extract, the project's
/// xgettext, lists the messages and lints the literals).
final class CatalogTests: XCTestCase {
    let root = SharedFixtures.repositoryRoot()

    func extract(_ arguments: String...) throws -> (status: Int32, text: String) {
        let output = try ToolOutput.run("/usr/bin/env", ["python3", root + "/scripts/po-extract"] + arguments)
        return (output.status, String(decoding: output.stdout, as: UTF8.self))
    }

    func catalog(_ language: String) throws -> PortableObject {
        let path = root + "/po/\(language).po"
        return try PortableObject(parsing: String(contentsOfFile: path, encoding: .utf8), file: path)
    }

    /// The placeholders of a c-format string as positions: `%s %s` and `%2$s %1$s` are both {1, 2}.
    static func placeholders(_ text: String) -> [Int] {
        var found: [Int] = []
        var next = 0
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "%" else { continue }
            index += 1
            guard index < scalars.count, scalars[index] != "%" else { continue }
            var digits = ""
            var cursor = index
            while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]) {
                digits.unicodeScalars.append(scalars[cursor])
                cursor += 1
            }
            if !digits.isEmpty, cursor < scalars.count, scalars[cursor] == "$", let position = Int(digits) {
                found.append(position)
                index = cursor + 1
            } else {
                next += 1
                found.append(next)
            }
        }
        return found.sorted()
    }

    func testEveryMessageIsInBothCatalogsWithItsPlaceholders() throws {
        let template = try extract("--pot")
        XCTAssertEqual(template.status, 0, template.text)
        let messages = try PortableObject(parsing: template.text, file: "aggr.pot").entries
        XCTAssertGreaterThan(messages.count, 500, "the extractor finds the code's messages")
        let keys = Set(messages.map { "\($0.context ?? "")\u{04}\($0.id)" })
        for language in ["en", "zh-Hans"] {
            let object = try catalog(language)
            let rule = try PluralRule(header: try XCTUnwrap(object.header["Plural-Forms"], language))
            var translated: [String: PortableObject.Entry] = [:]
            for entry in object.entries { translated["\(entry.context ?? "")\u{04}\(entry.id)"] = entry }
            let extra = Set(translated.keys).subtracting(keys)
            XCTAssertTrue(extra.isEmpty, "\(language).po has messages no code asks for: \(extra.sorted().prefix(5))")
            for message in messages {
                let key = "\(message.context ?? "")\u{04}\(message.id)"
                guard let entry = translated[key] else {
                    XCTFail("\(language).po lacks msgid \"\(message.id)\"")
                    continue
                }
                XCTAssertEqual(entry.pluralID, message.pluralID, "\(language): \(message.id)")
                let expectedForms = message.pluralID == nil ? 1 : rule.count
                XCTAssertEqual(entry.translations.count, expectedForms, "\(language): forms of \(message.id)")
                let source = Self.placeholders(message.pluralID ?? message.id)
                for form in entry.translations {
                    XCTAssertFalse(form.isEmpty, "\(language) has no translation of \"\(message.id)\"")
                    // A singular may drop the count ("one reply"); every other form keeps them all.
                    if message.pluralID == nil || entry.translations.count == 1 || form != entry.translations.first {
                        XCTAssertEqual(Self.placeholders(form), source, "\(language): placeholders of \"\(message.id)\" in \"\(form)\"")
                    }
                }
            }
        }
    }

    func testThePlaceholderCheckCatchesAMissingOrExtraOne() {
        XCTAssertEqual(Self.placeholders("%s new, %s updated"), [1, 2])
        XCTAssertEqual(Self.placeholders("%2$s 更新，%1$s 新增"), [1, 2])
        XCTAssertNotEqual(Self.placeholders("%s 新增"), [1, 2], "a missing one differs")
        XCTAssertNotEqual(Self.placeholders("%s %s %s"), [1, 2], "an extra one differs")
        XCTAssertEqual(Self.placeholders("100%% of %s"), [1])
    }

    func testNoUserFacingLiteralBypassesTheCatalog() throws {
        let lint = try extract("--lint")
        XCTAssertEqual(lint.status, 0, "literals that should go through localized(...):\n\(lint.text)")
        XCTAssertEqual(lint.text, "")
    }

    func testTheLintFindsALiteralThatBypassesTheCatalog() throws {
        let directory = TemporaryDirectory(prefix: "aggr-lint")
        directory.write(
            "Probe.swift",
            #"""
            let bare = "nothing was refreshed today"
            let wrapped = localized("nothing was refreshed today")
            let header = "Accept-Language, Cookie"  // verbatim: header names
            let sql = "SELECT ref FROM item WHERE provider = ?"
            logger.info("refresh took a while")
            """#)
        let lint = try extract("--lint", directory.file("Probe.swift"))
        XCTAssertEqual(lint.status, 1)
        let lines = lint.text.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, lint.text)
        XCTAssertTrue(lines.first?.hasSuffix("Probe.swift:1: \"nothing was refreshed today\"") == true, lint.text)
    }
}
