"""A busier machine, imitated: spin ``duty`` of every 10 ms on one core, sleep the rest.

    python3 bench/hog.py 0.6 &  .venv/bin/python bench/server.py ...;  kill %1

bench/results/server-2026-12-03e.txt section 4 ran the server against bare with 0.6
of a core taken this way."""

import sys
import time

duty = float(sys.argv[1]) if len(sys.argv) > 1 else 0.5
while True:
    start = time.perf_counter()
    while time.perf_counter() - start < 0.01 * duty:
        pass
    time.sleep(0.01 * (1 - duty))
