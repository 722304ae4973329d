"""What a player wants pushed, his quiet hours, and his devices' subscriptions (SQL in
the caller's session; app/push/notifier.py and the routes, app/api/push.py, use them)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from ..db import models as m
from ..db.errors import Invalid

#: The kinds of notification, each a choice of the player (README "Notifications").
KINDS = ("turn", "reminder", "call", "takeback", "finished", "chat", "club_event")
#: A player who never chose: everything but chat lines.
DEFAULT_KINDS = {kind: kind != "chat" for kind in KINDS}


class BadPrefs(Invalid):
    code = "invalid_notifications"


def zone(name: str, refusal: type[Invalid] = BadPrefs) -> ZoneInfo:
    """The IANA time zone ``name`` (``refusal``, a 422, if there is none of that name: a
    folder of the zone database, such as "Europe", is none either)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise refusal(f"unknown time zone {name!r} (an IANA name such as Europe/Warsaw)") from None


def _clock(hhmm: str) -> time:
    return time(int(hhmm[:2]), int(hhmm[3:5]))


def quiet_until(now: datetime, quiet_from: str | None, quiet_to: str | None, tz: str) -> datetime | None:
    """When the quiet hours around ``now`` end (UTC), or None if ``now`` is not in them.
    ``quiet_from`` .. ``quiet_to`` ("HH:MM", local time of ``tz``) may cross midnight;
    equal or missing: no quiet hours."""
    if not quiet_from or not quiet_to or quiet_from == quiet_to:
        return None
    try:
        local_zone = ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        local_zone = ZoneInfo("UTC")
    local = now.astimezone(local_zone)
    start, end = _clock(quiet_from), _clock(quiet_to)
    t = local.time().replace(second=0, microsecond=0)
    inside = start <= t < end if start < end else (t >= start or t < end)
    if not inside:
        return None
    day = local.date() if t < end else local.date() + timedelta(days=1)
    return datetime.combine(day, end, tzinfo=local_zone).astimezone(UTC)


# -- choices -------------------------------------------------------------------------------------


def prefs_of(s: Session, player_id: int) -> dict:
    return _as_dict(s.get(m.NotificationPrefs, player_id))


def _as_dict(row: m.NotificationPrefs | None) -> dict:
    if row is None:
        return {"kinds": dict(DEFAULT_KINDS), "quiet_from": None, "quiet_to": None, "time_zone": "UTC",
                "email": True}
    return {"kinds": {k: bool(row.kinds.get(k, DEFAULT_KINDS[k])) for k in KINDS},
            "quiet_from": row.quiet_from, "quiet_to": row.quiet_to, "time_zone": row.time_zone,
            "email": bool(row.email)}


def save_prefs(s: Session, player_id: int, kinds: dict[str, bool], quiet_from: str | None,
               quiet_to: str | None, time_zone: str, email: bool = True) -> dict:
    """The player's choices, replaced whole (checked first: BadPrefs changes nothing)."""
    zone(time_zone)
    if (quiet_from is None) != (quiet_to is None):
        raise BadPrefs("quiet hours need both ends (quiet_from and quiet_to), or neither")
    row = s.get(m.NotificationPrefs, player_id)
    if row is None:
        row = m.NotificationPrefs(player_id=player_id)
        s.add(row)
    row.kinds = {k: bool(kinds.get(k, DEFAULT_KINDS[k])) for k in KINDS}
    row.quiet_from, row.quiet_to, row.time_zone, row.updated_at = quiet_from, quiet_to, time_zone, m.utcnow()
    row.email = email
    s.flush()
    return prefs_of(s, player_id)


# -- subscriptions -------------------------------------------------------------------------------


def subscribe(s: Session, player_id: int, device: str, endpoint: str, p256dh: str, auth: str, lang: str) -> None:
    """This device's subscription, replacing its earlier one (and any other row of the same
    endpoint: a browser's endpoint belongs to whoever subscribed on it last)."""
    s.execute(delete(m.PushSubscription).where(or_(m.PushSubscription.device == device,
                                                   m.PushSubscription.endpoint == endpoint)))
    s.add(m.PushSubscription(player_id=player_id, device=device, endpoint=endpoint, p256dh=p256dh,
                             auth=auth, lang=lang))
    s.flush()


def unsubscribe(s: Session, device: str) -> bool:
    gone = s.execute(delete(m.PushSubscription).where(m.PushSubscription.device == device)
                     .returning(m.PushSubscription.id)).all()
    return bool(gone)


def subscribed(s: Session, device: str) -> dict | None:
    row = s.scalar(select(m.PushSubscription).where(m.PushSubscription.device == device))
    return None if row is None else {"endpoint": row.endpoint, "lang": row.lang}


def drop_subscription(s: Session, sub_id: int, endpoint: str) -> None:
    """The push service said the subscription is gone (404 / 410)."""
    s.execute(delete(m.PushSubscription).where(m.PushSubscription.id == sub_id,
                                               m.PushSubscription.endpoint == endpoint))


