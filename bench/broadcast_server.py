"""The bare baseline for bench/server.py: a FastAPI websocket server with no rules
and no database.  ``/ws/{room}?seat=N``: an ``action`` message from any seat
bumps the room's version and sends every seat of the room a ``view`` of about
the size of a real one, so the same load client can drive it.

    .venv/bin/python bench/broadcast_server.py --port 8100
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

SEATS = 4
FILLER = "x" * 1500  # a real view of a 4-seat match is 1.5-3 KB of JSON

app = FastAPI()
rooms: dict[str, dict[int, WebSocket]] = defaultdict(dict)
versions: dict[str, int] = defaultdict(int)


def view(room: str) -> str:
    v = versions[room]
    return json.dumps({"type": "view", "version": v, "match": room,
                       "view": {"phase": "play", "to_act": [v % SEATS], "legal": ["x"], "pad": FILLER}})


@app.websocket("/ws/{room}")
async def ws(socket: WebSocket, room: str, seat: int = 0) -> None:
    await socket.accept()
    rooms[room][seat] = socket
    await socket.send_text(view(room))
    try:
        while True:
            msg = json.loads(await socket.receive_text())
            if msg.get("type") != "action" or msg.get("version") != versions[room]:
                continue
            versions[room] += 1
            text = view(room)
            for other in list(rooms[room].values()):
                try:
                    await other.send_text(text)
                except Exception:
                    pass
    except WebSocketDisconnect:
        pass
    finally:
        if rooms[room].get(seat) is socket:
            del rooms[room][seat]


@app.get("/healthz")
async def healthz() -> dict:
    return {"ok": True}


if __name__ == "__main__":
    import uvicorn
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8100)
    args = parser.parse_args()
    # No permessage-deflate, like the game server's default (KOZYR_WS_DEFLATE), so
    # the two are measured on equal terms.
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning",
                ws_per_message_deflate=False)
