import Aggregator

/// The numbers Fever apps know aggr's subscriptions (feeds) and providers (groups) by.
///
/// Fever names everything by a positive integer; aggr names subscriptions by provider and
/// section. Each name gets the FNV-1a hash of its text folded into 1…2³¹−1 (apps such as
/// Fluent Reader fall back to 32-bit ids), so a number stays the same across restarts and
/// config edits without being stored. Two names landing on one number, rare below millions
/// of subscriptions, are told apart by taking the next free number in name order.
struct FeverNumbers {
    private(set) var feeds: [SubscriptionName: Int] = [:]
    private(set) var feedNames: [Int: SubscriptionName] = [:]
    private(set) var groups: [String: Int] = [:]
    private(set) var groupNames: [Int: String] = [:]

    init(subscriptions: [SubscriptionName], providers: [String]) {
        let sortedFeeds = subscriptions.sorted { ($0.provider, $0.section) < ($1.provider, $1.section) }
        for name in sortedFeeds where feeds[name] == nil {
            let number = Self.free(Self.number(of: "\(name.provider)\u{0}\(name.section)"), in: feedNames)
            feeds[name] = number
            feedNames[number] = name
        }
        for provider in providers.sorted() where groups[provider] == nil {
            let number = Self.free(Self.number(of: provider), in: groupNames)
            groups[provider] = number
            groupNames[number] = provider
        }
    }

    /// `text`'s 64-bit FNV-1a hash folded into 1…2³¹−1.
    static func number(of text: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return Int(hash % UInt64(Int32.max)) + 1
    }

    static func free<Value>(_ number: Int, in taken: [Int: Value]) -> Int {
        var number = number
        while taken[number] != nil { number = number % Int(Int32.max) + 1 }
        return number
    }
}
