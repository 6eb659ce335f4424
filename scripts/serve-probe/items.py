# Writes N generated items as NDJSON in the output contract (four providers, CJK and ASCII
# words, replies counts): the database the serve probe runs against.
# usage: python3 items.py N > items.ndjson; aggr import --db probe.sqlite items.ndjson
import json, random, sys
n = int(sys.argv[1]); random.seed(1)
words = "swift rust sqlite postgres linux release crash 数据库 讨论 性能 feed parser timeline vapor hummingbird".split()
provs = [("v2ex","hot","topic"),("gh","releases/apple/swift","release"),("blog","url/https://blog.example/feed","post"),("shots","popular","shot")]
out = sys.stdout
for i in range(n):
    p, s, k = provs[i % 4]
    t = " ".join(random.choice(words) for _ in range(6))
    day = 1 + (i % 28); hour = i % 24; minute = (i // 24) % 60
    out.write(json.dumps({"provider": p, "section": s, "id": str(i), "kind": k, "title": f"{t} <b>{i}</b>", "url": f"https://example.com/{p}/{i}",
        "author": f"user{i%500}", "published": f"2026-10-{day:02d}T{hour:02d}:{minute:02d}:{i%60:02d}Z", "updated": None,
        "summary": "summary " + t, "tags": [], "metrics": {"replies": i % 50}, "image": None, "extra": {}, "content": f"<p>{t}</p>"}, ensure_ascii=False) + "\n")
