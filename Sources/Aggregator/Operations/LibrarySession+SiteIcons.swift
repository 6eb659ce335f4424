import Foundation

/// Sites' icons, fetched once through ``SiteIconFetch`` and kept, so pages and reader apps
/// show them without a request to any other site.
extension LibrarySession {
    /// How long a kept icon stands before it is fetched again.
    static let iconLifetime: TimeInterval = 30 * 86_400
    /// How long a site found without an icon is left before it is asked again.
    static let missingIconLifetime: TimeInterval = 86_400

    /// The origin (`scheme://host[:port]`) of provider `id`'s site, whose icon stands for it.
    public func siteOrigin(of id: String) -> String? {
        guard let site = siteURL(of: id), WebURL.isHTTP(site) else { return nil }
        return SecretRedactor.origin(of: site)
    }

    /// The icon of provider `id`'s site, fetched now when none is kept (or it is stale);
    /// nil when the provider has no site or the site no usable icon.
    public func siteIcon(ofProvider id: String) async -> SiteIcon? {
        guard let site = siteOrigin(of: id) else { return nil }
        let kept = try? storage.siteIcon(site)
        if let kept, isFresh(kept) { return kept.hasImage ? kept : nil }
        let fetched = await SiteIconFetch(http: http).fetch(site: site, now: clock())
        // A fault this time keeps an icon fetched before; a read-only database just serves it.
        if !fetched.hasImage, let kept, kept.hasImage { return kept }
        try? storage.saveSiteIcon(fetched)
        return fetched.hasImage ? fetched : nil
    }

    /// The icons of the configured providers' sites by provider id, fetching the ones not
    /// kept yet (four sites at a time).
    public func siteIcons() async -> [String: SiteIcon] {
        let ids = configuration.providers.map(\.id)
        var icons: [String: SiteIcon] = [:]
        await withTaskGroup(of: (String, SiteIcon?).self) { group in
            var next = ids.makeIterator()
            func start() {
                guard let id = next.next() else { return }
                group.addTask { (id, await self.siteIcon(ofProvider: id)) }
            }
            for _ in 0..<4 { start() }
            for await (id, icon) in group {
                icons[id] = icon
                start()
            }
        }
        return icons
    }

    func isFresh(_ icon: SiteIcon) -> Bool {
        clock().timeIntervalSince(icon.fetchedAt) < (icon.hasImage ? Self.iconLifetime : Self.missingIconLifetime)
    }
}
