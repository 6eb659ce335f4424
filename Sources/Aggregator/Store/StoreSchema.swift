internal import GRDB

/// The versioned schema, applied with `PRAGMA user_version` inside one IMMEDIATE
/// transaction so two processes opening a new database at once cannot both migrate it.
enum StoreSchema {
    /// Each entry moves the schema from version `index` to `index + 1`; never edit a
    /// released entry, append a new one.
    static let migrations: [String] = [
        """
        CREATE TABLE item (
            ref INTEGER PRIMARY KEY,
            provider TEXT NOT NULL,
            section TEXT NOT NULL,
            item_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            title TEXT NOT NULL,
            url TEXT NOT NULL,
            canonical_url TEXT NOT NULL,
            author TEXT,
            author_url TEXT,
            summary TEXT NOT NULL,
            content TEXT,
            published INTEGER NOT NULL,
            updated INTEGER,
            tags TEXT NOT NULL,
            replies INTEGER, comments INTEGER, stars INTEGER, forks INTEGER, likes INTEGER, views INTEGER,
            image TEXT,
            extra TEXT NOT NULL,
            first_seen INTEGER NOT NULL,
            read_at INTEGER,
            UNIQUE (provider, item_id)
        );
        CREATE INDEX item_by_published ON item (published DESC, provider, item_id);
        CREATE INDEX item_by_provider ON item (provider, published DESC);
        CREATE INDEX item_by_canonical_url ON item (canonical_url);
        CREATE TABLE section (
            provider TEXT NOT NULL, key TEXT NOT NULL, title TEXT NOT NULL,
            PRIMARY KEY (provider, key)
        ) WITHOUT ROWID;
        CREATE TABLE tombstone (
            provider TEXT NOT NULL, item_id TEXT NOT NULL, removed_at INTEGER NOT NULL,
            PRIMARY KEY (provider, item_id)
        ) WITHOUT ROWID;
        CREATE TABLE provider_state (
            provider TEXT PRIMARY KEY,
            last_attempt INTEGER, last_success INTEGER, last_error TEXT,
            consecutive_failures INTEGER NOT NULL DEFAULT 0,
            next_allowed_fetch INTEGER,
            wait_reason TEXT
        );
        CREATE TABLE http_validator (
            url TEXT PRIMARY KEY, etag TEXT, last_modified TEXT, body_hash TEXT, stored_at INTEGER NOT NULL
        );
        CREATE VIRTUAL TABLE item_fts USING fts5 (
            title, summary, author, tags, content = '', tokenize = 'unicode61 remove_diacritics 2'
        );
        """,
        // 2: when a refresh last met a tombstoned item, so tombstones of items upstream
        // stopped listing long ago can be forgotten.
        "ALTER TABLE tombstone ADD COLUMN last_seen INTEGER;",
        // 3: credentials written by earlier versions (a feed URL's `?token=` in section keys,
        // item URLs and last errors) are redacted in place; `aggr_redact` is SecretRedactor.
        // Items gain a saved (starred) state beside read.
        """
        ALTER TABLE item ADD COLUMN saved_at INTEGER;
        CREATE INDEX item_saved ON item (published DESC, provider, item_id) WHERE saved_at IS NOT NULL;
        UPDATE OR REPLACE section SET key = aggr_redact(key) WHERE key <> aggr_redact(key);
        UPDATE item SET section = aggr_redact(section) WHERE section <> aggr_redact(section);
        UPDATE item SET url = aggr_redact(url), canonical_url = aggr_redact(canonical_url)
            WHERE url <> aggr_redact(url) OR canonical_url <> aggr_redact(canonical_url);
        UPDATE item SET image = aggr_redact(image) WHERE image <> aggr_redact(image);
        UPDATE item SET author_url = aggr_redact(author_url) WHERE author_url <> aggr_redact(author_url);
        UPDATE OR IGNORE item SET item_id = aggr_redact(item_id) WHERE item_id <> aggr_redact(item_id);
        UPDATE provider_state SET last_error = aggr_redact_text(last_error) WHERE last_error <> aggr_redact_text(last_error);
        """,
        // 4: how far each notification rule has looked (the highest item number it has
        // seen), so a rule fires only for items stored after it appeared, at most once each;
        // replies found by their topic and unread counts per provider without a table scan
        // (the web UI's item page and tabs).
        """
        CREATE TABLE notify_mark (
            rule TEXT PRIMARY KEY, last_ref INTEGER NOT NULL, created_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX item_reply_topic ON item (provider, json_extract(extra, '$.topic')) WHERE kind = 'reply';
        CREATE INDEX item_unread ON item (provider) WHERE read_at IS NULL;
        """,
        // 5: validators belong to one provider and URL: two providers reading the same URL
        // (or one API under two tokens, whose redacted URLs match) each need their own, or
        // the second sees the first's body hash and never stores its items. The old rows
        // are dropped; each URL is fetched in full once.
        """
        DROP TABLE http_validator;
        CREATE TABLE http_validator (
            provider TEXT NOT NULL, url TEXT NOT NULL, etag TEXT, last_modified TEXT, body_hash TEXT, stored_at INTEGER NOT NULL,
            PRIMARY KEY (provider, url)
        ) WITHOUT ROWID;
        """,
        // 6: secrets this installation generates for itself (what `aggr serve` signs its
        // reader-app tokens and form tokens with), so two installations sharing a password
        // never share a token. Rotated by `aggr serve --rotate-tokens`.
        """
        CREATE TABLE installation_secret (
            purpose TEXT PRIMARY KEY, value TEXT NOT NULL, created_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        """,
        // 7: a number every write that changes what a listing shows (items stored, updated
        // or removed, read or saved state) moves on, so front ends notice another process's
        // writes with one cheap read (``Store/dataVersion()``).
        """
        CREATE TABLE change_count (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL);
        INSERT INTO change_count (id, value) VALUES (1, 0);
        """,
        // 8: item numbers only grow, as reader apps expect of item ids (FreshRSS's are
        // microsecond times): SQLite gives a new row the highest number plus one, so once
        // the newest item was removed its number came back for another. The highest number
        // ever removed is kept, and ingest numbers past it (``Store/ingest``). Apps sync
        // "what was stored since" (`ot`), which the first-seen index answers.
        """
        CREATE TABLE ref_floor (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL);
        INSERT INTO ref_floor (id, value) VALUES (1, (SELECT coalesce(max(ref), 0) FROM item));
        CREATE TRIGGER item_removed_raises_ref_floor AFTER DELETE ON item WHEN old.ref > (SELECT value FROM ref_floor WHERE id = 1)
        BEGIN UPDATE ref_floor SET value = old.ref WHERE id = 1; END;
        CREATE INDEX item_by_first_seen ON item (first_seen);
        """,
        // 9: labels users put on items (a reader app's `user/-/label/…` through edit-tag),
        // listed by label and by item; they go with their item.
        """
        CREATE TABLE item_label (label TEXT NOT NULL, ref INTEGER NOT NULL, PRIMARY KEY (label, ref)) WITHOUT ROWID;
        CREATE INDEX item_label_by_ref ON item_label (ref);
        CREATE TRIGGER item_removed_drops_labels AFTER DELETE ON item BEGIN DELETE FROM item_label WHERE ref = old.ref; END;
        """,
        // 10: sites' icons, fetched once and served from aggr (pages and reader apps make no
        // third-party request for them); a site without one is remembered too (data NULL).
        """
        CREATE TABLE site_icon (
            site TEXT PRIMARY KEY, content_type TEXT, data BLOB, fetched_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        """,
        // 11: what the user did upstream through aggr (replied, thanked, favourited, liked,
        // starred, reacted), per item and gone with it; and each provider's last daily check-in.
        """
        CREATE TABLE item_action (
            ref INTEGER NOT NULL, action TEXT NOT NULL, done_at INTEGER NOT NULL, PRIMARY KEY (ref, action)
        ) WITHOUT ROWID;
        CREATE TRIGGER item_removed_drops_actions AFTER DELETE ON item BEGIN DELETE FROM item_action WHERE ref = old.ref; END;
        CREATE TABLE checkin (provider TEXT PRIMARY KEY, day TEXT NOT NULL, streak INTEGER, at INTEGER NOT NULL) WITHOUT ROWID;
        """,
        // 12: the article extracted from an item's page (full text), kept with its item and
        // gone with it, and indexed for search (its text, CJK as bigrams as in item_fts).
        """
        CREATE TABLE item_article (
            ref INTEGER PRIMARY KEY, title TEXT NOT NULL, byline TEXT, content TEXT NOT NULL, text TEXT NOT NULL,
            fetched_at INTEGER NOT NULL
        );
        CREATE VIRTUAL TABLE article_fts USING fts5 (text, tokenize = 'unicode61 remove_diacritics 2');
        CREATE TRIGGER item_removed_drops_article AFTER DELETE ON item BEGIN
            DELETE FROM item_article WHERE ref = old.ref;
            DELETE FROM article_fts WHERE rowid = old.ref;
        END;
        """,
        // 13: `aggr serve`'s browser sessions, so several serve processes on one database
        // know each other's sign-ins; kept by the SHA-256 of the cookie, never the cookie.
        """
        CREATE TABLE web_session (
            id_hash TEXT PRIMARY KEY, csrf TEXT NOT NULL, user_name TEXT, expires_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX web_session_by_expiry ON web_session (expires_at);
        """,
        // 14: nothing here: PostgreSQL stores its search vectors (FTS5 keeps its own index)
        // and its users' views (a SQLite file's one user keeps views in providers.json).
        // The step keeps both backends' version numbers in step.
        "SELECT 14",
        // 15: nothing here either: PostgreSQL keeps its users' own notification rules (a
        // SQLite file's one user keeps them in providers.json).
        "SELECT 15",
    ]

