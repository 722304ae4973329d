"""Kozyr's server: private rooms, live play over websockets, match history."""
