"""HTTP routes (one router per resource) and the websocket route."""
