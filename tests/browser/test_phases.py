"""Every kind of decision is a control a person can click.

The match is brought over the websocket (random legal actions) to the moment a seat
must make the decision; then that seat's browser shows it and the person clicks."""

from __future__ import annotations

import json

import pytest

from .helpers import Player, call, drive, registered, state

NAMES = ["Вера", "Kasia", "Иван", "Tomek"]

# (variant, seats, phase, an action kind that must be on offer, options)
CASES = [
    ("thousand-1000", 3, "talon", "give:", None),
    ("thousand-1000", 3, "talon", "contract:", None),
    ("thousand-1000-2p", 2, "talon", "take:", None),
    ("thousand-1000-2p", 2, "talon", "discard:", None),
    ("king-classic", 4, "choose", "trump:", None),
    ("king-ordered", 4, "choose", "order:", None),
    ("korol-ru", 4, "tribute", "", {"reigns": 1}),
    ("korol-ru", 4, "swap", "swap:", {"reigns": 1}),
    ("krol-pl", 4, "spare", "spare:", {"reigns": 1}),
    ("krol-pl", 4, "strike", "strike", {"reigns": 1}),
    ("krol-pl", 4, "pool", "give:", {"reigns": 1}),
]


@pytest.mark.parametrize("variant,seats,phase,kind,options", CASES,
                         ids=[f"{c[0]}-{c[2]}-{c[3].rstrip(':') or 'any'}" for c in CASES])
def test_decision_is_a_control(server, new_page, screenshots, variant, seats, phase, kind, options):
    if variant not in registered(server):
        pytest.skip(f"variant {variant} is not registered in the engine yet")
    players = [call(server, "POST", "/api/players", body={"name": n}) for n in NAMES[:seats]]
    room = call(server, "POST", "/api/rooms", players[0]["token"],
                {"variant": variant, "seats": seats, "options": options})
    code = room["code"]
    for n, p in enumerate(players[1:], start=1):
        call(server, "POST", f"/api/rooms/{code}/seats/{n}", p["token"])
    call(server, "POST", f"/api/rooms/{code}/start", players[0]["token"])

    def stop(views):
        v = views[0]["view"]
        for seat in v["to_act"]:
            mine = views[seat]["view"]
            if mine["phase"] == phase and any(a.startswith(kind) for a in mine["legal"]):
                return seat
        return None

    for attempt in range(4):  # a decision random play may miss: try the next match of the room
        _, seat, msg = drive(server, code, [p["token"] for p in players], stop, seed=attempt)
        if seat is not None:
            break
        call(server, "POST", f"/api/rooms/{code}/rematch", players[0]["token"])
    if seat is None:
        pytest.skip(f"random play of {variant} never reached {phase} with {kind!r} on offer")
    legal = msg["view"]["legal"]

    page = new_page()
    page.goto(server + "/")
    me = {"id": players[seat]["id"], "name": players[seat]["name"], "token": players[seat]["token"]}
    page.evaluate(f"localStorage.setItem('kozyr.player', {json.dumps(json.dumps(me))})")
    page.goto(f"{server}/room/{code}")
    felt = page.locator(f".felt[data-phase='{phase}'][data-my-turn='true']")
    felt.wait_for()
    st = state(page)
    offered = set(st["controls"]) | {a for c in st["cards"] for a in c["actions"]}
    # every legal action is offered, one way or another, and nothing else
    numeric = {a for a in legal if a.split(":")[0] in ("bid", "contract")}
    assert offered - numeric <= set(legal)
    assert set(legal) - numeric <= offered | _select_values(page)
    page.screenshot(path=str(screenshots / f"phase-{variant}-{phase}.png"))
    # click the decision of the kind under test when there is one, else what the policy picks
    target = [a for a in st["controls"] if a.startswith(kind)] if kind else []
    if target:
        page.locator(f".controls [data-action='{target[0]}']").first.click()
        if target[0] in msg["view"].get("confirm", []):  # a costly call asks first (view.confirm)
            page.locator("[data-role=confirm-yes]").click()
    else:
        Player(page).move(st)
    page.wait_for_function(f"() => Number(document.querySelector('.felt').dataset.version) > {st['version']}")
    assert not page.errors and page.dialogs == []


def _select_values(page) -> set[str]:
    return set(page.eval_on_selector_all(".controls select option", "els => els.map(e => e.value)"))
