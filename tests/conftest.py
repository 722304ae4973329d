import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


import os  # noqa: E402
import zlib  # noqa: E402

import pytest  # noqa: E402

#: A browser test parametrized N ways (languages, sizes, scenes) runs a third of them in
#: CI, at least one: those whose place i in the list has (i + a per-test offset) % 3 ==
#: 0 (else the one at the offset), the offset from the test's name, so a test of three languages runs one of them and
#: different tests run different ones.  KOZYR_LONG=1 runs every one (README "Tests").
BROWSER_SHARE = 3


def pytest_collection_modifyitems(config, items):
    if os.environ.get("KOZYR_LONG"):
        return
    groups: dict[str, list] = {}
    for item in items:
        path = str(item.fspath).replace(os.sep, "/")
        if "/tests/browser/" in path and getattr(item, "callspec", None) is not None:
            groups.setdefault(item.nodeid.split("[", 1)[0], []).append(item)
    skip = pytest.mark.skip(reason=f"CI runs a 1/{BROWSER_SHARE} share of a browser test's "
                                   "parametrizations; KOZYR_LONG=1 runs all")
    for name, group in groups.items():
        if len(group) < 2:
            continue
        offset = zlib.crc32(name.encode()) % BROWSER_SHARE
        keep = {i for i in range(len(group)) if (i + offset) % BROWSER_SHARE == 0} or {offset % len(group)}
        for i, item in enumerate(group):
            if i not in keep:
                item.add_marker(skip)
