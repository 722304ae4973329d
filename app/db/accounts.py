"""Sign-in across devices (SQL): device tokens, one-time sign-in links, and a name +
passphrase for people who don't keep links (the passphrase's argon2 hash is made and
checked in app/api/auth.py; here only the rows).

Every device of a person has a token of its own (``player_tokens``: the first one made
with the player, one more for each sign-in by link or passphrase), so signing in
elsewhere never signs another device out, and each can be signed out alone (``devices``,
``sign_out``).  Links and tokens are stored only as SHA-256 hashes (the tokens are
256-bit random, so a plain hash is enough: nothing to guess, nothing to brute-force)."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime, timedelta

from sqlalchemy import DateTime, ForeignKey, Integer, String, delete, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from . import models as m
from .errors import Clash, Invalid, Missing, RateLimited


class SignInLinkRefused(Invalid):
    code = "sign_in_link_refused"


class UnknownDevice(Missing):
    code = "unknown_device"


class PlayerToken(m.Base):
    """A device's token of a person (his first device's too: migration 0016)."""

    __tablename__ = "player_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=m.utcnow)


class SignInLink(m.Base):
    """A personal sign-in link: used once, until ``expires_at``, revoked by a newer one."""

    __tablename__ = "sign_in_links"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=m.utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


def _aware(dt: datetime) -> datetime:
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)  # SQLite gives naive UTC


class Passphrase(m.Base):
    """A player's sign-in name and passphrase hash (migration 0014).  ``login_key``: the
    name folded (login_key()), unique.  ``failures``: wrong passphrases in a row; from
    ``passphrase_tries`` on, the name is locked until ``blocked_until``."""

    __tablename__ = "passphrases"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    login: Mapped[str] = mapped_column(String(64))
    login_key: Mapped[str] = mapped_column(String(200), unique=True)  # casefold may lengthen (ß: ss)
    hash: Mapped[str] = mapped_column(String(255))
    failures: Mapped[int] = mapped_column(Integer, default=0)
    blocked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=m.utcnow)


class LoginTaken(Clash):
    code = "login_taken"


class SignInRefused(Invalid):
    code = "sign_in_refused"


REFUSED = "this name and passphrase do not match"


def login_key(login: str) -> str:
    """The name as compared: NFKC, case folded, spaces collapsed ("Ola  K" = "ola k")."""
    return " ".join(unicodedata.normalize("NFKC", login).casefold().split())


def set_passphrase(s: Session, player_id: int, login: str, digest: str) -> dict:
    """The player's sign-in name and passphrase hash, new or replacing his old ones
    (LoginTaken if another player signs in by that name)."""
    key = login_key(login)
    other = s.scalar(select(Passphrase.player_id).where(Passphrase.login_key == key))
    if other is not None and other != player_id:
        raise LoginTaken("another player already signs in with this name; choose another")
    row = s.get(Passphrase, player_id)
    now = m.utcnow()
    if row is None:
        s.add(Passphrase(player_id=player_id, login=login, login_key=key, hash=digest, failures=0,
                         updated_at=now))
    else:
        row.login, row.login_key, row.hash, row.failures, row.blocked_until = login, key, digest, 0, None
        row.updated_at = now
    s.flush()
    return {"login": login, "updated_at": now.isoformat()}


def passphrase_state(s: Session, player_id: int) -> dict | None:
    row = s.get(Passphrase, player_id)
    return None if row is None else {"login": row.login, "updated_at": _aware(row.updated_at).isoformat()}


def remove_passphrase(s: Session, player_id: int) -> bool:
    row = s.get(Passphrase, player_id)
    if row is not None:
        s.delete(row)
    return row is not None


def claim_attempt(s: Session, login: str, tries: int, lock: timedelta) -> tuple[int, str] | None:
    """Count a sign-in attempt for the name before its passphrase is checked: (player,
    hash), or None for an unknown name; RateLimited while the name is locked.  The
    attempt counts as wrong until passphrase_ok() says otherwise, so attempts sent at
    once cannot outrun the lock: from the ``tries``-th in a row each one locks the name
    for ``lock`` (doubled each time, at most an hour) before it is checked."""
    row = s.scalar(select(Passphrase).where(Passphrase.login_key == login_key(login)).with_for_update())
    if row is None:
        return None
    now = m.utcnow()
    if row.blocked_until is not None and _aware(row.blocked_until) > now:
        raise RateLimited("too many wrong passphrases for this name; try again later",
                          retry_after=(_aware(row.blocked_until) - now).total_seconds())
    row.failures += 1
    if row.failures >= tries:
        row.blocked_until = now + min(timedelta(hours=1), lock * 2 ** (row.failures - tries))
    return row.player_id, row.hash


def passphrase_ok(s: Session, player_id: int, new_hash: str | None) -> str:
    """The passphrase was right: the name's failures forgotten (and the hash renewed if
    the hashing parameters changed); a new device token for the player."""
    values: dict = {"failures": 0, "blocked_until": None}
    if new_hash:
        values["hash"] = new_hash
    s.execute(update(Passphrase).where(Passphrase.player_id == player_id).values(**values))
    return device_token(s, player_id, m.utcnow())


def player_public(s: Session, player_id: int) -> dict:
    player = s.get(m.Player, player_id)
    assert player is not None  # the passphrase's foreign key
    return {"id": player.id, "name": player.name}


def device_token(s: Session, player_id: int, now: datetime) -> str:
    """A new token for one more device of the player (stored as its hash only)."""
    from .tokens import new_token, token_hash

    token = new_token()
    s.add(PlayerToken(player_id=player_id, token_hash=token_hash(token), created_at=now))
    s.flush()
    return token


def players_by_device_tokens(s: Session, digests: list[str]) -> list[tuple[str, m.Player]]:
    """(token hash, player) of each of these hashes that a device still holds."""
    rows = s.execute(select(PlayerToken.token_hash, m.Player)
                     .join(m.Player, PlayerToken.player_id == m.Player.id)
                     .where(PlayerToken.token_hash.in_(digests)))
    return [(digest, player) for digest, player in rows]


def devices(s: Session, player_id: int, current: str) -> list[dict]:
    """The player's signed-in devices, oldest first, ``current`` marking the one whose
    token hashes to ``current`` (the answer holds neither tokens nor their hashes)."""
    rows = s.execute(select(PlayerToken.id, PlayerToken.created_at, PlayerToken.token_hash)
                     .where(PlayerToken.player_id == player_id).order_by(PlayerToken.id))
    return [{"id": id_, "created_at": _aware(created).isoformat(), "current": digest == current}
            for id_, created, digest in rows]


def sign_out(s: Session, player_id: int, device_id: int | None = None, keep: str | None = None) -> list[str]:
    """Delete the player's device ``device_id`` (UnknownDevice if he has none of that id),
    or, with ``device_id`` None, every device but the one whose token hashes to ``keep``.
    The hashes of the tokens that stopped working (for the callers' caches and sockets:
    app/signin.py SignIns.signed_out).  What else belongs to a device in the database (push
    subscriptions) is deleted here, in the same transaction."""
    query = delete(PlayerToken).where(PlayerToken.player_id == player_id)
    if device_id is not None:
        query = query.where(PlayerToken.id == device_id)
    elif keep is not None:
        query = query.where(PlayerToken.token_hash != keep)
    gone = list(s.execute(query.returning(PlayerToken.token_hash)).scalars())
    if device_id is not None and not gone:
        raise UnknownDevice(f"you have no signed-in device {device_id}")
    if gone:  # the devices' push subscriptions (app/push/)
        s.execute(delete(m.PushSubscription).where(m.PushSubscription.device.in_(gone)))
    return gone


def new_link(s: Session, player_id: int, lifetime: timedelta) -> tuple[str, datetime]:
    """A fresh sign-in link's secret and expiry; the player's older open links are revoked."""
    from .tokens import new_token, token_hash

    now = m.utcnow()
    s.execute(update(SignInLink).where(SignInLink.player_id == player_id, SignInLink.used_at.is_(None),
                                       SignInLink.revoked_at.is_(None)).values(revoked_at=now))
    secret = new_token()
    expires = now + lifetime
    s.add(SignInLink(player_id=player_id, token_hash=token_hash(secret), created_at=now, expires_at=expires))
    s.flush()
    return secret, expires


def use_link(s: Session, secret: str) -> tuple[m.Player, str]:
    """Spend a sign-in link: (its player, a new device token).  SignInLinkRefused when the
    link is unknown, used, revoked or expired (one message for all: a guesser learns nothing)."""
    from .tokens import token_hash

    if not isinstance(secret, str) or not 16 <= len(secret) <= 200:
        raise SignInLinkRefused("this sign-in link is not valid (unknown, used, replaced or expired)")
    now = m.utcnow()
    # The UPDATE claims the link atomically: two devices racing with one link, one wins.
    claimed = s.execute(update(SignInLink)
                        .where(SignInLink.token_hash == token_hash(secret), SignInLink.used_at.is_(None),
                               SignInLink.revoked_at.is_(None), SignInLink.expires_at > now)
                        .values(used_at=now).returning(SignInLink.player_id)).scalar()
    if claimed is None:
        raise SignInLinkRefused("this sign-in link is not valid (unknown, used, replaced or expired)")
    token = device_token(s, claimed, now)
    player = s.get(m.Player, claimed)
    assert player is not None  # the link's foreign key
    return player, token


def link_state(s: Session, player_id: int) -> dict | None:
    """The player's newest link, without its secret (never stored): when it expires, if open."""
    row = s.scalar(select(SignInLink).where(SignInLink.player_id == player_id)
                   .order_by(SignInLink.id.desc()).limit(1))
    if row is None:
        return None
    open_ = row.used_at is None and row.revoked_at is None and _aware(row.expires_at) > m.utcnow()
    return {"created_at": _aware(row.created_at).isoformat(), "expires_at": _aware(row.expires_at).isoformat(),
            "open": open_, "used": row.used_at is not None}
