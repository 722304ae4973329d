"""Player tokens: how a token is made and the hash that is stored instead of it
(used by store.py for players' own tokens and accounts.py for further devices')."""

from __future__ import annotations

import hashlib
import secrets


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits
