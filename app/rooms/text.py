"""Checks for text people type: names (display names, sign-in names) and chat lines (any
script).

A new name is normalised with NFKC (full-width letters, ligatures and odd spaces become
their plain forms), its runs of spaces collapsed, and refused if it holds a character a
reader cannot see or that turns the text's direction: bidi controls, zero-width and
other format characters, fillers and variation selectors.  "Аня" and "Аня\u200b" would
otherwise be two players who look the same.  Emoji keep what makes them: a zero-width
joiner between two emoji (👨\u200d👩\u200d👧), a variation selector after an emoji or a
keycap's digit, the tags of a subdivision flag.  Names already stored are left as they are."""

from __future__ import annotations

import unicodedata

ZWJ = "\u200d"
KEYCAP = "\u20e3"
BLACK_FLAG = "\U0001f3f4"  # the base of a subdivision flag (🏴 + tags + cancel tag)
CANCEL_TAG = "\U000e007f"

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt; unicodedata has no
# accessor for it): drawn as nothing.  Together with the categories Cf (format: bidi
# marks, embeddings and isolates, zero-width space, word joiner, BOM, soft hyphen ...),
# Zl and Zp.  Variation selectors, ZWJ and tags are in it and allowed only inside emoji.
_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
              (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
              (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
              (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
              (0xE0000, 0xE0FFF))


def _hidden(ch: str) -> bool:
    cp = ord(ch)
    return (unicodedata.category(ch) in ("Cf", "Zl", "Zp")
            or any(lo <= cp <= hi for lo, hi in _IGNORABLE))


def _emoji(ch: str) -> bool:
    """A pictograph or an emoji's skin tone (enough to tell a joiner's neighbours)."""
    return unicodedata.category(ch) == "So" or 0x1F3FB <= ord(ch) <= 0x1F3FF


def _emoji_part(text: str, i: int) -> bool:
    """Whether the hidden character ``text[i]`` belongs to an emoji sequence."""
    ch = text[i]
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if ch == ZWJ:  # 👨‍👩‍👧, 🏳️‍🌈, 👩🏽‍💻
        return bool(before) and (_emoji(before) or before == "\ufe0f") and bool(after) and _emoji(after)
    if ch in ("\ufe0e", "\ufe0f"):  # text / emoji presentation: ❤️, 1️⃣
        return bool(before) and (_emoji(before) or (before in "0123456789#*" and after == KEYCAP))
    if "\U000e0020" <= ch <= CANCEL_TAG:  # 🏴󠁧󠁢󠁳󠁣󠁴󠁿
        return before == BLACK_FLAG or "\U000e0020" <= before <= "\U000e007e"
    return False


def _refuse_hidden(text: str, what: str) -> None:
    for i, ch in enumerate(text):
        if _hidden(ch) and not _emoji_part(text, i):
            raise ValueError(f"{what} holds an invisible or text-direction character "
                             f"(U+{ord(ch):04X}); type it without that")


def _has_control(text: str) -> bool:
    # Cc: control characters (\x00, \n, ESC, ...); Cs: lone surrogates; Co/Cn: private / unassigned.
    return any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") for ch in text)


def clean_name(raw: object, max_length: int, min_length: int = 1, what: str = "the name") -> str:
    """A new name: NFKC, trimmed, spaces collapsed, ``min_length``..``max_length``
    characters, no control, invisible or text-direction characters (but whole emoji).

    Raises ValueError with a message a person can read."""
    if not isinstance(raw, str):
        raise ValueError(f"{what} must be text")
    name = unicodedata.normalize("NFKC", raw)
    if _has_control(name):
        raise ValueError(f"{what} holds control characters")
    _refuse_hidden(name, what)
    name = " ".join(name.split())
    if not name:
        raise ValueError(f"{what} is empty")
    if len(name) < min_length:
        raise ValueError(f"{what} is shorter than {min_length} characters")
    if len(name) > max_length:
        raise ValueError(f"{what} is longer than {max_length} characters")
    return name


def clean_chat(raw: object, max_length: int) -> str:
    if not isinstance(raw, str):
        raise ValueError("a chat message is text")
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise ValueError("the message is empty")
    if any(unicodedata.category(ch) in ("Cc", "Cs") and ch != "\n" for ch in text):
        raise ValueError("the message holds control characters")
    if len(text) > max_length:
        raise ValueError(f"the message is longer than {max_length} characters")
    return text
