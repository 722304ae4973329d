"""Sign-in across devices (SQL): device tokens and one-time sign-in links.

A player's first device holds the token of ``players.token_hash``; every other
device signed in by a link gets a token of its own (``player_tokens``), so
signing in elsewhere never signs the first device out.  Links and tokens are
stored only as SHA-256 hashes (the tokens are 256-bit random, so a plain hash
is enough: nothing to guess, nothing to brute-force)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import DateTime, ForeignKey, Integer, String, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from . import models as m
from .errors import Invalid


class SignInLinkRefused(Invalid):
    code = "sign_in_link_refused"


class PlayerToken(m.Base):
    """A further device's token of a player."""

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


def player_by_device_token(s: Session, digest: str) -> m.Player | None:
    return s.scalar(select(m.Player).join(PlayerToken, PlayerToken.player_id == m.Player.id)
                    .where(PlayerToken.token_hash == digest))


def new_link(s: Session, player_id: int, lifetime: timedelta) -> tuple[str, datetime]:
    """A fresh sign-in link's secret and expiry; the player's older open links are revoked."""
    from .store import new_token, token_hash

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
    from .store import new_token, token_hash

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
    token = new_token()
    s.add(PlayerToken(player_id=claimed, token_hash=token_hash(token), created_at=now))
    s.flush()
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


def device_count(s: Session, player_id: int) -> int:
    return 1 + len(s.scalars(select(PlayerToken.id).where(PlayerToken.player_id == player_id)).all())
