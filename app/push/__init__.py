"""Notifications that reach a closed tab: Web Push with VAPID (README "Notifications").
``Notifier.notify`` is the one call the server's code makes (app/push/notifier.py)."""

from .notifier import Notifier

__all__ = ["Notifier"]
