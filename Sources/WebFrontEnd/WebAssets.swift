/// The stylesheet and script of the web UI, embedded in the binary: a page loads nothing
/// from any other host except the items' own images.
///
/// Pages link them with a fingerprint of their text (`/static/app.css?v=…`), so a browser
/// keeps them as long as they do not change and fetches the new text at once after an
/// upgrade (an hour-long cache of one unchanging URL served the old stylesheet).
enum WebAssets {
    /// A short fingerprint of `text` (64-bit FNV-1a, hex): the assets' version in links and ETags.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }

    static let stylesheetVersion = fingerprint(stylesheet)
    static let scriptVersion = fingerprint(script)

    static let stylesheet = """
        :root { color-scheme: light dark; --bg: #fbfbfa; --fg: #1d1d1f; --muted: #6b6b70; --line: #e3e3e6; --accent: #0a63c9;
          --card: #ffffff; --unread: #0a63c9; --error: #b3261e; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #141416; --fg: #e8e8ea; --muted: #9a9aa2; --line: #2c2c31; --accent: #6cb0ff; --card: #1c1c20;
            --unread: #6cb0ff; --error: #ff8a80; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.6;
          font: 16px/1.6 system-ui, -apple-system, "Segoe UI", "Noto Sans CJK SC", "Noto Sans CJK JP", "PingFang SC",
            "Hiragino Sans GB", "Microsoft YaHei", sans-serif; }
        a { color: var(--accent); text-decoration: none; }
        a:hover { text-decoration: underline; }
        header.top { position: sticky; top: 0; z-index: 2; background: var(--bg); border-bottom: 1px solid var(--line); }
        .bar { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; max-width: 64rem; margin: 0 auto; padding: .5rem 1rem; }
        .brand { font-weight: 700; margin-right: .5rem; color: var(--fg); }
        .bar form { display: flex; gap: .25rem; flex: 1 1 14rem; }
        .bar input[type=search], .bar input[type=text] { flex: 1; min-width: 0; padding: .35rem .5rem; border: 1px solid var(--line);
          border-radius: .4rem; background: var(--card); color: var(--fg); font: inherit; }
        button { font: inherit; padding: .3rem .7rem; border: 1px solid var(--line); border-radius: .4rem; background: var(--card);
          color: var(--fg); cursor: pointer; }
        nav.tabs { display: flex; gap: .25rem; overflow-x: auto; max-width: 64rem; margin: 0 auto; padding: 0 1rem; scrollbar-width: thin; }
        nav.tabs a { white-space: nowrap; padding: .4rem .7rem; border-bottom: 2px solid transparent; color: var(--muted); }
        nav.tabs a.current { color: var(--fg); border-bottom-color: var(--accent); font-weight: 600; }
        .badge { font-size: .75em; margin-left: .3em; padding: 0 .45em; border-radius: 1em; background: var(--line); color: var(--fg); }
        main { max-width: 64rem; margin: 0 auto; padding: .5rem 1rem 3rem; }
        .filter-error { color: var(--error); font-family: ui-monospace, monospace; white-space: pre; overflow-x: auto; margin: .25rem 0; }
        .toolbar { display: flex; gap: .5rem; align-items: center; justify-content: space-between; margin: .5rem 0; color: var(--muted); }
        ol.items { list-style: none; margin: 0; padding: 0; }
        ol.items > li { display: flex; gap: .75rem; padding: .6rem .25rem; border-bottom: 1px solid var(--line); }
        ol.items > li.selected { outline: 2px solid var(--accent); outline-offset: -2px; border-radius: .3rem; }
        .mark { width: .6rem; flex: none; padding-top: .55rem; }
        li.unread .mark::before, .card.unread .title::before { content: "●"; color: var(--unread); font-size: .7rem; margin-right: .25rem; }
        .body { flex: 1; min-width: 0; }
        .title { font-weight: 600; overflow-wrap: anywhere; }
        li.read .title, .card.read .title { font-weight: 400; color: var(--muted); }
        .saved > .body .title::after, .card.saved .title::after, article.saved h1::after { content: " ★"; color: var(--accent); }
        .meta { color: var(--muted); font-size: .85rem; display: flex; flex-wrap: wrap; gap: .1rem .6rem; }
        .upstream { margin: 1.5rem 0; }
        .upstream h2 { font-size: 1rem; }
        .upstream-actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
        .upstream .done, .upstream .notice { color: var(--muted); }
        .upstream .confirm { border: 1px solid var(--muted); border-radius: 6px; padding: .6rem .8rem; margin: .6rem 0; }
        .reply-box { display: flex; flex-direction: column; gap: .4rem; margin-top: .8rem; }
        .reply-box textarea { width: 100%; box-sizing: border-box; font: inherit; }
        .reply-box button { align-self: flex-start; }
        .meta .icon { width: 1em; height: 1em; vertical-align: -.15em; margin-right: .3em; border-radius: 2px; }
        .snippet { margin: .15rem 0 0; color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
        .snippet mark { background: none; color: var(--fg); font-weight: 600; }
        .actions { display: flex; gap: .25rem; flex: none; align-items: flex-start; }
        .actions button { font-size: .8rem; padding: .15rem .5rem; }
        .thumb { width: 4.5rem; height: 3.4rem; object-fit: cover; border-radius: .3rem; flex: none; }
        .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 1rem; list-style: none; padding: 0; }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: .6rem; overflow: hidden; display: flex; flex-direction: column; }
        .card img { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; display: block; background: var(--line); }
        .card .body { padding: .5rem .6rem; }
        .card .actions { padding: 0 .6rem .6rem; }
        .pager { margin: 1.5rem 0; text-align: center; }
        article.item-page h1 { font-size: 1.5rem; line-height: 1.3; margin: .75rem 0 .25rem; overflow-wrap: anywhere; }
        .content { overflow-wrap: anywhere; }
        .content img, .content video, img.shot { max-width: 100%; height: auto; }
        .content pre { overflow-x: auto; background: var(--card); padding: .6rem; border-radius: .4rem; border: 1px solid var(--line); }
        .content blockquote { margin: 0; padding-left: 1rem; border-left: 3px solid var(--line); color: var(--muted); }
        section.thread h2 { font-size: 1.1rem; margin-top: 2rem; }
        .reply { border-top: 1px solid var(--line); padding: .6rem 0; }
        .login { max-width: 22rem; margin: 4rem auto; display: flex; flex-direction: column; gap: .75rem; }
        .login input { padding: .5rem; font: inherit; border: 1px solid var(--line); border-radius: .4rem; background: var(--card); color: var(--fg); }
        .error { color: var(--error); }
        .empty { color: var(--muted); padding: 2rem 0; text-align: center; }
        @media (max-width: 40rem) {
          .actions button { padding: .15rem .35rem; } .thumb { width: 3.5rem; height: 2.8rem; }
          /* A phone keeps its height for items: the search and filter boxes scroll away, and a
             row's buttons go under its text instead of taking a third of its width. */
          header.top { position: static; }
          ol.items > li { flex-wrap: wrap; row-gap: .3rem; }
          ol.items > li > .actions { flex-basis: 100%; padding-left: 1.35rem; }
        }
        """

