"""Checks for text people type: display names and chat lines (any script)."""

from __future__ import annotations

import unicodedata


def _has_control(text: str) -> bool:
    # Cc: control characters (\x00, \n, ESC, ...); Cs: lone surrogates; Co/Cn: private / unassigned.
    return any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") for ch in text)


def clean_name(raw: object, max_length: int) -> str:
    """A display name: trimmed, 1..max_length characters, no control characters.

    Raises ValueError with a message a person can read."""
    if not isinstance(raw, str):
        raise ValueError("the name must be text")
    name = unicodedata.normalize("NFC", raw).strip()
    if not name:
        raise ValueError("the name is empty")
    if _has_control(name):
        raise ValueError("the name holds control characters")
    if len(name) > max_length:
        raise ValueError(f"the name is longer than {max_length} characters")
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
