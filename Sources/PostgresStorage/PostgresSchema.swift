import Aggregator
import Foundation

/// The PostgreSQL schema and its version history, kept in step with the SQLite store's.
///
/// Version numbers are shared: a PostgreSQL database starts at the SQLite store's version 12
/// (everything up to it in one step, with per-user state from the start), and each later
/// version is one SQLite migration and one entry here. The version is in `aggr_schema`;
/// migrations run in one transaction under an advisory lock, so two processes opening a new
/// database at once cannot both migrate it.
enum PostgresSchema {
    /// The version the first PostgreSQL step creates (the SQLite store's version then).
    static let baseVersion = 12

    /// Each entry moves the schema from version `baseVersion + index - 1` (0: empty) to the
    /// next; never edit a released entry, append a new one.
    static let migrations: [String] = [
        """
        CREATE TABLE aggr_user (
            id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE, password_hash TEXT, created_at BIGINT NOT NULL
        );
        CREATE SEQUENCE item_ref AS BIGINT;
        -- Text keys order by byte ("C"), as SQLite orders them, whatever the collation of the database.
        CREATE TABLE item (
            ref BIGINT PRIMARY KEY,
            provider TEXT COLLATE "C" NOT NULL, section TEXT COLLATE "C" NOT NULL, item_id TEXT COLLATE "C" NOT NULL, kind TEXT NOT NULL,
            title TEXT NOT NULL, url TEXT NOT NULL, canonical_url TEXT NOT NULL, author TEXT, author_url TEXT,
            summary TEXT NOT NULL, content TEXT, published BIGINT NOT NULL, updated BIGINT, tags TEXT NOT NULL,
            replies BIGINT, comments BIGINT, stars BIGINT, forks BIGINT, likes BIGINT, views BIGINT,
            image TEXT, extra TEXT NOT NULL, first_seen BIGINT NOT NULL,
            search_title TEXT NOT NULL, search_text TEXT NOT NULL,
            UNIQUE (provider, item_id)
        );
        CREATE INDEX item_by_published ON item (published DESC, provider, item_id);
        CREATE INDEX item_by_provider ON item (provider, published DESC);
        CREATE INDEX item_by_canonical_url ON item (canonical_url);
        CREATE INDEX item_by_first_seen ON item (first_seen);
        CREATE INDEX item_reply_topic ON item (provider, ((extra::jsonb ->> 'topic'))) WHERE kind = 'reply';
        CREATE INDEX item_search ON item USING gin (to_tsvector('simple'::regconfig, search_text));
        CREATE TABLE item_state (
            user_id BIGINT NOT NULL REFERENCES aggr_user ON DELETE CASCADE,
            ref BIGINT NOT NULL REFERENCES item ON DELETE CASCADE,
            read_at BIGINT, saved_at BIGINT,
            PRIMARY KEY (user_id, ref)
        );
        CREATE INDEX item_state_by_ref ON item_state (ref);
        CREATE TABLE item_label (
            user_id BIGINT NOT NULL REFERENCES aggr_user ON DELETE CASCADE,
            label TEXT NOT NULL,
            ref BIGINT NOT NULL REFERENCES item ON DELETE CASCADE,
            PRIMARY KEY (user_id, label, ref)
        );
        CREATE INDEX item_label_by_ref ON item_label (ref);
        CREATE TABLE section (
            provider TEXT COLLATE "C" NOT NULL, key TEXT COLLATE "C" NOT NULL, title TEXT NOT NULL, PRIMARY KEY (provider, key)
        );
        CREATE TABLE tombstone (
            provider TEXT NOT NULL, item_id TEXT NOT NULL, removed_at BIGINT NOT NULL, last_seen BIGINT,
            PRIMARY KEY (provider, item_id)
        );
        CREATE TABLE provider_state (
            provider TEXT PRIMARY KEY, last_attempt BIGINT, last_success BIGINT, last_error TEXT,
            consecutive_failures BIGINT NOT NULL DEFAULT 0, next_allowed_fetch BIGINT, wait_reason TEXT
        );
        CREATE TABLE http_validator (
            provider TEXT NOT NULL, url TEXT NOT NULL, etag TEXT, last_modified TEXT, body_hash TEXT, stored_at BIGINT NOT NULL,
            PRIMARY KEY (provider, url)
        );
        CREATE TABLE notify_mark (
            user_id BIGINT NOT NULL REFERENCES aggr_user ON DELETE CASCADE,
            rule TEXT NOT NULL, last_ref BIGINT NOT NULL, created_at BIGINT NOT NULL,
            PRIMARY KEY (user_id, rule)
        );
        CREATE TABLE installation_secret (purpose TEXT PRIMARY KEY, value TEXT NOT NULL, created_at BIGINT NOT NULL);
        CREATE TABLE change_count (id INTEGER PRIMARY KEY CHECK (id = 1), value BIGINT NOT NULL);
        INSERT INTO change_count (id, value) VALUES (1, 0);
        CREATE TABLE site_icon (site TEXT PRIMARY KEY, content_type TEXT, data BYTEA, fetched_at BIGINT NOT NULL);
        CREATE TABLE item_action (
            ref BIGINT NOT NULL REFERENCES item ON DELETE CASCADE, action TEXT NOT NULL, done_at BIGINT NOT NULL,
            PRIMARY KEY (ref, action)
        );
        CREATE TABLE checkin (provider TEXT PRIMARY KEY, day TEXT NOT NULL, streak BIGINT, at BIGINT NOT NULL);
        CREATE TABLE item_article (
            ref BIGINT PRIMARY KEY REFERENCES item ON DELETE CASCADE,
            title TEXT NOT NULL, byline TEXT, content TEXT NOT NULL, text TEXT NOT NULL, search_text TEXT NOT NULL,
            fetched_at BIGINT NOT NULL
        );
        CREATE INDEX item_article_search ON item_article USING gin (to_tsvector('simple'::regconfig, search_text));
        CREATE TABLE refresh_claim (provider TEXT PRIMARY KEY, worker TEXT NOT NULL, until BIGINT NOT NULL)
        """,
        // 13: serve's browser sessions (by the SHA-256 of the cookie), shared by every serve.
        """
        CREATE TABLE web_session (
            id_hash TEXT PRIMARY KEY, csrf TEXT NOT NULL, user_name TEXT, expires_at BIGINT NOT NULL
        );
        CREATE INDEX web_session_by_expiry ON web_session (expires_at)
        """,
        // 14: the search vectors stored, so a match's recheck and rank read them instead of
        // parsing `search_text` again for each candidate row; each user's own views.
        """
        ALTER TABLE item ADD COLUMN search_vector tsvector
            GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, search_text)) STORED;
        DROP INDEX item_search;
        CREATE INDEX item_search ON item USING gin (search_vector);
        ALTER TABLE item_article ADD COLUMN search_vector tsvector
            GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, search_text)) STORED;
        DROP INDEX item_article_search;
        CREATE INDEX item_article_search ON item_article USING gin (search_vector);
        CREATE TABLE user_view (
            user_id BIGINT NOT NULL REFERENCES aggr_user ON DELETE CASCADE, name TEXT NOT NULL, expression TEXT NOT NULL,
            PRIMARY KEY (user_id, name)
        )
        """,
        // 15: each user's own notification rules, as providers.json's `notify` entries
        // (JSON text); their marks are `notify_mark` rows named `own/<name>`.
        """
        CREATE TABLE user_rule (
            user_id BIGINT NOT NULL REFERENCES aggr_user ON DELETE CASCADE, name TEXT NOT NULL, entry TEXT NOT NULL,
            PRIMARY KEY (user_id, name)
        )
        """,
    ]

