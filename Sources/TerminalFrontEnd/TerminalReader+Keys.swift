import Aggregator
import Foundation

/// The reader's keys: each parsed into a ``ReaderAction`` or typed into the prompt.
extension TerminalReader {
    /// Handles one key; false quits.
    func handle(_ key: String) throws -> Bool {
        if model.showingHelp {
            model.showingHelp = false
            return true
        }
        if let prompt = model.prompt { return try typeInPrompt(key, prompt) }
        if let pending = confirming {
            confirming = nil
            if key == "y" || key == "Y" {
                startUpstream(pending.order, on: pending.stored)
            } else {
                model.message = localized("nothing was sent")
            }
            return true
        }
        if model.page != nil, let digit = key.first, key.count == 1, digit.isNumber {
            model.linkNumber += key
            return true
        }
        if model.page != nil, key == "enter", !model.linkNumber.isEmpty {
            openLink(Int(model.linkNumber) ?? 0)
            model.linkNumber = ""
            return true
        }
        model.linkNumber = ""
        guard let action = keys.action(for: key) else { return true }
        let rows = model.listRows(height: height)
        switch action {
        case .down: model.page != nil ? model.scrollPage(by: 1, height: height) : model.move(by: 1, height: height)
        case .up: model.page != nil ? model.scrollPage(by: -1, height: height) : model.move(by: -1, height: height)
        case .pageDown: model.page != nil ? model.scrollPage(by: height / 2, height: height) : model.move(by: rows / 2, height: height)
        case .pageUp: model.page != nil ? model.scrollPage(by: -height / 2, height: height) : model.move(by: -rows / 2, height: height)
        case .top:
            model.page != nil ? model.scrollPage(by: -Int.max / 2, height: height) : model.move(by: -model.items.count, height: height)
        case .bottom:
            if model.page == nil, nextCursor != nil, model.search == nil { try loadRest() }
            model.page != nil ? model.scrollPage(by: Int.max / 2, height: height) : model.move(by: model.items.count, height: height)
        case .open: if model.page == nil { try openSelected() }
        case .back:
            if model.page != nil {
                model.page = nil
            } else if model.search != nil || model.filter != nil {
                model.search = nil
                model.filter = nil
                model.filterError = nil
                try reloadItems()
            } else if key == "esc" {
                // Esc backs out of things; leaving the reader takes q, so a stray Esc
                // (after a filter error, a second press) never quits.
                model.filterError = nil
                model.message = localized("\(keys.bindings[.back]?.first { $0 != "esc" } ?? "q") quits")
            } else {
                return false
            }
        case .nextTab, .previousTab:
            guard model.page == nil, !model.tabs.isEmpty else { return true }
            model.currentTab = (model.currentTab + (action == .nextTab ? 1 : model.tabs.count - 1)) % model.tabs.count
            model.selection = 0
            model.top = 0
            try reloadItems()
        case .search: if model.page == nil { model.prompt = (.search, model.search ?? "") }
        case .filter: if model.page == nil { model.prompt = (.filter, model.filter ?? "") }
        case .toggleRead: try toggleRead()
        case .toggleSaved: try toggleSaved()
        case .markTabRead:
            let marked = try ownWrite { try session.markRead(tab: currentTab, filter: model.filter) }
            model.message = localized("marked \(marked) read")
            try reloadItems()
            try updateCounts()
        case .openBrowser: if let url = currentItem?.item.url { openInBrowser(url) }
        case .copyURL: if let url = currentItem?.item.url { copy(url) }
        case .refresh: startRefresh()
        case .help: model.showingHelp = true
        case .reply, .thank, .favourite, .like, .star, .react: if let upstream = action.upstream { actUpstream(upstream) }
        case .fullText: try startFullText()
        }
        if model.page == nil, model.selection >= model.items.count - 5, nextCursor != nil, model.search == nil { try loadMore() }
        return true
    }

    var currentItem: StoredItem? { model.page?.stored ?? model.selected }

    /// Typing into the search or filter prompt.
    func typeInPrompt(_ key: String, _ prompt: (kind: ReaderModel.PromptKind, text: String)) throws -> Bool {
        switch key {
        case "esc": model.prompt = nil
        case "enter":
            model.prompt = nil
            let text = prompt.text.trimmingCharacters(in: .whitespaces)
            if prompt.kind == .search {
                model.search = text.isEmpty ? nil : text
                model.selection = 0
                try reloadItems()
            } else if text.isEmpty {
                model.filter = nil
                model.filterError = nil
                try reloadItems()
            } else {
                do {
                    _ = try session.query(for: currentTab, filter: text)
                    model.filter = text
                    model.filterError = nil
                    model.selection = 0
                    try reloadItems()
                } catch ItemSelection.Failure.invalidFilter(let error) {
                    // Shown under the list with its caret, as the CLI prints it.
                    model.filterError = "\(error)"
                }
            }
        case "backspace": model.prompt = (prompt.kind, String(prompt.text.dropLast()))
        // The line-editing keys of a shell: Ctrl-U clears the line, Ctrl-W the last word.
        case "ctrl-u": model.prompt = (prompt.kind, "")
        case "ctrl-w":
            var text = prompt.text
            while text.last?.isWhitespace == true { text.removeLast() }
            while let last = text.last, !last.isWhitespace { text.removeLast() }
            model.prompt = (prompt.kind, text)
        case "space": model.prompt = (prompt.kind, prompt.text + " ")
        default:
            if key.count == 1 { model.prompt = (prompt.kind, prompt.text + key) }
        }
        return true
    }
}
