import Aggregator
import Foundation

/// What a Fever app changes: an item read, unread, saved or unsaved; a feed or a group
/// read up to a moment.
extension FeverAPI {
    /// Carries out `mark=item|feed|group`; the id lists the answer then carries (the
    /// unread ids after a read mark, the saved ids after a save), as Fever answered.
    func write(mark: String, _ request: WebRequest, numbers: FeverNumbers) throws -> Set<String> {
        let state = argument(request, "as") ?? ""
        guard let idText = argument(request, "id"), let id = Int64(idText.trimmingCharacters(in: .whitespaces)) else {
            throw ReaderRequestError("mark=\(mark): id must name the \(mark) by its number")
        }
        switch mark {
        case "item":
            guard id > 0, try session.item(ref: id) != nil else { throw ReaderRequestError("mark=item: no item \(id)") }
            switch state {
            case "read", "unread":
                try session.setRead([id], state == "read")
                return ["unread_item_ids"]
            case "saved", "unsaved":
                try session.setSaved([id], state == "saved")
                return ["saved_item_ids"]
            default: throw ReaderRequestError("mark=item: as must be read, unread, saved or unsaved (got \"\(state)\")")
            }
        case "feed", "group":
            guard state == "read" else { throw ReaderRequestError("mark=\(mark): as must be read (got \"\(state)\")") }
            let stream: ReaderStream
            if mark == "feed" {
                guard let name = numbers.feedNames[Int(clamping: id)] else { throw ReaderRequestError("mark=feed: no feed \(id)") }
                stream = .subscription(provider: name.provider, section: name.section)
            } else if id == 0 {
                stream = .readingList  // Kindling: every feed.
            } else if id == -1 {
                return ["unread_item_ids"]  // Sparks: aggr has none.
            } else {
                guard let provider = numbers.groupNames[Int(clamping: id)] else { throw ReaderRequestError("mark=group: no group \(id)") }
                stream = .label(provider)
            }
            guard var query = stream.query(in: session) else { throw ReaderRequestError("mark=\(mark): no \(mark) \(id)") }
            // `before` is when the app last listed items: what reached aggr since stays unread.
            if let before = argument(request, "before"), !before.isEmpty {
                guard let seconds = Int64(before), seconds >= 0 else {
                    throw ReaderRequestError("mark=\(mark): before must be a unix time (got \"\(before)\")")
                }
                query.storedBefore = Date(timeIntervalSince1970: Double(seconds))
            }
            try session.markRead(matching: query)
            return ["unread_item_ids"]
        default:
            throw ReaderRequestError(localized("mark must be item, feed or group (got \"\(mark)\")"))
        }
    }
}
