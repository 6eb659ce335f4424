"""A reader app's sync through the PyPI `google-reader` client (written by others), against
`aggr serve`: login, token, user info, subscriptions, tags, every id of the reading list,
their contents, then read, unread and starred both ways; with PAGE_URL, quick add of that
page, a rename and an unsubscribe. Prints what it saw as JSON.

usage: google_reader_sync.py BASE_URL PASSWORD [PAGE_URL]
READER_USER names the user who signs in (default: reader, any name the site accepts).
"""
import json
import os
import sys

import google_reader

READ = "user/-/state/com.google/read"
STARRED = "user/-/state/com.google/starred"
READING_LIST = "user/-/state/com.google/reading-list"


def main():
    base, password = sys.argv[1], sys.argv[2]
    client = google_reader.Client(base)
    name = os.environ.get("READER_USER", "reader")
    try:
        client.login(name, "wrong " + password)
        wrong = "accepted"
    except google_reader.AuthenticationError:
        wrong = "refused"
    auth = client.login(name, password)
    token = client.get_token(auth)
    user = client.get_user_info(auth)
    subscriptions = client.list_subscriptions(auth)
    tags = client.list_tags(auth)
    ids = client.get_stream_items_ids(auth, READING_LIST, limit=1000)
    unread = client.get_stream_items_ids(auth, READING_LIST, limit=1000, exclude_target=READ)
    refs = [ref.id for ref in ids.item_refs]
    contents = client.get_stream_items_contents(auth, token, [google_reader.get_long_item_id(int(ref)) for ref in refs])
    first, second = contents.items[0].id, contents.items[1].id
    client.edit_tags(auth, token, [first], add_tags=[READ])
    client.edit_tags(auth, token, [second], add_tags=[READ])
    client.edit_tags(auth, token, [second], remove_tags=[READ])
    client.edit_tags(auth, token, [first, second], add_tags=[STARRED])
    client.edit_tags(auth, token, [second], remove_tags=[STARRED])
    starred = client.get_stream_items_ids(auth, STARRED, limit=1000)
    managed = {}
    if len(sys.argv) > 3:
        added = client.quick_add_subscription(auth, token, sys.argv[3])
        managed["quickadd"] = [added.num_results, added.stream_id, added.stream_name]
        listed = {s.id: s for s in client.list_subscriptions(auth)}
        managed["listed"] = added.stream_id in listed
        if added.stream_id in listed:
            managed["url"] = listed[added.stream_id].url
            managed["html_url"] = listed[added.stream_id].html_url
        client.edit_subscription(auth, token, added.stream_id, "edit", title="My loopback")
        managed["renamed"] = [s.title for s in client.list_subscriptions(auth) if s.id == added.stream_id]
        try:
            client.edit_subscription(auth, token, added.stream_id, "edit", add_label_id=google_reader.get_label_id("elsewhere"))
            managed["moved"] = "accepted"
        except google_reader.ClientError:
            managed["moved"] = "refused"
        client.edit_subscription(auth, token, added.stream_id, "unsubscribe")
        managed["after_unsubscribe"] = sorted(s.id for s in client.list_subscriptions(auth))
        managed["failed"] = client.quick_add_subscription(auth, token, sys.argv[3].rsplit("/", 1)[0] + "/no-such-page").num_results
    print(json.dumps({
        "managed": managed,
        "wrong_password": wrong,
        "user": user.user_name,
        "subscriptions": sorted(subscription.id for subscription in subscriptions),
        "tags": sorted(tag.id for tag in tags),
        "ids": len(refs),
        "unread": len(unread.item_refs),
        "titles": sorted(item.title for item in contents.items),
        "links": sorted(link.href for item in contents.items for link in item.canonical),
        "origins": sorted({item.origin.stream_id for item in contents.items}),
        "changed": [first, second],
        "starred": [ref.id for ref in starred.item_refs],
    }, ensure_ascii=False))


main()
