#!/usr/bin/env python3
"""The python3-lxml side of `make bench`: the same extraction aggr-bench does in Swift.

usage: lxml_extract.py PAGE.html FEED.xml PAGE_RUNS FEED_RUNS
Prints "lxml-page <ms per parse+map>" and "lxml-feed <ms per parse+map>".
"""
import email.utils
import sys
import time
from datetime import datetime

from lxml import etree, html

ROWS = "descendant::div[contains(concat(' ', normalize-space(@class), ' '), ' cell ')][contains(@class, ' t_')]"
TITLE = "descendant::span[contains(concat(' ', normalize-space(@class), ' '), ' item_title ')]/a[contains(concat(' ', normalize-space(@class), ' '), ' topic-link ')]"
AUTHOR = "descendant::strong/a"
REPLIES = "descendant::a[contains(concat(' ', normalize-space(@class), ' '), ' count_livid ')]"
DATE = "descendant::span[@title]"


def page(data):
    items = []
    for row in html.fromstring(data).xpath(ROWS):
        link = row.xpath(TITLE)
        if not link:
            continue
        author = row.xpath(AUTHOR)
        replies = row.xpath(REPLIES)
        date = row.xpath(DATE)
        published = None
        if date:
            try:
                published = datetime.strptime(date[0].get("title"), "%Y-%m-%d %H:%M:%S %z")
            except ValueError:
                pass
        items.append({
            "id": link[0].get("href").split("/t/")[-1].split("#")[0],
            "title": " ".join(link[0].text_content().split()),
            "url": "https://www.v2ex.com" + link[0].get("href").split("#")[0],
            "author": author[0].text_content() if author else None,
            "replies": int(replies[0].text_content()) if replies else None,
            "published": published,
        })
    return items


def feed(data):
    root = etree.fromstring(data, etree.XMLParser(recover=True, resolve_entities=False))
    items = []
    for item in root.iter("item"):
        def text(name):
            node = item.find(name)
            return node.text.strip() if node is not None and node.text else None
        date = text("pubDate")
        description = text("description") or ""
        items.append({
            "id": text("guid") or text("link"),
            "title": html.fromstring(text("title") or " ").text_content(),
            "url": text("link"),
            "published": email.utils.parsedate_to_datetime(date) if date else None,
            "summary": " ".join(html.fromstring(description).text_content().split())[:280] if description else "",
        })
    return items


def main():
    page_bytes = open(sys.argv[1], "rb").read()
    feed_bytes = open(sys.argv[2], "rb").read()
    for label, function, data, runs in (("page", page, page_bytes, int(sys.argv[3])), ("feed", feed, feed_bytes, int(sys.argv[4]))):
        function(data)
        start = time.perf_counter()
        for _ in range(runs):
            count = len(function(data))
        elapsed = (time.perf_counter() - start) / runs * 1000
        print(f"lxml-{label} {elapsed:.3f} {count}")


main()
