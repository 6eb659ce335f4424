import Aggregator
import XCTest

/// The catalog machinery on its own: .po parsing, plural rules, choosing a language, filling
/// placeholders, and the language-dependent forms (counts, ages).
final class LocalizationTests: XCTestCase {
    func testPortableObjectReadsWhatMsgfmtReads() throws {
        let text = #"""
            # A translator's comment
            msgid ""
            msgstr ""
            "Language: ru\n"
            "Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"

            #: Sources/x.swift:1
            #, c-format
            msgid "%s new, %s updated"
            msgstr "%2$s обновлено, "
            "%1$s новых"

            msgctxt "age"
            msgid "now"
            msgstr "сейчас"

            msgid "%s reply"
            msgid_plural "%s replies"
            msgstr[0] "%s ответ"
            msgstr[1] "%s ответа"
            msgstr[2] "%s ответов"

            #, fuzzy
            msgid "draft"
            msgstr "черновик"

            #~ msgid "gone"
            #~ msgstr "ушло"

            msgid "say \"hi\"\tthen\\go"
            msgstr ""
            """#
        let object = try PortableObject(parsing: text, file: "ru.po")
        XCTAssertEqual(object.header["Language"], "ru")
        XCTAssertEqual(object.entries.map(\.id), ["%s new, %s updated", "now", "%s reply", "say \"hi\"\tthen\\go"])
        XCTAssertEqual(object.entries[0].translations, ["%2$s обновлено, %1$s новых"], "continued strings are joined")
        XCTAssertEqual(object.entries[0].flags, ["c-format"])
        XCTAssertEqual(object.entries[1].context, "age")
        XCTAssertEqual(object.entries[2].pluralID, "%s replies")
        let catalog = try MessageCatalog(language: "ru", object: object)
        XCTAssertEqual(catalog.pluralRule.count, 3)
        XCTAssertEqual(catalog.text("draft"), "draft", "a fuzzy entry is not used")
        XCTAssertEqual(catalog.text("gone"), "gone", "an obsolete entry is not used")
        XCTAssertEqual(catalog.text("say \"hi\"\tthen\\go"), "say \"hi\"\tthen\\go", "an empty msgstr falls back to the id")
        XCTAssertEqual(catalog.text("now", context: "age"), "сейчас")
        XCTAssertEqual(catalog.text("now"), "now", "the context is part of the key")
        let forms = [1, 2, 5, 11, 21, 22, 111, 0].map { catalog.text("%s reply", plural: "%s replies", count: $0) }
        XCTAssertEqual(forms, ["%s ответ", "%s ответа", "%s ответов", "%s ответов", "%s ответ", "%s ответа", "%s ответов", "%s ответов"])
    }

    func testBrokenCatalogsNameTheLine() {
        let cases: [(String, Int, String)] = [
            ("msgid \"a\"\nmsgstr \"b\nmsgid \"c\"", 2, "unterminated"),
            ("msgid \"a\"\nmsgstr[0] \"b\"", 2, "unknown keyword"),
            ("msgid \"a\"\n\"more\"\nmsgstr \"\\q\"", 3, "unknown escape"),
            ("\"orphan\"", 1, "continues nothing"),
            ("msgid \"a\"\nmsgid \"b\"\nmsgstr \"c\"", 1, "no msgstr"),
        ]
        for (text, line, reason) in cases {
            XCTAssertThrowsError(try PortableObject(parsing: text, file: "xx.po"), text) { error in
                let failure = error as? PortableObject.SyntaxError
                XCTAssertEqual(failure?.line, line, text)
                XCTAssertTrue(failure?.description.hasPrefix("xx.po:\(line): ") == true, "\(String(describing: failure))")
                XCTAssertTrue(failure?.reason.contains(reason) == true, "\(String(describing: failure)) for \(text)")
            }
        }
    }

    func testPluralRulesEvaluateGettextExpressions() throws {
        XCTAssertEqual([0, 1, 2].map(PluralRule.english.form), [1, 0, 1])
        XCTAssertEqual(try PluralRule(header: "nplurals=1; plural=0;").form(for: 7), 0)
        let polish = try PluralRule(header: "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);")
        XCTAssertEqual([1, 2, 4, 5, 12, 22, 25].map(polish.form), [0, 1, 1, 2, 2, 1, 2])
        let arabic = try PluralRule(
            header: "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;")
        XCTAssertEqual([0, 1, 2, 3, 11, 100].map(arabic.form), [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(try PluralRule(header: "nplurals=2; plural=!(n == 1);").form(for: 1), 0)
        XCTAssertEqual(try PluralRule(header: "nplurals=2; plural=n / 0;").form(for: 3), 0, "division by zero is 0, not a trap")
        XCTAssertEqual(try PluralRule(header: "nplurals=2; plural=n + 5;").form(for: 3), 1, "out of range falls back to the last")
        let wrapping = try PluralRule(header: "nplurals=2; plural=(n / (0 - 1)) % (0 - 1) + n * n;")
        XCTAssertEqual(wrapping.form(for: Int.min), 0, "Int.min / -1 and Int.min * Int.min wrap instead of trapping")
        for bad in [
            "nplurals=2;", "plural=n;", "nplurals=9; plural=n;", "nplurals=2; plural=(n;", "nplurals=2; plural=n ? 1;",
            "nplurals=2; plural=x;",
        ] {
            XCTAssertThrowsError(try PluralRule(header: bad), bad)
        }
        let deep = "nplurals=2; plural=" + String(repeating: "(", count: 500) + "n" + String(repeating: ")", count: 500) + ";"
        XCTAssertThrowsError(try PluralRule(header: deep), "nesting is bounded")
    }

    func testLanguagesMatchLocalesAndAcceptLanguage() {
        let available: Set = ["en", "zh-Hans"]
        for locale in ["zh_CN.UTF-8", "zh_TW", "zh_SG.GB2312", "zh", "zh-Hant-HK", "zh_CN.UTF-8@stroke"] {
            XCTAssertEqual(Language.match(locale, among: available), "zh-Hans", locale)
        }
        for locale in ["C", "POSIX", "", "fr_FR.UTF-8", "C.UTF-8"] {
            XCTAssertNil(Language.match(locale, among: available), locale)
        }
        XCTAssertEqual(Language.match("en_GB.UTF-8", among: available), "en")
        XCTAssertEqual(Language.fromEnvironment(["LANG": "zh_CN.UTF-8"], among: available), "zh-Hans")
        XCTAssertEqual(Language.fromEnvironment(["LC_ALL": "C", "LANG": "zh_CN.UTF-8"], among: available), nil, "LC_ALL wins")
        XCTAssertEqual(Language.fromEnvironment(["LC_MESSAGES": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"], among: available), "zh-Hans")
        XCTAssertEqual(Language.fromEnvironment(["LC_ALL": "", "LANG": "zh_SG"], among: available), "zh-Hans", "empty is unset")
        XCTAssertEqual(
            Language.fromEnvironment(["LANG": "en_US.UTF-8", "LANGUAGE": "fr:zh_CN"], among: available), "zh-Hans", "LANGUAGE's list")
        XCTAssertNil(Language.fromEnvironment(["LANG": "C", "LANGUAGE": "zh_CN"], among: available), "LANGUAGE is ignored under C")
        XCTAssertEqual(Language.fromAcceptLanguage("zh-CN,zh;q=0.9,en;q=0.8", among: available), "zh-Hans")
        XCTAssertEqual(Language.fromAcceptLanguage("fr-FR, en;q=0.5, zh;q=0.4", among: available), "en")
        XCTAssertEqual(Language.fromAcceptLanguage("en;q=0.2, zh-TW;q=0.9", among: available), "zh-Hans")
        XCTAssertNil(Language.fromAcceptLanguage("fr, de;q=0.9, zh;q=0", among: available), "q=0 refuses")
        XCTAssertNil(Language.fromAcceptLanguage("*", among: available))
        XCTAssertThrowsError(try Localization.choose(flag: "klingon", configured: nil, environment: [:])) { error in
            XCTAssertTrue("\(error)".hasPrefix("--lang: no catalog for language \"klingon\" (have: en, zh-Hans"), "\(error)")
        }
        XCTAssertEqual(try Localization.choose(flag: nil, configured: "zh-CN", environment: ["LANG": "en_US.UTF-8"]), "zh-Hans")
        XCTAssertEqual(try Localization.choose(flag: "en", configured: "zh-Hans", environment: [:]), "en", "--lang over the config")
        XCTAssertEqual(try Localization.choose(flag: nil, configured: nil, environment: ["LANG": "de_DE.UTF-8"]), "en")
    }

    func testPlaceholdersAreFilledInTheTranslationsOrder() {
        let key: LocalizedKey = "\(3) new, \("two") updated, 100%"
        XCTAssertEqual(key.id, "%s new, %s updated, 100%%")
        XCTAssertEqual(key.filling(key.id), "3 new, two updated, 100%")
        XCTAssertEqual(key.filling("%2$s 更新，%1$s 新增"), "two 更新，3 新增")
        XCTAssertEqual(key.filling("%d and %s and %s"), "3 and two and ", "a placeholder past the arguments is empty")
        XCTAssertEqual(key.filling("%9$s!"), "!")
        let literal: LocalizedKey = "100% of 数据库 rows, then 50%"
        XCTAssertEqual(literal.id, "100%% of 数据库 rows, then 50%%")
        XCTAssertEqual(literal.filling(literal.id), "100% of 数据库 rows, then 50%")
        XCTAssertEqual(LocalizedKey(stringLiteral: "no sign at all").id, "no sign at all")
    }

    func testChineseFormsOfAgesCountsAndPlurals() throws {
        let chinese = try Localization.catalog("zh-Hans")
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        Localization.$taskCatalog.withValue(chinese) {
            XCTAssertEqual(RelativeTime.short(now.addingTimeInterval(-10), now: now), "刚刚")
            XCTAssertEqual(RelativeTime.short(now.addingTimeInterval(-180), now: now), "3分钟")
            XCTAssertEqual(RelativeTime.long(now.addingTimeInterval(-180), now: now), "3 分钟前")
            XCTAssertEqual(RelativeTime.long(now.addingTimeInterval(-86_400 - 60), now: now), "昨天")
            XCTAssertEqual(RelativeTime.short(now.addingTimeInterval(-40 * 86_400), now: now), "10月9日")
            XCTAssertEqual(RelativeTime.compact(now.addingTimeInterval(-12 * 3_600), now: now), "12时")
            XCTAssertEqual(CountFormat.compact(1_234), "1234")
            XCTAssertEqual(CountFormat.compact(12_345), "1.2万")
            XCTAssertEqual(CountFormat.compact(345_678_901), "3.5亿")
            XCTAssertEqual(Metrics.phrase("1", counting: 1, "replies"), "1 回复")
            XCTAssertEqual(Metrics.phrase("3", counting: 3, "replies"), "3 回复", "Chinese has one form")
            XCTAssertEqual(Localization.languageName, "简体中文")
        }
        Localization.$taskCatalog.withValue(.source) {
            XCTAssertEqual(RelativeTime.long(now.addingTimeInterval(-60), now: now), "1 minute ago")
            XCTAssertEqual(RelativeTime.long(now.addingTimeInterval(-180), now: now), "3 minutes ago")
            XCTAssertEqual(RelativeTime.short(now.addingTimeInterval(-40 * 86_400), now: now), "Oct 9")
            XCTAssertEqual(CountFormat.compact(1_234), "1.2k")
            XCTAssertEqual(CountFormat.compact(12_345), "12k")
            XCTAssertEqual(CountFormat.compact(3_456_789), "3.5M")
            XCTAssertEqual(Metrics.phrase("1", counting: 1, "replies"), "1 reply")
            XCTAssertEqual(Metrics.phrase("3", counting: 3, "replies"), "3 replies")
        }
    }
}
