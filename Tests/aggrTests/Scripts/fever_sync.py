#!/usr/bin/env python3
"""A Fever app's sync against aggr serve, request for request as Fluent Reader's Fever
service makes it (src/scripts/models/services/fever.ts): every call a POST of
`api_key=…[&mark=…]` to `<endpoint>?api[&…]`; sources from `&feeds` and `&groups`; items
paged down with `&items&max_id=` from 2^53-1 until a page holds fewer than 50 or reaches the
last id seen; state from `&unread_item_ids` and `&saved_item_ids`; marks as `mark=item`
and `mark=feed&as=read&before=`. Python's standard library only.

usage: fever_sync.py ENDPOINT USER PASSWORD first
       fever_sync.py ENDPOINT USER PASSWORD since LAST_ID
Prints what it saw as one JSON object.
"""
import base64
import hashlib
import json
import sys
import time
import urllib.request

MAX_SAFE_INTEGER = 9007199254740991
INT32_MAX = 2147483647


def fetch_api(endpoint, api_key, params="", postparams=""):
    request = urllib.request.Request(
        endpoint + "?api" + params,
        data=("api_key=" + api_key + postparams).encode(),
        headers={"content-type": "application/x-www-form-urlencoded"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read().decode())


def fetch_items(endpoint, api_key, last_id, fetch_limit=250):
    """Fluent Reader's fetchItems: newest first, 50 at a time, down to the last id seen."""
    items = []
    low = MAX_SAFE_INTEGER
    use_int32 = False
    calls = 0
    while True:
        response = fetch_api(endpoint, api_key, "&items&max_id=%d" % low)
        calls += 1
        if "items" not in response:
            raise SystemExit("items missing: %r" % response)
        items.extend(i for i in response["items"] if i["id"] > last_id)
        if len(response["items"]) == 0 and low == MAX_SAFE_INTEGER:
            use_int32 = True
            low = INT32_MAX
            response = None
        else:
            low = min([low] + [i["id"] for i in response["items"]])
        if not (low > last_id and (response is None or len(response["items"]) >= 50) and len(items) < fetch_limit):
            break
    return items, calls, use_int32


def main():
    endpoint, user, password, mode = sys.argv[1:5]
    api_key = hashlib.md5((user + ":" + password).encode()).hexdigest()
    seen = {}
    if mode == "first":
        wrong = hashlib.md5((user + ":wrong").encode()).hexdigest()
        seen["wrong_key_auth"] = fetch_api(endpoint, wrong).get("auth")
        hello = fetch_api(endpoint, api_key)
        seen["auth"] = hello.get("auth")
        seen["api_version"] = hello.get("api_version")
        # updateSources, with groups imported on the first sync.
        feeds_answer = fetch_api(endpoint, api_key, "&feeds")
        feeds = feeds_answer["feeds"]
        groups = fetch_api(endpoint, api_key, "&groups")["groups"]
        group_titles = {g["id"]: g["title"].strip() for g in groups}
        feed_group = {}
        for membership in feeds_answer["feeds_groups"]:
            for fid in [int(s) for s in membership["feed_ids"].split(",")]:
                feed_group[fid] = group_titles.get(membership["group_id"])
        seen["feeds"] = sorted("%s <%s> in %s" % (f["title"], f["url"], feed_group.get(f["id"])) for f in feeds)
        seen["feed_ids_are_ints"] = all(isinstance(f["id"], int) and 0 < f["id"] <= INT32_MAX for f in feeds)
        fid_title = {f["id"]: f["title"] for f in feeds}
        items, calls, use_int32 = fetch_items(endpoint, api_key, 0)
        seen["items"] = len(items)
        seen["item_calls"] = calls
        seen["use_int32"] = use_int32
        seen["distinct"] = len({i["id"] for i in items})
        seen["every_item_has_its_feed"] = all(i["feed_id"] in fid_title for i in items)
        seen["last_id"] = max(i["id"] for i in items)
        seen["titles"] = sorted({i["title"] for i in items if not i["title"].startswith("Post ")})
        seen["html_of_topic"] = next((i["html"] for i in items if i["title"] == "数据库选型讨论"), None)
        # syncItems.
        unread = fetch_api(endpoint, api_key, "&unread_item_ids")["unread_item_ids"]
        saved = fetch_api(endpoint, api_key, "&saved_item_ids")["saved_item_ids"]
        seen["unread_before"] = len([s for s in unread.split(",") if s])
        seen["saved_before"] = saved
        # markRead, star, markUnread, unstar as the app sends them.
        newest = sorted(items, key=lambda i: -i["id"])
        fetch_api(endpoint, api_key, "", "&mark=item&as=read&id=%d" % newest[0]["id"])
        fetch_api(endpoint, api_key, "", "&mark=item&as=read&id=%d" % newest[1]["id"])
        fetch_api(endpoint, api_key, "", "&mark=item&as=unread&id=%d" % newest[1]["id"])
        fetch_api(endpoint, api_key, "", "&mark=item&as=saved&id=%d" % newest[2]["id"])
        fetch_api(endpoint, api_key, "", "&mark=item&as=saved&id=%d" % newest[3]["id"])
        answer = fetch_api(endpoint, api_key, "", "&mark=item&as=unsaved&id=%d" % newest[3]["id"])
        seen["saved_after"] = answer.get("saved_item_ids")
        seen["read_one"] = newest[0]["id"]
        seen["starred_one"] = newest[2]["id"]
        # markAllRead of one source: before = now + 1 s, as the app computes it.
        v2ex = next(f["id"] for f in feeds if feed_group.get(f["id"]) == "v2ex")
        stamp = int(time.time()) + 1
        fetch_api(endpoint, api_key, "", "&mark=feed&as=read&id=%d&before=%d" % (v2ex, stamp))
        unread = fetch_api(endpoint, api_key, "&unread_item_ids")["unread_item_ids"]
        seen["unread_after"] = len([s for s in unread.split(",") if s])
        # Favicons, as the apps that show them ask.
        icons = fetch_api(endpoint, api_key, "&favicons")["favicons"]
        kinds = {}
        for icon in icons:
            kind, _, data = icon["data"].partition(";base64,")
            raw = base64.b64decode(data)
            kinds[icon["id"]] = (kind, raw[:4] == b"\x89PNG", len(raw))
        seen["favicons"] = sorted("%s png=%s %d" % v for v in kinds.values())
        seen["icon_of_site"] = sorted(
            {feed_group.get(f["id"]) for f in feeds if f["favicon_id"] in kinds}
        )
    else:
        last_id = int(sys.argv[5])
        items, calls, _ = fetch_items(endpoint, api_key, last_id)
        seen["new_titles"] = sorted(i["title"] for i in items)
        seen["item_calls"] = calls
    print(json.dumps(seen, ensure_ascii=False))


main()
