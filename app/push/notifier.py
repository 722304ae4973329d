"""Notifications that reach a closed tab (issue 33; README "Notifications").

The server's code calls ``Notifier.notify(player_id, kind, room=, match=, **facts)``
after the commit that caused the event; it only queues (never waits, never raises
into the caller).  The sender task, on the event loop:

- *coalesces* per player: the events of ``KOZYR_PUSH_COALESCE_SECONDS`` after the
  first become one push, and a player gets at most one push per
  ``KOZYR_PUSH_MIN_INTERVAL`` — what comes meanwhile waits and joins the next one
  (ten moves by bots while he sleeps are one notification);
- reads, per batch of players, their choices (a kind each), the rooms they muted and
  their devices' subscriptions (one read for the batch); a kind he turned off, or a
  muted room's event, is dropped; during his quiet hours (in his time zone) the
  events are held until they end (in memory: a restart forgets them; My games still
  lists what waits);
- writes one ``{title, body, url, tag}`` per language of his devices (the client's
  catalogs, app/push/texts.py; facts are names and times, never a card) and sends it
  to each subscription (app/push/webpush.py);
- tries again after 429 / 5xx / no answer, ``KOZYR_PUSH_RETRIES`` times with growing
  pauses (``KOZYR_PUSH_RETRY_SECONDS``, doubled; a ``Retry-After`` wins), and deletes a
  subscription its push service answers 404 / 410 (gone).

Each process sends the pushes of the events it commits."""

from __future__ import annotations

import asyncio
import heapq
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from anyio import to_thread
from py_vapid import Vapid02

from ..aio import wait_event
from ..config import Settings
from ..db import models as m
from ..db.session import Database
from . import prefs as P
from .keys import load_or_make, public_key_of
from .mail import Mailer, MailRefused
from .texts import Texts
from .webpush import Unanswered, WebPush

log = logging.getLogger("kozyr.push")

#: The kinds a single event of which is worth an urgent push (a move is awaited).
URGENT = {"turn", "reminder", "takeback"}
#: Kinds where only the latest event of a match counts (a newer turn replaces an older one).
LATEST_PER_MATCH = {"turn", "reminder", "takeback", "finished"}


@dataclass
class Event:
    player: int
    kind: str
    room: str | None
    match: str | None
    facts: dict
    at: float = field(default_factory=time.monotonic)


