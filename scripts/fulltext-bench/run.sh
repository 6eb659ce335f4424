#!/usr/bin/env bash
# Full text as a user gets it, whole processes side by side on the same 77 pages
# (Mozilla's Readability test pages in ../shared/fixtures/readability, served on loopback):
#   aggr show 1 … 77 --full --refetch   fetch each page, extract, keep the article
#   python3 peer.py                     python3-readability fetching and extracting the same
# usage: scripts/fulltext-bench/run.sh [AGGR]   (default .build/release/aggr; needs hyperfine and
# Debian's python3-readability, which is for /usr/bin/python3)
set -euo pipefail
cd "$(dirname "$0")/../.."
aggr="$(realpath "${1:-.build/release/aggr}")"
pages="$(realpath ../shared/fixtures/readability)"
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$pages" >/dev/null 2>&1 &
server=$!
sleep 1
names=$(ls "$pages")
echo '{"providers": [{"id": "pages", "type": "feed", "options": {"url": "http://127.0.0.1:'"$port"'/feed.xml"}}]}' > "$work/providers.json"
n=0
for name in $names; do
    n=$((n + 1))
    printf '{"provider":"pages","section":"feed","id":"%s","kind":"post","title":"%s","url":"http://127.0.0.1:%s/%s/source.html","published":"2026-11-20T10:00:00Z","summary":""}\n' \
        "$name" "$name" "$port" "$name"
done > "$work/items.ndjson"
AGGR_DB="$work/aggr.sqlite" "$aggr" import --config "$work/providers.json" "$work/items.ndjson" >/dev/null
refs=$(seq 1 "$n" | tr '\n' ' ')
cat > "$work/peer.py" <<PY
import sys, urllib.request
from readability import Document
for name in sys.argv[1:]:
    page = urllib.request.urlopen("http://127.0.0.1:$port/%s/source.html" % name).read()
    document = Document(page)
    document.summary()
    document.title()
PY
echo "full text of $n pages, whole processes (fetch on loopback, extract; aggr also keeps each article)"
hyperfine --warmup 1 --runs 5 -N \
    -n aggr "env AGGR_DB=$work/aggr.sqlite $aggr show --config $work/providers.json $refs --full --refetch" \
    -n python3-readability "/usr/bin/python3 $work/peer.py $names"
