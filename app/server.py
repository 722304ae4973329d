"""The composition root: one ``Server`` per process builds the parts and gives each
only the collaborators it uses (by constructor; the two back-references the bots
close are set here, typed by the Protocols of app/rooms/ports.py), starts and
stops them, and routes the other processes' notes to the part each concerns.  Only
the fan-out holds the ``Server``, and sees it as its ``Receiver`` (those four note
handlers, rooms/fanout.py); the app factory (app/main.py) puts the parts on
``app.state`` for the routes."""

from __future__ import annotations

import logging

from anyio import to_thread

from .clock import Clock
from .club_events import ClubEvents
from .clubs import Clubs
from .config import Settings, static_root
from .db.migrate import upgrade
from .db.session import Database
from .directory import PlayerDirectory
from .duplicates import Duplicates
from .gcpace import GcPacer, freeze_startup
from .hashing import Hashing
from .metrics import Metrics
from .pages import PlayerPages
from .push import Notifier
from .push.ends import MatchEnds
from .push.texts import Texts
from .ratings import Ratings
from .rooms.abandon import Abandon
from .rooms.bots import BotRunner
from .rooms.coach import Coach
from .rooms.deadlines import Deadlines
from .rooms.fanout import RedisFanout
from .rooms.history import History
from .rooms.hub import Hub
from .rooms.live import LiveMatch
from .rooms.loop import MatchLoop
from .rooms.peers import Peers
from .rooms.play import Play
from .rooms.replays import ReplayCache
from .rooms.review import DealReviews
from .rooms.service import RoomService
from .rooms.takeback import Takebacks
from .signin import SignIns
from .tournaments import Tournaments

log = logging.getLogger("kozyr.rooms")


