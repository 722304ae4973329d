"""One module per family; each registers its variants when imported.

Every module in this package is loaded, so a new family needs no change
anywhere else (the server lists ``engine.VARIANTS``)."""

import importlib
import pkgutil

FAMILY_ORDER = ["thousand", "king", "korol"]
EXTRA = ["thousand_modern"]  # modern Тысяча (family thousand), listed after the seed variants


def load_all() -> None:
    names = [m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    # A family may be split into a package or helper modules named family_*.
    families = [n for n in names if "_" not in n]
    ordered = [n for n in FAMILY_ORDER if n in families] + sorted(set(families) - set(FAMILY_ORDER))
    for name in ordered:
        importlib.import_module(f"{__name__}.{name}")
    for name in EXTRA:
        importlib.import_module(f"{__name__}.{name}")
