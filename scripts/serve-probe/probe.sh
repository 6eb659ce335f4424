#!/bin/bash
# The outside probe of issue 34, repeatable: wrk at 100 and 1,000 connections on `/`,
# `/feeds/all.atom` and `stream/items/ids`, RSS before and after, 1,000 slowloris
# connections, 19,800 idle ones (held connections counted on the server side with ss), a
# hostile Host, a 20,000-id contents request, and a small request beside four 1,000-id ones.
# Needs wrk, curl, bc, ss, python3; BASE names the database (`items.py` + `aggr import`).
# usage: BASE=probe.sqlite probe.sh BIN_DIR LABEL PORT   (BIN_DIR holds aggr-serve)
set -u
BIN=$1; LABEL=$2; PORT=$3; D=${TMPDIR:-/tmp}/aggr-probe-$LABEL
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf $D; mkdir -p $D; cp ${BASE:?set BASE to a database} $D/aggr.sqlite
cat > $D/providers.json <<'J'
{"providers": [
 {"id": "v2ex", "type": "v2ex", "sections": ["hot"]},
 {"id": "gh", "type": "feed", "options": {"url": "https://gh.example/feed"}},
 {"id": "blog", "type": "feed", "options": {"url": "https://blog.example/feed"}},
 {"id": "shots", "type": "feed", "options": {"url": "https://shots.example/feed"}}]}
J
cd $D
$BIN/aggr-serve --config $D/providers.json --db $D/aggr.sqlite --listen 127.0.0.1:$PORT --no-refresh 2> $D/serve.log &
PID=$!
sleep 1.5
rss() { echo "$(( $(awk '/VmRSS/ {print $2}' /proc/$PID/status) / 1024 )) MB"; }
echo "== $LABEL"; echo "RSS at start: $(rss)"
AUTH=$(curl -s -d Email=me -d Passwd=x http://127.0.0.1:$PORT/accounts/ClientLogin | sed -n 's/^Auth=//p')
for c in 100 1000; do
  for path in "/" "/feeds/all.atom" "/reader/api/0/stream/items/ids?n=1000"; do
    out=$(wrk -t2 -c$c -d10s --latency -H "Authorization: GoogleLogin auth=$AUTH" "http://127.0.0.1:$PORT$path" 2>&1)
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}'); p99=$(echo "$out" | awk '$1=="99%" {print $2}')
    errs=$(echo "$out" | grep -E "Socket errors|Non-2xx" | tr '\n' ' ')
    echo "c=$c $path: $rps req/s, p99 $p99 $errs"
  done
done
echo "RSS after wrk: $(rss)"
python3 $HERE/slow.py slowloris 1000 $PORT 20
echo "RSS after slowloris: $(rss)"
python3 $HERE/slow.py idle 19800 $PORT 5 3 &
SP=$!; sleep 9; echo "RSS with 19,800 idle connections attempted: $(rss); held by the server: $(ss -Htn state established "( sport = :$PORT )" | wc -l)"; wait $SP; sleep 3
echo "RSS after they closed: $(rss)"
ts=$(date +%s.%N); code=$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$PORT/favicon.ico); echo "a request after the floods: $code"
echo "Host attacker.example: $(curl -s -o /dev/null -w '%{http_code}' -H 'Host: attacker.example' http://127.0.0.1:$PORT/)"
python3 -c "print('&'.join('i=%d' % i for i in range(1,20001)), end='')" > $D/ids20k
s=$(date +%s.%N); code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: GoogleLogin auth=$AUTH" --data @$D/ids20k http://127.0.0.1:$PORT/reader/api/0/stream/items/contents); e=$(date +%s.%N)
echo "items/contents with 20,000 ids: $code in $(echo "$e - $s" | bc) s"
python3 -c "print('&'.join('i=%d' % i for i in range(1,1001)), end='')" > $D/ids1k
P4=""; for i in 1 2 3 4; do curl -s -o /dev/null -H "Authorization: GoogleLogin auth=$AUTH" --data @$D/ids1k http://127.0.0.1:$PORT/reader/api/0/stream/items/contents & P4="$P4 $!"; done
s=$(date +%s.%N); curl -s -o /dev/null http://127.0.0.1:$PORT/favicon.ico; e=$(date +%s.%N); wait $P4
echo "a small request beside four 1,000-id contents calls: $(echo "$e - $s" | bc) s"
echo "RSS at the end: $(rss)"
kill $PID; wait $PID 2>/dev/null