class Server:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = db = Database(settings.database_url)
        self.hub = hub = Hub()
        self.peers = peers = Peers()  # the other processes (fanout.py, when REDIS_URL is set)
        self.live: dict[str, LiveMatch] = {}  # the live matches of this process, by id
        live = self.live
        self.players = PlayerDirectory(settings, db, peers)  # tokens -> players
        self.metrics = Metrics(settings, rooms=lambda: len(hub.rooms), live_matches=lambda: len(live),
                               connections=lambda: sum(len(c) for c in list(hub.rooms.values())))
        self.ratings = Ratings(db)  # standings and ratings of finished matches (app/ratings.py)
        # pushes after a commit (app/push/): the room code, the take-backs, the matches' ends
        self.notifier = Notifier(settings, db, Texts(static_root(settings) / "i18n"))
        self.rooms = RoomService(settings, db, hub, peers, live, self.notifier)
        ends = MatchEnds(self.ratings, db, self.notifier, hub.connected_players)
        self.matches = MatchLoop(db, hub, peers, live, self.rooms, ends, self.metrics)
        self.bots = BotRunner(settings, db, hub, self.rooms, self.matches,  # bots in seats, takeovers
                              lambda level, s: self.metrics.bot_decisions.labels(level=level).observe(s))
        self.rooms.takeovers = self.bots
        self.matches.bots = self.bots
        self.clock = Clock(settings.clock_file)  # the deadlines' wall clock (tests move it)
        self.deadlines = Deadlines(settings, db, hub, peers, self.matches, self.clock)  # both paces
        self.deadlines.bots = self.bots
        self.bots.deadlines = self.deadlines
        self.deadlines.notify = self.notifier.notify  # "turn" and "reminder" pushes
        self.play = Play(self.rooms, self.matches, self.bots)  # what crosses those three
        self.coach = Coach(settings, self.rooms, self.matches, self.bots.pool)  # hints (rooms/coach.py)
        self.takebacks = Takebacks(settings, db, hub, peers, self.rooms, self.matches, self.bots)
        self.abandon = Abandon(self.rooms, self.matches)  # the host stops a match (abandon.py)
        self.replays = ReplayCache(settings.history_cache)  # history's replays (rooms/replays.py)
        self.history = History(db, live, self.replays)  # matches, exports (history.py)
        self.reviews = DealReviews(settings, db, self.replays, self.bots.pool)  # the coach's (review.py)
        self.pages = PlayerPages(db)  # the player page and calls to new rooms (app/pages.py)
        self.clubs = Clubs(db, self.clock)  # clubs: members, presets, seasons (app/clubs.py)
        self.clubs.online = hub.online  # a club page's "online now"
        # a club's duplicate matches and "replay this deal" (app/duplicates.py)
        self.duplicates = Duplicates(db, self.rooms, self.play, self.clubs, self.history)
        # club tournaments: their rounds open as their tables' matches end (app/tournaments.py)
        self.tournaments = Tournaments(db, self.clubs, self.rooms, self.play)
        self.ratings.ended = self.tournaments.match_ended
        self.club_events = ClubEvents(db, self.clubs, self.clock)  # a club's events (app/club_events.py)
        self.club_events.notify = self.notifier.notify  # their reminders
        self.deadlines.others.append(self.club_events)  # ... claimed by the deadlines' sweeper
        # argon2 on threads of its own, not the database's worker threads (app/hashing.py)
        self.hashing = Hashing(settings.hash_threads, settings.passphrase_time_cost, settings.passphrase_memory_kib)
        self.sign_ins = SignIns(settings, db, self.hashing, self.players, hub, peers)  # sign-in, devices
        self.gc = GcPacer(settings.gc_pace_ms / 1000, settings.gc_full_seconds)  # app/gcpace.py
        self.fanout: RedisFanout | None = None

    # -- life cycle -----------------------------------------------------------------

    async def startup(self) -> None:
        """Ready to serve; if a step fails (the database or Redis unreachable), what the
        earlier steps started is stopped again before the error goes on (the collector's
        thresholds and callback are the whole process's)."""
        settings = self.settings
        if settings.worker_threads > 0:  # every to_thread.run_sync without a limiter of its own
            to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        try:
            self.metrics.start_watch()
            if settings.run_migrations:
                await to_thread.run_sync(upgrade, self.db.engine)
            await self.notifier.start()  # the VAPID keys, made on the first start (app/push/keys.py)
            self.metrics.recovered.inc(await to_thread.run_sync(self.matches.recover))
            await to_thread.run_sync(self.ratings.catch_up)
            if settings.gc_freeze:
                freeze_startup()
            self.gc.start()
            for live in list(self.live.values()):  # recovered matches' bots play on
                await self.bots.poke(live)
            if settings.deadline_sweeper:
                self.deadlines.start()  # what fell due while no process ran fires now
            await self.tournaments.catch_up()  # rounds due while no process ran open now
            # matches nobody uses leave memory (loaded again from their log when needed)
            self.matches.start_sweeps(settings.match_sweep_seconds, settings.match_idle_seconds)
            if settings.redis_url:
                fanout = RedisFanout(settings.redis_url, settings, self.hub, self.live, self)
                try:
                    await fanout.start()
                except BaseException:
                    await fanout.stop()
                    raise
                self.fanout = self.peers.fanout = fanout
        except BaseException:
            try:
                await self.shutdown()
            except Exception:
                log.exception("stopping what a failed start-up had started")
            raise

    async def shutdown(self) -> None:
        self.metrics.stop_watch()
        self.gc.stop()
        await self.deadlines.stop()
        await self.bots.stop()
        if self.fanout is not None:
            await self.fanout.stop()
        for conns in list(self.hub.rooms.values()):
            for conn in list(conns):
                await conn.close()
        await self.matches.stop()
        await self.notifier.stop()
        self.hashing.close()
        self.db.dispose()

    # -- the other processes' notes (rooms/fanout.py Receiver) ------------------------------

    async def on_remote(self, code: str, note: dict) -> None:
        """Another process changed the room: catch up and tell our sockets."""
        kind = note.get("kind")
        if kind == "match":
            await self.matches.on_note(note)
        elif kind == "room":
            await self.play.on_room_note(code, note)
        elif kind == "chat":
            self.hub.broadcast(code, note["message"])
        elif kind == "takeback":  # a take-back request's votes (app/rooms/takeback.py)
            await self.takebacks.on_note(note)
        elif kind == "deadline":  # a deadline timed again outside a move (a vacation)
            await self.deadlines.on_note(note)

    async def presence_changed(self, code: str) -> None:
        """Players came or went on another process: tell our sockets."""
        if self.hub.conns(code):
            await self.rooms.snapshot(code)
            self.rooms.send_presence(code)

    def forget_room(self, code: str) -> None:
        self.rooms.forget(code)

    async def on_players_note(self, note: dict) -> None:
        """A renamed player, or signed-out devices, on another process."""
        self.players.on_note(note)
        if isinstance(note.get("signed_out"), list):
            await self.sign_ins.signed_out([str(d) for d in note["signed_out"]], tell_others=False)