    /// The SQL functions migration 3 calls: ``SecretRedactor`` on a URL or key, and on URLs
    /// inside a message.
    static let redactFunctions = [
        DatabaseFunction("aggr_redact", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map(SecretRedactor.redact(url:))
        },
        DatabaseFunction("aggr_redact_text", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map(SecretRedactor.redactURLs(in:))
        },
    ]

    static var currentVersion: Int { migrations.count }

    /// Rewrites every stored item that holds escape sequences, C0/C1 controls or bidi
    /// overrides as ingest now stores it (``Item/preparedForStorage()``), index included.
    static func stripStoredControls(in db: Database) throws {
        db.add(
            function: DatabaseFunction("aggr_has_controls", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(TerminalText.hasControls) ?? false
            })
        let rows = try ItemRow.items(
            db,
            sql: """
                SELECT \(ItemRow.selection) FROM \(ItemRow.from)
                WHERE aggr_has_controls(i.title) OR aggr_has_controls(i.summary) OR aggr_has_controls(i.author)
                    OR aggr_has_controls(i.content) OR aggr_has_controls(i.tags) OR aggr_has_controls(i.extra)
                """)
        for stored in rows {
            let old = stored.item
            let new = old.preparedForStorage()
            try db.execute(
                sql: "UPDATE item SET title = ?, summary = ?, author = ?, content = ?, tags = ?, extra = ? WHERE ref = ?",
                arguments: [
                    new.title, new.summary, new.author?.name, new.content, ItemRow.encodeTags(new.tags), ItemRow.encodeExtra(new.extra),
                    stored.ref,
                ])
            let before = FullTextIndex.Entry(title: old.title, summary: old.summary, author: old.author?.name, tags: old.tags)
            let after = FullTextIndex.Entry(title: new.title, summary: new.summary, author: new.author?.name, tags: new.tags)
            if before != after {
                try FullTextIndex.delete(before, ref: stored.ref, in: db)
                try FullTextIndex.insert(after, ref: stored.ref, in: db)
            }
        }
    }