    /// The version this aggr's schema is at: the SQLite store's (``Store/schemaVersion``).
    static var currentVersion: Int { baseVersion + migrations.count - 1 }

    /// A number no other aggr lock uses, for `pg_advisory_xact_lock`.
    static let migrationLock: Int64 = 0x6167_6772_0001

    /// Brings the schema up to date, or fails when the database is from a newer aggr.
    static func migrate(_ session: PostgresSession) throws {
        if try version(session) == currentVersion { return }
        try session.execute("BEGIN")
        do {
            try session.execute("SELECT pg_advisory_xact_lock(?)", [.integer(migrationLock)])
            try session.execute("CREATE TABLE IF NOT EXISTS aggr_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version BIGINT NOT NULL)")
            let found = try version(session) ?? 0
            guard found <= currentVersion else {
                throw StoreError(
                    path: session.place,
                    message: localized("schema version \(found) is newer than this aggr understands (\(currentVersion)); upgrade aggr"))
            }
            let first = found == 0 ? 0 : found - baseVersion + 1
            // One statement per call: the extended protocol postgres-nio speaks takes no lists.
            for step in first..<migrations.count {
                for statement in migrations[step].components(separatedBy: ";\n") where !statement.allSatisfy(\.isWhitespace) {
                    try session.execute(statement)
                }
            }
            try session.execute(
                "INSERT INTO aggr_schema (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version",
                [.integer(Int64(currentVersion))])
            try session.execute("COMMIT")
        } catch {
            _ = try? session.execute("ROLLBACK")
            throw error
        }
    }

    /// The stored schema version; nil before the first migration.
    private static func version(_ session: PostgresSession) throws -> Int? {
        guard try session.value(Bool.self, "SELECT to_regclass('aggr_schema') IS NOT NULL") == true else { return nil }
        return try session.value(Int64.self, "SELECT version FROM aggr_schema WHERE id = 1").map(Int.init)
    }

    /// The user a store acts as: `name`, else the only user, else the one named `USER`;
    /// a database without users gets its first one (named `USER`, or `aggr`).
    static func user(named name: String?, environment: [String: String], in session: PostgresSession) throws -> (Int64, String) {
        if let name {
            guard let id = try session.value(Int64.self, "SELECT id FROM aggr_user WHERE name = ?", [.text(name)]) else {
                throw StoreError(path: session.place, message: localized("no user \(name) (add one with `aggr users add \(name)`)"))
            }
            return (id, name)
        }
        let users = try session.rows("SELECT id, name FROM aggr_user ORDER BY id LIMIT 2")
        if users.count == 1, let id = try users[0].get(0, as: Int64.self), let only = try users[0].get(1, as: String.self) {
            return (id, only)
        }
        let own = environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "aggr"
        if users.isEmpty {
            try session.execute(
                "INSERT INTO aggr_user (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                [.text(own), .integer(PostgresStore.millis(Date()))])
        }
        guard let id = try session.value(Int64.self, "SELECT id FROM aggr_user WHERE name = ?", [.text(own)]) else {
            throw StoreError(path: session.place, message: localized("several users and none named \(own): choose one with --user"))
        }
        return (id, own)
    }
}