def targets(s: Session, player_ids: list[int], codes: list[str],
            with_email: bool = False) -> tuple[dict[int, dict], dict[str, str]]:
    """For each person of ``player_ids`` with a subscription (or, ``with_email``, a
    confirmed address): his choices, his subscriptions, his address and the codes of the
    rooms he muted (of ``codes``); and the variant of each room of ``codes``.  Bots have
    none."""
    out: dict[int, dict] = {}
    rows = s.execute(select(m.PushSubscription).join(m.Player, m.Player.id == m.PushSubscription.player_id)
                     .where(m.PushSubscription.player_id.in_(player_ids), m.Player.bot_level.is_(None)))
    for sub in rows.scalars():
        entry = out.setdefault(sub.player_id, {"subs": [], "muted": set(), "email": None})
        entry["subs"].append({"id": sub.id, "endpoint": sub.endpoint, "p256dh": sub.p256dh, "auth": sub.auth,
                              "lang": sub.lang})
    if with_email:
        for mail in s.scalars(select(m.EmailAddress).where(m.EmailAddress.player_id.in_(player_ids),
                                                           m.EmailAddress.verified_at.is_not(None))):
            entry = out.setdefault(mail.player_id, {"subs": [], "muted": set(), "email": None})
            entry["email"] = {"address": mail.address, "unsubscribe": mail.unsubscribe, "lang": mail.lang,
                              "base_url": mail.base_url}
    if not out:
        return out, {}
    chosen = {row.player_id: row for row in s.scalars(
        select(m.NotificationPrefs).where(m.NotificationPrefs.player_id.in_(list(out))))}
    for pid in out:
        out[pid]["prefs"] = _as_dict(chosen.get(pid))
    variants: dict[str, str] = {}
    if codes:
        for code, variant, player in s.execute(
                select(m.Room.code, m.Room.variant, m.MutedRoom.player_id)
                .outerjoin(m.MutedRoom, (m.MutedRoom.room_id == m.Room.id)
                           & m.MutedRoom.player_id.in_(list(out)))
                .where(m.Room.code.in_(codes))):
            variants[code] = variant
            if player is not None:
                out[player]["muted"].add(code)
    return out, variants


# -- email (the second channel, app/push/mail.py) ------------------------------------------------


class EmailLinkRefused(Invalid):
    code = "email_link_refused"


def set_email(s: Session, player_id: int, address: str, lang: str, base_url: str,
              lifetime: timedelta) -> str:
    """The player's address, new and unconfirmed (replacing his old one): the secret of
    its confirmation link (stored as its hash)."""
    from ..db.tokens import new_token, token_hash

    secret = new_token()
    row = s.get(m.EmailAddress, player_id)
    if row is None:
        row = m.EmailAddress(player_id=player_id)
        s.add(row)
    row.address, row.lang, row.base_url, row.verified_at = address, lang, base_url, None
    row.verify_hash, row.verify_until = token_hash(secret), m.utcnow() + lifetime
    row.unsubscribe = new_token()
    s.flush()
    return secret


def email_of(s: Session, player_id: int) -> dict | None:
    row = s.get(m.EmailAddress, player_id)
    return None if row is None else {"address": row.address, "verified": row.verified_at is not None}


def verify_email(s: Session, secret: str) -> dict:
    """Confirm the address whose link's secret this is (EmailLinkRefused: unknown, used,
    replaced or expired, all alike)."""
    from ..db.tokens import token_hash

    row = s.scalar(select(m.EmailAddress).where(m.EmailAddress.verify_hash == token_hash(secret)))
    until = row.verify_until if row is not None else None
    if until is not None and until.tzinfo is None:
        until = until.replace(tzinfo=UTC)  # SQLite gives naive UTC
    if row is None or until is None or until < m.utcnow():
        raise EmailLinkRefused("this confirmation link is not valid (unknown, used, replaced or expired)")
    row.verified_at, row.verify_hash, row.verify_until = m.utcnow(), None, None
    s.flush()
    return {"address": row.address, "verified": True}


def remove_email(s: Session, player_id: int) -> None:
    s.execute(delete(m.EmailAddress).where(m.EmailAddress.player_id == player_id))


def unsubscribe_email(s: Session, secret: str) -> bool:
    """One click (RFC 8058): no more mails for the address whose unsubscribe secret this
    is (its player's ``email`` choice off); False for an unknown secret."""
    player = s.scalar(select(m.EmailAddress.player_id).where(m.EmailAddress.unsubscribe == secret))
    if player is None:
        return False
    row = s.get(m.NotificationPrefs, player)
    if row is None:
        row = m.NotificationPrefs(player_id=player, kinds=dict(DEFAULT_KINDS), time_zone="UTC")
        s.add(row)
    row.email, row.updated_at = False, m.utcnow()
    s.flush()
    return True