class Notifier:
    """Queues notifications and sends them (see the module's text)."""

    def __init__(self, settings: Settings, db: Database, texts: Texts) -> None:
        self.settings = settings
        self.db = db
        self.texts = texts
        self.mailer = Mailer(settings.smtp_url, settings.mail_from)  # email, the second channel (mail.py)
        #: Wall-clock time (quiet hours, deadlines shown); a test may set its own.
        self.now: Callable[[], datetime] = lambda: datetime.now(UTC)
        self.vapid: Vapid02 | None = None
        self.push: WebPush | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pending: dict[int, list[Event]] = {}  # player -> his events not sent yet
        self.due: dict[int, float] = {}  # player -> when his events are sent (monotonic)
        self.heap: list[tuple[float, int]] = []  # (due, player), stale entries skipped
        self.next_allowed: dict[int, float] = {}  # player -> his next push not before (rate)
        self.waiting = 0  # events in ``pending``
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.sends: set[asyncio.Task] = set()
        self.stats = {"queued": 0, "dropped": 0, "filtered": 0, "held": 0, "pushes": 0, "sent": 0,
                      "retried": 0, "failed": 0, "gone": 0, "mailed": 0}

    # -- life cycle -----------------------------------------------------------------------

    @property
    def public_key(self) -> str:
        assert self.vapid is not None, "the notifier has not started"
        return public_key_of(self.vapid)

    async def start(self) -> None:
        """The VAPID keys (made and stored on the first start, app/push/keys.py), then the sender."""
        settings = self.settings
        self.vapid = await to_thread.run_sync(load_or_make, self.db, settings.vapid_private_key)
        self.push = WebPush(self.vapid, settings.vapid_subject, settings.push_timeout, settings.push_ttl)
        self.loop = asyncio.get_running_loop()
        self.wake = asyncio.Event()
        self.task = asyncio.create_task(self._run(), name="push-sender")

    async def stop(self) -> None:
        """Stop sending; events not sent yet are forgotten.  (A test may start an app's
        parts in one event loop and stop them in another: tasks of another loop are
        cancelled there, not awaited.)"""
        loop = asyncio.get_running_loop()
        tasks = [t for t in [self.task, *self.sends] if t is not None]
        for task in tasks:
            if task.get_loop() is loop:
                task.cancel()
            elif not task.get_loop().is_closed():
                task.get_loop().call_soon_threadsafe(task.cancel)
        await asyncio.gather(*(t for t in tasks if t.get_loop() is loop), return_exceptions=True)
        self.task, self.sends = None, set()
        if self.push is not None:
            try:
                await self.push.close()
            except Exception:  # its connections belonged to another loop
                log.debug("push client not closed cleanly", exc_info=True)

    # -- queuing (any caller) -----------------------------------------------------------------

    def notify(self, player_id: int, kind: str, room: str | None = None, match: str | None = None,
               **facts: object) -> None:
        """Queue a notification of ``kind`` (prefs.KINDS) for ``player_id`` about ``room``
        (its code) / ``match`` (its id); ``facts``: what its text may name (``name``: who
        did it, ``due``: an ISO deadline).  Call it after the commit; it never waits and
        never raises.  From a worker thread too."""
        try:
            if kind not in P.KINDS:
                log.warning("no notification kind %r", kind)
                return
            loop = self.loop
            if loop is None or loop.is_closed():
                return  # not started (a script, a test without the sender) or stopped
            event = Event(int(player_id), kind, room, match, dict(facts))
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is loop:
                self._accept(event)
            else:
                loop.call_soon_threadsafe(self._accept, event)
        except Exception:
            log.exception("a notification was not queued")

    def _accept(self, event: Event) -> None:
        if self.waiting >= self.settings.push_queue:
            self.stats["dropped"] += 1
            log.warning("push queue full: a %s notification dropped", event.kind)
            return
        self.stats["queued"] += 1
        self.waiting += 1
        self.pending.setdefault(event.player, []).append(event)
        if event.player not in self.due:
            now = time.monotonic()
            at = max(now + self.settings.push_coalesce_seconds, self.next_allowed.get(event.player, 0.0))
            self._schedule(event.player, at)

    def _schedule(self, player: int, at: float) -> None:
        self.due[player] = at
        heapq.heappush(self.heap, (at, player))
        self.wake.set()

    # -- the sender task -----------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            try:
                await self._tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("push sender")
                await asyncio.sleep(1.0)

    async def _tick(self) -> None:
        now = time.monotonic()
        while self.heap and (self.heap[0][1] not in self.due or self.due[self.heap[0][1]] != self.heap[0][0]):
            heapq.heappop(self.heap)  # stale
        if not self.heap or self.heap[0][0] > now:
            self.wake.clear()
            timeout = None if not self.heap else self.heap[0][0] - now
            await wait_event(self.wake, timeout)
            return
        batch: dict[int, list[Event]] = {}
        while self.heap and self.heap[0][0] <= now:
            at, player = heapq.heappop(self.heap)
            if self.due.get(player) != at:
                continue
            del self.due[player]
            events = self.pending.pop(player, [])
            self.waiting -= len(events)
            if events:
                batch[player] = events
        if batch:
            await self._deliver(batch)
        if len(self.next_allowed) > 10_000:  # forget rates long past
            self.next_allowed = {p: t for p, t in self.next_allowed.items() if t > now}

    async def _deliver(self, batch: dict[int, list[Event]]) -> None:
        codes = sorted({e.room for events in batch.values() for e in events if e.room})

        def read() -> tuple[dict[int, dict], dict[str, str]]:
            with self.db.read() as s:
                return P.targets(s, list(batch), codes, with_email=self.mailer.enabled)
        targets, variants = await to_thread.run_sync(read)
        wall = self.now()
        for player, events in batch.items():
            target = targets.get(player)
            if target is None:  # no device subscribed (or a bot)
                continue
            prefs = target["prefs"]
            kept = [e for e in events if prefs["kinds"].get(e.kind) and e.room not in target["muted"]]
            self.stats["filtered"] += len(events) - len(kept)
            if not kept:
                continue
            quiet = P.quiet_until(wall, prefs["quiet_from"], prefs["quiet_to"], prefs["time_zone"])
            if quiet is not None:  # held until his quiet hours end
                self.stats["held"] += len(kept)
                self.pending.setdefault(player, [])[:0] = kept
                self.waiting += len(kept)
                if player not in self.due:
                    self._schedule(player, time.monotonic() + max(1.0, (quiet - wall).total_seconds()))
                continue
            mail = target["email"] if prefs["email"] else None
            if not target["subs"] and mail is None:
                continue
            self.next_allowed[player] = allowed = time.monotonic() + self.settings.push_min_interval
            if self.due.get(player, allowed) < allowed:  # events that came during the read wait their turn
                self._schedule(player, allowed)
            self.stats["pushes"] += 1
            zone = P.zone(prefs["time_zone"]) if prefs["time_zone"] else ZoneInfo("UTC")
            if mail is not None:
                self._spawn(self._mail(mail, self.compose(kept, mail["lang"], variants, zone)))
            by_lang: dict[str, bytes] = {}
            for sub in target["subs"]:
                if sub["lang"] not in by_lang:
                    by_lang[sub["lang"]] = json.dumps(self.compose(kept, sub["lang"], variants, zone),
                                                      ensure_ascii=False).encode()
                urgent = any(e.kind in URGENT for e in kept)
                self._spawn(self._send(sub, by_lang[sub["lang"]], "high" if urgent else "normal"))

    def _spawn(self, work) -> None:
        task = asyncio.create_task(work)
        self.sends.add(task)
        task.add_done_callback(self.sends.discard)

    async def _send(self, sub: dict, payload: bytes, urgency: str) -> None:
        """One subscription's push, tried again after 429 / 5xx / no answer."""
        assert self.push is not None
        settings = self.settings
        for attempt in range(settings.push_retries + 1):
            wait = settings.push_retry_seconds * 2 ** attempt
            try:
                r = await self.push.send(sub, payload, urgency=urgency)
                status = r.status
            except Unanswered as e:
                status, r = 0, None
                log.info("push to %s: no answer (%s)", sub["endpoint"][:60], e)
            except Exception:
                log.exception("push to %s not made", sub["endpoint"][:60])
                self.stats["failed"] += 1
                return
            if 200 <= status < 300:
                self.stats["sent"] += 1
                return
            if status in (404, 410):  # the subscription is gone
                self.stats["gone"] += 1

                def drop() -> None:
                    with self.db.write() as s:
                        P.drop_subscription(s, sub["id"], sub["endpoint"])
                await to_thread.run_sync(drop)
                return
            if status and status != 429 and status < 500:  # refused for good (400, 401, 413 ...)
                self.stats["failed"] += 1
                log.warning("push to %s refused: %s %s", sub["endpoint"][:60], status,
                            r.text if r is not None else "")
                return
            if attempt == settings.push_retries:
                break
            if r is not None and r.retry_after.isdigit():
                wait = float(r.retry_after)
            self.stats["retried"] += 1
            await asyncio.sleep(min(wait, 3600.0))
        self.stats["failed"] += 1
        log.warning("push to %s given up after %d tries", sub["endpoint"][:60], settings.push_retries + 1)

    # -- email ------------------------------------------------------------------------------------

    async def confirm_email(self, player_id: int, address: str, lang: str, base: str) -> None:
        """The player's new address: stored unconfirmed, and the link that confirms it mailed
        there (in the background, tried again like a notification)."""
        lifetime = timedelta(hours=self.settings.email_link_hours)

        def write() -> tuple[str, str]:
            with self.db.write() as s:
                secret = P.set_email(s, player_id, address, lang, base, lifetime)
                row = s.get_one(m.EmailAddress, player_id)
                return secret, row.unsubscribe
        secret, unsubscribe = await to_thread.run_sync(write)
        t = self.texts.t
        text = t(lang, "mail.confirm_body", url=f"{base}/#/email/verify/{secret}",
                 hours=int(self.settings.email_link_hours))
        self._spawn(self._deliver_mail(address, t(lang, "mail.confirm_subject"), text,
                                       lang, base, unsubscribe))

    async def _mail(self, mail: dict, note: dict) -> None:
        base = (self.settings.public_url or mail["base_url"]).rstrip("/")
        text = f"{note['body']}\n\n{base}{note['url']}"
        await self._deliver_mail(mail["address"], note["title"], text, mail["lang"], base, mail["unsubscribe"])

    async def _deliver_mail(self, to: str, subject: str, text: str, lang: str, base: str, unsubscribe: str) -> None:
        """One mail (its unsubscribe link added), tried again after a temporary failure."""
        t = self.texts.t
        text += "\n\n-- \n" + t(lang, "mail.footer", url=f"{base}/#/email/unsubscribe/{unsubscribe}")
        msg = self.mailer.message(to, subject, text, f"{base}/api/email/unsubscribe/{unsubscribe}")
        settings = self.settings
        for attempt in range(settings.push_retries + 1):
            try:
                await to_thread.run_sync(self.mailer.send, msg)
                self.stats["mailed"] += 1
                return
            except MailRefused as e:
                log.warning("mail to %s refused: %s", to, e)
                break
            except Exception as e:  # the SMTP server away or busy: later
                log.info("mail to %s not sent yet: %s", to, e)
                if attempt == settings.push_retries:
                    break
                self.stats["retried"] += 1
                await asyncio.sleep(min(settings.push_retry_seconds * 2 ** attempt, 3600.0))
        self.stats["failed"] += 1

    # -- the words --------------------------------------------------------------------------------

    def compose(self, events: list[Event], lang: str, variants: dict[str, str], zone: ZoneInfo) -> dict:
        """One notification ``{title, body, url, tag}`` for a player's ``events`` in ``lang``."""
        t = self.texts.t
        items: dict[tuple, Event] = {}
        chats: dict[str | None, int] = {}
        for e in events:
            if e.kind in LATEST_PER_MATCH:
                items[(e.kind, e.match or e.room)] = e
            elif e.kind == "chat":
                chats[e.room] = chats.get(e.room, 0) + 1
                items[("chat", e.room)] = e
            else:
                items[(e.kind, e.room, len(items))] = e
        rooms = {e.room for e in items.values()}
        if len(items) > 1:
            room = next(iter(rooms)) if len(rooms) == 1 else None
            return {"title": t(lang, "push.summary_title"),
                    "body": t(lang, "push.summary", n=len(items)) if room is None
                    else t(lang, "push.summary_room", n=len(items), room=room),
                    "url": f"/room/{room}" if room else "/#/games", "tag": f"room-{room}" if room else "kozyr"}
        e = next(iter(items.values()))
        if e.kind == "club_event":  # app/club_events.py: its start in the event's own zone; a reminder, or word of a move or cancellation
            when = _when(e.facts.get("starts"), P.zone(str(e.facts.get("time_zone") or "UTC")))
            words = {"title": str(e.facts.get("title", "")), "club": str(e.facts.get("club_name", "")), "when": when}
            key = {"moved": "club_event_moved", "cancelled": "club_event_cancelled"}.get(
                str(e.facts.get("change")), "club_event")
            return {"title": t(lang, f"push.{key}_title", **words), "body": t(lang, f"push.{key}", **words),
                    "url": f"/#/club/{e.facts.get('club')}", "tag": f"club-event-{e.facts.get('event')}"}
        room = e.room or ""
        lines = chats.get(e.room, 1)
        values: dict[str, object] = {"room": room, "variant": self.texts.variant(lang, variants.get(room)),
                                     "name": str(e.facts.get("name", "")), "n": lines}
        due = _when(e.facts.get("due"), zone)
        key = e.kind
        if e.kind in ("turn", "reminder") and due:
            key, values["due"] = f"{e.kind}_due", due
        elif e.kind == "chat" and lines > 1:
            key = "chat_many"
        return {"title": t(lang, f"push.{e.kind}_title", **values), "body": t(lang, f"push.{key}", **values),
                "url": f"/room/{room}" if room else "/#/games", "tag": f"room-{room}" if room else "kozyr"}


def _when(iso: object, zone: ZoneInfo) -> str | None:
    """An ISO time as the player's clock shows it, with its zone ("2026-12-05 14:00 CET")."""
    if not isinstance(iso, str):
        return None
    try:
        at = datetime.fromisoformat(iso)
    except ValueError:
        return None
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z")
