"""Bots that play through the same interface as people (see issue: bots)."""
