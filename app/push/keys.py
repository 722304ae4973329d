"""The server's VAPID key pair (RFC 8292): made on first start and kept in the
database (``vapid_keys``, one row), so every process and every restart signs with
the same key and the subscriptions browsers made stay valid.  Two processes starting
at once both try to insert the row; the second one's insert fails on the primary key
and it reads the first one's.  ``KOZYR_VAPID_PRIVATE_KEY`` (base64url, the raw 32
bytes or DER) replaces the stored pair."""

from __future__ import annotations

import logging

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from py_vapid.utils import b64urlencode
from sqlalchemy.exc import IntegrityError

from ..db import models as m
from ..db.session import Database

log = logging.getLogger("kozyr.push")
KEY_ROW = 1


def public_key_of(vapid: Vapid02) -> str:
    """The applicationServerKey browsers subscribe with: base64url of the uncompressed point."""
    return b64urlencode(vapid.public_key.public_bytes(serialization.Encoding.X962,
                                                      serialization.PublicFormat.UncompressedPoint))


def raw_private(key: ec.EllipticCurvePrivateKey) -> str:
    return b64urlencode(key.private_numbers().private_value.to_bytes(32, "big"))


def from_setting(private_key: str) -> Vapid02:
    """The key pair of a ``KOZYR_VAPID_PRIVATE_KEY`` value (ValueError if it is none)."""
    try:
        return Vapid02.from_string(private_key.strip())
    except Exception as e:
        raise ValueError(f"KOZYR_VAPID_PRIVATE_KEY is not a P-256 private key (base64url raw or DER): {e}") from None


def load_or_make(db: Database, configured: str = "") -> Vapid02:
    """(A worker thread, at start-up.)  The configured key, else the stored one, else a
    new one stored now (the first process to store it wins)."""
    if configured:
        return from_setting(configured)
    with db.read() as s:
        row = s.get(m.VapidKey, KEY_ROW)
        if row is not None:
            return Vapid02.from_raw(row.private_key.encode())
    fresh = Vapid02()
    fresh.generate_keys()
    try:
        with db.write() as s:
            s.add(m.VapidKey(id=KEY_ROW, private_key=raw_private(fresh.private_key),
                             public_key=public_key_of(fresh)))
        log.info("made the server's VAPID key pair")
        return fresh
    except IntegrityError:  # another process stored its pair first: use that one
        with db.read() as s:
            row = s.get_one(m.VapidKey, KEY_ROW)
            return Vapid02.from_raw(row.private_key.encode())
