"""A notification's words, read from the client's own catalogs (static/i18n/{ru,pl,en}.json,
the one place every text of Kozyr lives): the ``push`` section, the variants' names.
A text is chosen per subscription, in the language its device asked for; a missing
text falls back to English, as the client's t() does.  Placeholders are ``{name}``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine import find_variant

LANGS = ("ru", "pl", "en")
FALLBACK = "en"
_PLACE = re.compile(r"\{(\w+)\}")


class Texts:
    def __init__(self, i18n_dir: Path) -> None:
        self.catalogs: dict[str, dict] = {}
        for lang in LANGS:
            self.catalogs[lang] = json.loads((i18n_dir / f"{lang}.json").read_text(encoding="utf-8"))

    def _entry(self, lang: str, path: str) -> str | None:
        node: object = self.catalogs.get(lang, {})
        for part in path.split("."):
            if not isinstance(node, dict):
                return None
            node = node.get(part)
        return node if isinstance(node, str) else None

    def t(self, lang: str, path: str, **values: object) -> str:
        """The text of ``path`` in ``lang`` (else English, else the path) with its
        ``{placeholders}`` filled from ``values`` (an unknown one is left as it is)."""
        text = self._entry(lang, path) or self._entry(FALLBACK, path) or path
        return _PLACE.sub(lambda mt: str(values[mt.group(1)]) if mt.group(1) in values else mt.group(0), text)

    def variant(self, lang: str, variant_id: str | None) -> str:
        if not variant_id:
            return ""
        named = self._entry(lang, f"variants.{variant_id}") or self._entry(FALLBACK, f"variants.{variant_id}")
        if named:
            return named
        try:  # as the client does: the engine's own name of a variant the catalogs do not name
            return find_variant(variant_id).name
        except KeyError:
            return variant_id
