#!/usr/bin/env bash
# The whole suite as two pytest processes at once (`make test` with no PYTEST_ARGS).
# The machine has two cores and much of the suite waits rather than computes (Chromium
# and its server, subprocess servers, sockets), so two streams finish the suite in
# well under the time of one.  Group A (browser and load tests: their own servers on
# free ports, SQLite in temporary directories, no Redis) runs beside group B (everything
# else).  Every test that uses Redis is in group B: Redis's channels are one namespace
# for all its databases, so two apps of different groups would hear each other.  Each
# process has its own temporary directory; group A's report follows group B's; the
# exit status is non-zero if either failed.
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PY:-.venv/bin/python}"
GROUP_A=(tests/browser)
tmp="$(mktemp -d /tmp/kozyr-tests.XXXXXX)"
ignore=()
for g in "${GROUP_A[@]}"; do ignore+=("--ignore=$g"); done
"$PY" -m pytest -q -p no:cacheprovider --basetemp="$tmp/a" "${GROUP_A[@]}" "$@" > "$tmp/a.log" 2>&1 &
a=$!
echo "== group B: tests except ${GROUP_A[*]} (group A runs beside it; its report follows)"
"$PY" -m pytest -q --basetemp="$tmp/b" "${ignore[@]}" "$@"
rb=$?
wait "$a"
ra=$?
echo "== group A: ${GROUP_A[*]}"
cat "$tmp/a.log"
echo "== group A exit $ra, group B exit $rb"
rm -rf "$tmp"
[ "$ra" -eq 0 ] && [ "$rb" -eq 0 ]
