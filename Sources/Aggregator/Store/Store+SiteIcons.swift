import Foundation
internal import GRDB

extension Store {
    /// The icon kept for `site`, or nil when none was fetched yet.
    public func siteIcon(_ site: String) throws -> SiteIcon? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT site, content_type, data, fetched_at FROM site_icon WHERE site = ?", arguments: [site])
                .map(Self.siteIcon(from:))
        }
    }

    /// Every icon kept with an image.
    public func siteIcons() throws -> [SiteIcon] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT site, content_type, data, fetched_at FROM site_icon WHERE data IS NOT NULL ORDER BY site")
                .map(Self.siteIcon(from:))
        }
    }

    /// Keeps `icon` for its site, replacing what was kept.
    public func saveSiteIcon(_ icon: SiteIcon) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO site_icon (site, content_type, data, fetched_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (site) DO UPDATE SET content_type = excluded.content_type, data = excluded.data,
                        fetched_at = excluded.fetched_at
                    """,
                arguments: [icon.site, icon.contentType, icon.hasImage ? Data(icon.data) : nil, Self.millis(icon.fetchedAt)])
        }
    }

    static func siteIcon(from row: Row) -> SiteIcon {
        let data: Data? = row["data"]
        return SiteIcon(
            site: row["site"], contentType: row["content_type"], data: data.map(Array.init) ?? [],
            fetchedAt: date(row["fetched_at"]))
    }
}