    /// Fails unless a file opened read-only already has this aggr's schema.
    static func checkReadable(_ reader: any DatabaseReader, path: String) throws {
        let version = try reader.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
        guard version == currentVersion else {
            throw StoreError(
                path: path,
                message: version > currentVersion
                    ? "schema version \(version) is newer than this aggr understands (\(currentVersion)); upgrade aggr"
                    : "is read-only and still at schema version \(version); open it once with write access to upgrade it")
        }
    }

    /// Brings `writer`'s schema up to date, or fails when the file is from a newer aggr.
    static func migrate(_ writer: any DatabaseWriter, path: String) throws {
        let version = try writer.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
        if version == currentVersion { return }
        try writer.writeWithoutTransaction { db in
            // Rows rewritten by an upgrade (credentials redacted) must not linger in free pages.
            let secureDelete = try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? 0
            try db.execute(sql: "PRAGMA secure_delete = ON")
            defer { try? db.execute(sql: "PRAGMA secure_delete = \(secureDelete)") }
            var upgraded = false
            try db.inTransaction(.immediate) {
                let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                guard found <= currentVersion else {
                    throw StoreError(
                        path: path, message: "schema version \(found) is newer than this aggr understands (\(currentVersion)); upgrade aggr"
                    )
                }
                for function in redactFunctions { db.add(function: function) }
                for step in found..<currentVersion {
                    try db.execute(sql: migrations[step])
                    // 3 also strips control characters stored by earlier versions, which needs
                    // Swift: the full-text index must be told the exact old values.
                    if step == 2 { try stripStoredControls(in: db) }
                }
                upgraded = found > 0
                try db.execute(sql: "PRAGMA user_version = \(currentVersion)")
                return .commit
            }
            // After an upgrade, copy the rewritten pages back into the file now, so the old
            // ones (with what was redacted) do not wait there for the next checkpoint. PASSIVE
            // never waits for other processes: a blocking checkpoint here stalled a concurrent
            // import, and a fresh database has nothing to scrub.
            if upgraded { try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
        }
    }
}
