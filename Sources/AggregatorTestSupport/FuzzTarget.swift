import Aggregator
import Foundation
import Providers
import TerminalFrontEnd

/// The parsers of untrusted input, each as a function from arbitrary bytes to nothing: the
/// libFuzzer harness (`make fuzz`) drives them, and the tests replay every input that once
/// crashed one (Fuzz/Crashers/<target>/).
///
/// A target may throw or return nothing useful for garbage; it must never crash, hang or
/// read out of bounds.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case json, filter, regex, css, feed, date, importLine = "import-line", v2exPage = "v2ex-page", v2exAPI = "v2ex-api"
    case githubTrending = "github-trending", githubEvents = "github-events", giteeExplore = "gitee-explore"
    case dribbblePage = "dribbble-page", redactor, sanitizer
    /// What acting and serving read from pages: V2EX's `once`, problem box and streak, a
    /// home page's linked icons, an icon's format by its bytes.
    case actionPage = "action-page"
    /// The full-text extractor over any page, its output through the sanitizer.
    case article
    /// A message catalog (`.po`, as AGGR_LOCALE_DIR may hold) and its Plural-Forms rule,
    /// then a message looked up and filled through it.
    case catalog
    /// The reader's inline images: PNG, JPEG, GIF and WebP through the system decoders
    /// behind aggr's format sniff and size check, then resized and encoded for the terminal.
    case image
    /// A response header line as libcurl hands it over, and a Content-Type's `charset`.
    case header

    static let reference = Date(timeIntervalSince1970: 1_795_000_000)

    /// A store holding one item, for the filter target (created once per process).
    static let store: Store? = {
        let path = NSTemporaryDirectory() + "aggr-fuzz-\(getpid()).sqlite"
        guard let store = try? Store(path: path) else { return nil }
        _ = try? store.ingest(ItemFactory.synthetic(provider: "p", count: 1), section: Section(provider: "p", key: "hot", title: "Hot"))
        return store
    }()

    /// Feeds `data` to the parser.
    public func run(_ data: [UInt8]) {
        let text = String(decoding: data, as: UTF8.self)
        switch self {
        case .json:
            if let value = try? JSONParser.parse(bytes: data, mode: .upstream) {
                var writer = JSONWriter()
                writer.value(value)
                _ = try? JSONParser.parse(writer.output)
            }
            _ = try? JSONParser.parse(bytes: data)
        case .filter:
            if let expression = try? FilterParser.parse(text) {
                // Compiled and run by SQLite, over a store with one item: SQL that SQLite
                // refuses would show here as a thrown error, never as a crash.
                _ = try? Self.store?.count(matching: expression, now: Self.reference)
            } else if let error = Result(catching: { try FilterParser.parse(text) }).failure {
                _ = "\(error)"
            }
        case .regex:
            // The first line is the pattern, the rest the text it runs over.
            let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            if let regex = try? LinearRegex(String(parts[0]), caseInsensitive: data.first.map { $0 & 1 == 1 } ?? false) {
                _ = regex.matches(parts.count > 1 ? String(parts[1]) : "")
            }
        case .image:
            if let image = try? PixelImage.decode(data) {
                let small = image.resized(width: min(image.width, 64), height: min(image.height, 64))
                _ = SixelImage.encode(small)
                _ = KittyGraphics.place(small, columns: 8, rows: 4)
            }
        case .css:
            _ = try? CSSSelector.xpath(for: text, relative: data.first.map { $0 & 1 == 1 } ?? false)
        case .feed:
            _ = try? FeedParser(url: "https://feed.example/feed.xml", now: Self.reference).parse(data)
        case .date:
            _ = UpstreamDate.parse(text, relativeTo: Self.reference)
            _ = ISOTimestamp.parse(text)
        case .importLine:
            if let item = try? ItemJSONReader.item(line: data[...], number: 1) {
                _ = ItemJSON.line(item.preparedForStorage())
            }
        case .v2exPage:
            let parser = V2EXPageParser(provider: "v2ex", webURL: "https://www.v2ex.com", serverDate: Self.reference)
            _ = try? parser.topicList(data, section: "tab/all")
            _ = try? parser.topicPage(data, topicID: 1, section: "topic/1")
        case .v2exAPI:
            let parser = V2EXAPIv1Parser(provider: "v2ex", webURL: "https://www.v2ex.com")
            _ = try? parser.topics(data, section: "hot")
            _ = try? parser.replies(data, topicID: 1, topicTitle: "t", section: "topic/1")
        case .githubTrending:
            _ = try? GitHubTrendingParser(provider: "gh", webURL: "https://github.com", serverDate: Self.reference).repositories(
                data, section: "trending")
        case .githubEvents:
            _ = try? GitHubEventParser(provider: "gh", webURL: "https://github.com").events(data, section: "events/o/r")
            // The REST payloads share the target: one issue, its comments.
            let api = GitHubAPIParser(provider: "gh", webURL: "https://github.com", apiURL: "https://api.github.com")
            _ = try? api.issue(data, repo: "o/r", section: "issue/o/r/1")
            _ = try? api.comments(data, repo: "o/r", number: 1, title: "t", section: "issue/o/r/1")
        case .giteeExplore:
            _ = try? GiteeExploreParser(provider: "gitee", webURL: "https://gitee.com", serverDate: Self.reference).page(
                data, section: "featured", ranked: true)
        case .dribbblePage:
            let parser = DribbbleParser(provider: "dribbble", webURL: "https://dribbble.com")
            _ = try? parser.shotList(data, section: "popular", servedAt: Self.reference)
            _ = parser.shotDetails(data)
        case .catalog:
            guard let object = try? PortableObject(parsing: text, file: "fuzz.po") else { return }
            if let header = object.header["Plural-Forms"], let rule = try? PluralRule(header: header) {
                for n in [0, 1, 2, 5, 11, 21, 101, Int.max, Int.min] { precondition((0..<rule.count).contains(rule.form(for: n))) }
            }
            if let catalog = try? MessageCatalog(language: "xx", object: object) {
                for entry in object.entries.prefix(20) {
                    let key = LocalizedKey(stringLiteral: entry.id)
                    _ = key.filling(catalog.text(entry.id, context: entry.context))
                    if let plural = entry.pluralID { _ = catalog.text(entry.id, plural: plural, count: 3, context: entry.context) }
                }
            }
        case .article:
            if let article = ArticleExtractor().extract(data, url: "https://site.example/a/b") {
                let lowered = article.content.lowercased()
                precondition(!lowered.contains("<script") && !lowered.contains("<iframe") && !lowered.contains("<style"), article.content)
            }
        case .actionPage:
            _ = V2EXProvider.once(in: data)
            _ = V2EXProvider.problem(in: data)
            _ = V2EXProvider.streak(in: text)
            _ = SiteIconFetch.linkedIcons(in: data, pageURL: "https://site.example/a/")
            _ = SiteIconFetch.imageType(of: data)
        case .header:
            let line = data.withUnsafeBufferPointer { HTTPHeaderLine($0) }
            if case .field(let name, let value) = line {
                // Trimmed at both ends, and the name holds no colon.
                for part in [name, value] {
                    precondition(part.utf8.first.map { ![0x20, 0x09, 0x0D, 0x0A].contains($0) } ?? true, part)
                    precondition(part.utf8.last.map { ![0x20, 0x09, 0x0D, 0x0A].contains($0) } ?? true, part)
                }
                precondition(!name.utf8.contains(UInt8(ascii: ":")), name)
            }
            _ = FeedProvider.charset(text)
        case .redactor:
            _ = SecretRedactor.redactURLs(in: text)
            _ = SecretRedactor.redact(url: text)
            // The clean-text shortcut gives what rebuilding gives, on one line or several.
            for singleLine in [true, false] {
                precondition(TerminalText.sanitize(text, singleLine: singleLine) == TerminalText.rebuilt(text, singleLine: singleLine))
            }
            // The byte readings of http(s) URLs run before any parse.
            _ = WebURL.isHTTP(text)
            _ = WebURL.canonical(text)
        case .sanitizer:
            // Whatever comes in, no live script element or frame comes out.
            let safe = HTMLSanitizer.sanitize(text, baseURL: "https://example.com/a/b")
            let lowered = safe.lowercased()
            precondition(!lowered.contains("<script") && !lowered.contains("<iframe") && !lowered.contains("<style"), safe)
        }
    }

    /// Where the crashers of this target are kept, relative to the repository root.
    public var crasherDirectory: String { "Fuzz/Crashers/\(rawValue)" }
    /// Where the seed inputs of this target are kept, relative to the repository root.
    public var seedDirectory: String { "Fuzz/Seeds/\(rawValue)" }
}

extension Result where Failure == any Error {
    fileprivate var failure: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
