"""Rooms, seats, the authoritative match loop and the fan-out hub."""
