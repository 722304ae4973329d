"""Name + passphrase sign-in (issue 16's option) on SQLite and PostgreSQL: set on one
device, signing in on another gives a token of its own for the same player; the
passphrase is stored only as an argon2id hash; a wrong pair and an unknown name look
alike; wrong passphrases lock the name (per name, whatever the address) and failures
per address are limited as for links."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from app.db import accounts
from app.db import models as m

from .conftest import serve
from .helpers import auth, make_room, new_player

# real argon2id, cheaper costs than the server's defaults (3 passes over 64 MiB) so the
# tests stay quick; test_hash_uses_the_settings checks the parameters reach the hash
FAST = {"passphrase_time_cost": 1, "passphrase_memory_kib": 8192}


@pytest.fixture(scope="module")
def pclient(database_url):
    with serve(database_url, passphrase_tries=3, passphrase_lock_seconds=60,
               sign_in_burst=1000, **FAST) as c:  # the per-address limit: its own test
        yield c


def set_pass(client, player, login, passphrase="correct horse battery"):
    return client.put("/api/players/me/passphrase", json={"login": login, "passphrase": passphrase},
                      headers=auth(player))


def sign_in(client, login, passphrase="correct horse battery"):
    return client.post("/api/sign-in/passphrase", json={"login": login, "passphrase": passphrase})


def unique(stem: str) -> str:
    import secrets
    return f"{stem} {secrets.token_hex(3)}"


def test_second_device_by_name_and_passphrase_is_the_same_player(pclient):
    room, players = make_room(pclient, "thousand-1000", 3, start=True)
    first = players[0]
    login = unique("Ольга Wójcik")
    r = set_pass(pclient, first, login)
    assert r.status_code == 200 and r.json()["login"] == login, r.text
    assert pclient.get("/api/players/me/passphrase", headers=auth(first)).json()["login"] == login
    with pclient.app.state.db.read() as s:
        row = s.get(accounts.Passphrase, first["id"])
        assert row.hash.startswith("$argon2id$v=19$m=8192,t=1,") and "horse" not in row.hash
    # another case and spacing of the name: the same name
    r = sign_in(pclient, "  " + login.upper().replace(" ", "   ") + " ")
    assert r.status_code == 200, r.text
    device = r.json()
    assert device["id"] == first["id"] and device["name"] == first["name"] and device["token"] != first["token"]
    mine = pclient.get("/api/players/me/matches", headers=auth(first)).json()
    theirs = pclient.get("/api/players/me/matches", headers=auth(device)).json()
    assert [x["id"] for x in theirs] == [x["id"] for x in mine] == [room["match"]["id"]]
    assert pclient.get("/api/players/me", headers=auth(first)).status_code == 200  # the first device stays


def test_wrong_passphrase_and_unknown_name_look_alike(pclient):
    player = new_player(pclient)
    login = unique("Jerzy")
    assert set_pass(pclient, player, login).status_code == 200
    wrong = sign_in(pclient, login, "not the passphrase")
    unknown = sign_in(pclient, unique("nobody"), "not the passphrase")
    assert wrong.status_code == unknown.status_code == 422
    assert wrong.json() == unknown.json() and wrong.json()["code"] == "sign_in_refused"
    with pclient.app.state.db.read() as s:
        tokens = s.scalars(select(accounts.PlayerToken.id).where(accounts.PlayerToken.player_id == player["id"]))
        assert len(list(tokens)) == 1  # the first device's own: nothing was handed out


def test_a_name_that_folds_longer_fits(pclient):
    player = new_player(pclient)
    login = "ß" * 34 + secrets_hex()  # casefolded: twice as long
    assert set_pass(pclient, player, login).status_code == 200
    assert sign_in(pclient, "SS" * 34 + login[34:]).json()["id"] == player["id"]


def secrets_hex() -> str:
    import secrets
    return secrets.token_hex(3)


def test_the_name_is_one_players(pclient):
    a, b = new_player(pclient), new_player(pclient)
    login = unique("Sam")
    assert set_pass(pclient, a, login).status_code == 200
    r = set_pass(pclient, b, login.lower())
    assert r.status_code == 409 and r.json()["code"] == "login_taken"
    # a new passphrase replaces the old one; removed: refused
    assert set_pass(pclient, a, login, "a brand new passphrase").status_code == 200
    assert sign_in(pclient, login).status_code == 422
    assert sign_in(pclient, login, "a brand new passphrase").status_code == 200
    assert pclient.delete("/api/players/me/passphrase", headers=auth(a)).status_code == 204
    assert pclient.get("/api/players/me/passphrase", headers=auth(a)).json() is None
    assert sign_in(pclient, login, "a brand new passphrase").status_code == 422
    assert set_pass(pclient, b, login).status_code == 200  # free again


@pytest.mark.parametrize("body", [
    {"login": "ok name", "passphrase": "short"},
    {"login": "x", "passphrase": "long enough passphrase"},
    {"login": "bad\u0000name", "passphrase": "long enough passphrase"},
    {"login": "n" * 41, "passphrase": "long enough passphrase"},
    {"login": "ok name"},
])
def test_bad_input_is_refused_and_changes_nothing(pclient, body):
    player = new_player(pclient)
    r = pclient.put("/api/players/me/passphrase", json=body, headers=auth(player))
    assert r.status_code == 422, r.text
    assert pclient.get("/api/players/me/passphrase", headers=auth(player)).json() is None
    assert pclient.put("/api/players/me/passphrase", json={"login": "ok name", "passphrase": "x" * 12}).status_code == 401


def test_wrong_passphrases_lock_the_name_even_for_the_right_one(pclient):
    player = new_player(pclient)
    login = unique("Zoë")
    assert set_pass(pclient, player, login).status_code == 200
    for _ in range(3):  # passphrase_tries = 3
        assert sign_in(pclient, login, "guess guess guess").status_code == 422
    r = sign_in(pclient, login)
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    with pclient.app.state.db.write() as s:  # the lock ran out
        row = s.get(accounts.Passphrase, player["id"])
        assert row.failures == 3 and row.blocked_until is not None
        s.execute(update(accounts.Passphrase).where(accounts.Passphrase.player_id == player["id"])
                  .values(blocked_until=m.utcnow() - timedelta(seconds=1)))
    # one more wrong one locks it again at once, for twice as long
    assert sign_in(pclient, login, "guess guess guess").status_code == 422
    with pclient.app.state.db.read() as s:
        row = s.get(accounts.Passphrase, player["id"])
        left = accounts._aware(row.blocked_until) - m.utcnow()
        assert row.failures == 4 and timedelta(seconds=100) < left <= timedelta(seconds=120)
    assert sign_in(pclient, login).status_code == 429
    with pclient.app.state.db.write() as s:
        s.execute(update(accounts.Passphrase).where(accounts.Passphrase.player_id == player["id"])
                  .values(blocked_until=None))
    assert sign_in(pclient, login).status_code == 200  # the right one, once unlocked: in, and forgotten
    with pclient.app.state.db.read() as s:
        row = s.get(accounts.Passphrase, player["id"])
        assert row.failures == 0 and row.blocked_until is None


def test_failures_per_address_are_limited(database_url):
    with serve(database_url, sign_in_burst=2, sign_in_per_minute=0.001, **FAST) as c:
        player = new_player(c)
        login = unique("Grażyna")
        assert set_pass(c, player, login).status_code == 200
        assert sign_in(c, unique("a"), "x").status_code == 422
        assert sign_in(c, unique("b"), "x").status_code == 422
        r = sign_in(c, login)  # the right pair waits once the address is out of tries
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"


def test_hash_uses_the_settings_and_is_renewed_when_they_change(database_url):
    with serve(database_url, **FAST) as c:
        player = new_player(c)
        login = unique("Dmitri")
        assert set_pass(c, player, login).status_code == 200
    with serve(database_url, passphrase_time_cost=2, passphrase_memory_kib=8192) as c:
        assert sign_in(c, login).status_code == 200
        with c.app.state.db.read() as s:
            assert s.get(accounts.Passphrase, player["id"]).hash.startswith("$argon2id$v=19$m=8192,t=2,")


def test_guesses_sent_at_once_cannot_outrun_the_lock(pclient):
    """Two wrong ones, then six at once: the third in a row locks the name before it is
    checked, so exactly one of the six is checked (422) and the others wait (429)."""
    from concurrent.futures import ThreadPoolExecutor
    player = new_player(pclient)
    login = unique("Olek")
    assert set_pass(pclient, player, login).status_code == 200
    for _ in range(2):
        assert sign_in(pclient, login, "guess guess guess").status_code == 422
    with ThreadPoolExecutor(6) as pool:
        codes = sorted(pool.map(lambda _: sign_in(pclient, login, "guess guess guess").status_code, range(6)))
    assert codes == [422, 429, 429, 429, 429, 429]
    with pclient.app.state.db.read() as s:
        assert s.get(accounts.Passphrase, player["id"]).failures == 3


def test_hashing_works_again_after_a_close():
    """An app whose lifespan ends closes its argon2 threads; started again (a test client
    opened anew on the same app), it hashes again instead of 'cannot schedule new futures
    after shutdown' (seen in the REST fuzz, whose calls may run the app's lifespan)."""
    import asyncio

    from app.hashing import Hashing

    hashing = Hashing(1, 1, 1024)

    async def roundtrip() -> bool:
        digest = await hashing.hash("пароль")
        ok, _ = await hashing.check(digest, "пароль")
        return ok

    assert asyncio.run(roundtrip())
    hashing.close()
    assert asyncio.run(roundtrip())
    hashing.close()