    static let script = """
        "use strict";
        (function () {
          document.documentElement.classList.add("js");
          function items() { return Array.prototype.slice.call(document.querySelectorAll("[data-ref]")); }
          var current = -1;
          function select(index) {
            var list = items();
            if (!list.length) return;
            current = Math.max(0, Math.min(list.length - 1, index));
            list.forEach(function (el, i) { el.classList.toggle("selected", i === current); });
            list[current].scrollIntoView({ block: "nearest" });
          }
          function toggle(form) {
            var body = new URLSearchParams(new FormData(form));
            fetch(form.action, { method: "POST", body: body, credentials: "same-origin",
                                 headers: { "Accept": "application/json" } })
              .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
              .then(function (state) {
                var holder = form.closest("[data-ref]") || document.querySelector("article.item-page");
                if (!holder) return;
                if ("read" in state) {
                  holder.classList.toggle("read", state.read); holder.classList.toggle("unread", !state.read);
                  var f = holder.querySelector("form.mark-read");
                  if (f) { f.querySelector("input[name=state]").value = state.read ? "unread" : "read";
                           var b = f.querySelector("button"); b.textContent = state.read ? b.dataset.done : b.dataset.undone; }
                }
                if ("saved" in state) {
                  holder.classList.toggle("saved", state.saved);
                  var g = holder.querySelector("form.mark-saved");
                  if (g) { g.querySelector("input[name=state]").value = state.saved ? "unsaved" : "saved";
                           var c = g.querySelector("button"); c.textContent = state.saved ? c.dataset.done : c.dataset.undone; }
                }
              })
              .catch(function () { form.submit(); });
          }
          document.addEventListener("submit", function (event) {
            var form = event.target;
            if (form.classList.contains("mark-read") || form.classList.contains("mark-saved")) { event.preventDefault(); toggle(form); }
          });
          document.addEventListener("keydown", function (event) {
            var tag = (event.target.tagName || "").toLowerCase();
            if (tag === "input" || tag === "textarea" || event.ctrlKey || event.metaKey || event.altKey) return;
            var list = items(), el = list[current];
            switch (event.key) {
              case "j": select(current + 1); break;
              case "k": select(current - 1); break;
              case "o": case "Enter": if (el) { var a = el.querySelector("a.title"); if (a) location.href = a.href; } break;
              case "m": if (el) { var f = el.querySelector("form.mark-read"); if (f) toggle(f); } break;
              case "s": if (el) { var g = el.querySelector("form.mark-saved"); if (g) toggle(g); } break;
              case "/": var q = document.querySelector("input[name=q]"); if (q) { event.preventDefault(); q.focus(); } break;
              default: return;
            }
          });
        })();
        """
}
