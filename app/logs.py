"""Structured logs: one JSON object per line on stderr."""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime

_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime",
                                                                      "color_message"}


_SECRET_QUERY = re.compile(r"([?&]token=)[^&\s\"']*")


class RedactTokens(logging.Filter):
    """Rewrites a record whose message holds a ``?token=`` query value (the websocket
    URL: uvicorn's access line and its "WebSocket ... [accepted]" line) with the value
    replaced by ``[redacted]``.  On our handler, so every logger's records pass it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "token=" in message:
            record.msg, record.args = _SECRET_QUERY.sub(r"\1[redacted]", message), ()
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {"time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
               "level": record.levelname.lower(), "logger": record.name, "message": record.getMessage()}
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = value if isinstance(value, (str, int, float, bool, type(None))) else repr(value)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


class KozyrHandler(logging.StreamHandler):
    """Our handler on the root logger (a class of our own, so a second set-up replaces
    it instead of adding another)."""


def setup_logging(level: str = "INFO", access_log: bool = False) -> None:
    handler = KozyrHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RedactTokens())
    root = logging.getLogger()
    for h in list(root.handlers):
        if isinstance(h, KozyrHandler):
            root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers = []
        lg.propagate = True
    logging.getLogger("uvicorn.access").setLevel("INFO" if access_log else "WARNING")
    logging.getLogger("alembic").setLevel("WARNING")
