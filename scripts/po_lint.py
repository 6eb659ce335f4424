"""The check that user-facing text goes through the catalog (scripts/po-extract --lint).

A string literal in shipped code that reads as prose (two words or more, or a word and a
colon) must be an argument of localized(...). Not prose: markup, CSS and script, SQL, URLs,
MIME types, format strings, escape sequences, log calls (logs are for operators: their
field names and messages stay English, as Linux daemons' do), and literals on a line that
says why with a `// verbatim: reason` comment (on it or on the line before).
"""
import os, re

PROSE = re.compile(r"\b[A-Za-z][a-z'’]+[ ,;:—·]+[$]?[A-Za-z][a-z]")
MACHINE = re.compile(
    r"[<>{}=\[\]]|https?:|\\u\{1b|\\u\{1B|%[.0-9]*[sdf@]"
    r"|\b(SELECT|INSERT|UPDATE|DELETE|CREATE|FROM|WHERE|JOIN|ORDER BY|PRAGMA|VALUES|WITH|INDEX|TABLE)\b"
    r"|^[a-z]+/[a-z0-9.+-]+(;|$)|^[\w.-]+$|^[A-Z][\w-]+: |\\r\\n|^(GET|POST|HEAD)\b|^EEE"
)
LOG = re.compile(r"(logger|Logger|log)\??\.(trace|debug|info|notice|warning|error|critical)\(|fatalError\(|precondition|assert\(|XCT")
# Files whose text is data for programs, not messages for people: machine formats we
# serve or store. Their strings are names, keys and formats.
EXEMPT = (
    "Sources/Aggregator/Store/",
    "Sources/Aggregator/JSON/",
    "Sources/Aggregator/Feed/",
    "Sources/Aggregator/Markup/",
    "Sources/Aggregator/Localization/",
    "Sources/WebFrontEnd/WebAssets.swift",
    "Sources/WebFrontEnd/ReaderAPI+Atom.swift",
    # The titles of items made from GitHub events ("alice starred …"): stored data.
    "Sources/Providers/GitHub/GitHubEventParser.swift",
)


def literals(text, read_literal, mask):
    """(offset, end, literal text) of every ordinary string literal outside comments."""
    masked = mask(text)
    i, n = 0, len(masked)
    while i < n:
        c = masked[i]
        if c == "#" and masked.startswith('"', i + 1):
            hashes = len(masked[i:]) - len(masked[i:].lstrip("#"))
            triple = masked.startswith('"""', i + hashes)
            close = ('"""' if triple else '"') + "#" * hashes
            i = masked.index(close, i + hashes + (3 if triple else 1)) + len(close)
            continue
        if c == '"':
            _, end, _ = read_literal(text, i)
            yield i, end, text[i:end]
            # Literals inside interpolations are checked as part of the outer one.
            i = end
            continue
        i += 1


def lint(files, root, read_literal, mask):
    problems = []
    for path in files:
        rel = os.path.relpath(path, root)
        if rel.startswith(EXEMPT):
            continue
        text = open(path, encoding="utf-8").read()
        lines = text.split("\n")
        for start, end, body in literals(text, read_literal, mask):
            if body.startswith('"""'):
                continue
            before = text[max(0, start - 200) : start].rstrip()
            if before.endswith(("localized(", "context:", "plural:")):
                continue
            inner = re.sub(r"\\\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)", "\u2026", body[1:-1])
            if not PROSE.search(inner) or MACHINE.search(inner):
                continue
            number = text.count("\n", 0, start)
            line = lines[number]
            previous = lines[number - 1] if number else ""
            if LOG.search(line) or LOG.search(previous) or "// verbatim:" in line or "// verbatim:" in previous:
                continue
            problems.append("%s:%d: %s" % (rel, number + 1, body))
    return problems
