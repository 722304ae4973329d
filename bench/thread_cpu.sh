#!/bin/bash
# CPU per action of each thread of the one-process server (the event loop, the SQLite
# writer, worker threads), over 10 s of steady play: bench/server.py mode one is run,
# and 5 s after every seat is connected /proc/PID/task/*/stat is read twice, 10 s
# apart, and divided by kozyr_actions_total of the same 10 s (clock ticks of 10 ms).
# The event loop is the thread whose id is the process id.
#
#   bench/thread_cpu.sh [ROOMS]      (default 200; run from the repository root)
set -euo pipefail
ROOMS=${1:-200}
OUT=$(mktemp -d)
.venv/bin/python bench/server.py --rooms "$ROOMS" --seconds 16 --warmup 3 --modes one > "$OUT/bench" 2>&1 &
BENCH=$!
PID=""
for _ in $(seq 1 100); do
  PID=$(pgrep -f "app.cli serve --port" -P $BENCH | head -1 || true)
  [ -n "$PID" ] && break
  sleep 0.3
done
PORT=$(tr '\0' ' ' < /proc/"$PID"/cmdline | grep -o -- '--port [0-9]*' | cut -d' ' -f2)
metric() { curl -s -H "Authorization: Bearer bench-metrics" "127.0.0.1:$PORT/metrics" | grep "^$1 " | cut -d' ' -f2; }
until [ "$(metric kozyr_connections | cut -d. -f1)" -ge $((ROOMS * 4)) ] 2>/dev/null; do sleep 0.5; done
sleep 5
snap() { for t in /proc/"$PID"/task/*; do echo "$(basename "$t") $(cut -d' ' -f14,15 "$t"/stat)"; done; }
A0=$(metric kozyr_actions_total); snap > "$OUT/t0"; sleep 10; snap > "$OUT/t1"; A1=$(metric kozyr_actions_total)
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), main thread $PID"
python3 - "$OUT/t0" "$OUT/t1" "$A0" "$A1" "$(getconf CLK_TCK)" <<'PY'
import sys
def read(path):
    return {p[0]: int(p[1]) + int(p[2]) for p in (line.split() for line in open(path))}
a, b = read(sys.argv[1]), read(sys.argv[2])
n, tick = float(sys.argv[4]) - float(sys.argv[3]), 1000 / int(sys.argv[5])
total = 0.0
for tid, ticks in b.items():
    ms = (ticks - a.get(tid, 0)) * tick / n
    total += ms
    if ms > 0.001:
        print(f"thread {tid}: {ms:.3f} ms/action")
print(f"{n:.0f} actions, all threads {total:.3f} ms/action")
PY
wait $BENCH
