"""A local Web Push service for the tests and the bench: a real HTTP server (stdlib,
a thread per connection, keep-alive) that takes a push as a push service does: it
checks the VAPID signature (RFC 8292: ``Authorization: vapid t=<ES256 JWT>,
k=<public key>``, the JWT's ``aud`` its own origin, ``exp`` not past) and decrypts the
``aes128gcm`` body (RFC 8291) with the private key of the subscription the test made.
What it keeps is the decrypted payload; a script of statuses per subscription makes it
answer 429 / 5xx / 410 first."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Subscriber:
    """A browser's side of one subscription: its key pair and auth secret."""

    def __init__(self, service: PushService, name: str) -> None:
        self.name = name
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = f"{service.base}/push/{name}"

    def json(self, lang: str = "en") -> dict:
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64e(point), "auth": b64e(self.auth)}, "lang": lang}


def verify_vapid(header: str, audience: str) -> dict:
    """The VAPID JWT's claims, after checking its ES256 signature with the key it names
    (ValueError for a bad one); ``k`` is added to the claims."""
    scheme, _, rest = header.partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError(f"not a vapid Authorization: {scheme!r}")
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    head, claims, sig = parts["t"].split(".")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(parts["k"]))
    raw = b64d(sig)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("the VAPID signature does not verify") from None
    if json.loads(b64d(head)) != {"typ": "JWT", "alg": "ES256"}:
        raise ValueError("not an ES256 JWT")
    body = json.loads(b64d(claims))
    if body.get("aud") != audience:
        raise ValueError(f"aud {body.get('aud')!r} is not {audience!r}")
    if not body.get("exp") or body["exp"] < time.time():
        raise ValueError("the JWT has expired")
    if not str(body.get("sub", "")).startswith(("mailto:", "https:")):
        raise ValueError("no sub")
    return {**body, "k": parts["k"]}


class PushService:
    def __init__(self) -> None:
        service = self
        self.lock = threading.Lock()
        self.subscribers: dict[str, Subscriber] = {}
        self.received: list[dict] = []  # {"to", "payload", "claims", "headers"}
        self.attempts: dict[str, int] = {}
        self.script: dict[str, list[int]] = {}  # subscriber -> statuses to answer first
        self.refused: list[str] = []  # why a push was refused (bad signature, undecryptable)
        self.check = True  # False: answer 201 without verifying or decrypting (to time the sender alone)

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status = service.take(self.path.rsplit("/", 1)[-1], dict(self.headers), body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        class Server(ThreadingHTTPServer):
            request_queue_size = 256  # a sender's burst of new connections is not refused

        self.server = Server(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def subscriber(self, name: str) -> Subscriber:
        sub = Subscriber(self, name)
        self.subscribers[name] = sub
        return sub

    def take(self, name: str, headers: dict, body: bytes) -> int:
        with self.lock:
            self.attempts[name] = self.attempts.get(name, 0) + 1
            script = self.script.get(name)
            if script:
                return script.pop(0)
        sub = self.subscribers.get(name)
        if sub is None:
            return 404
        if not self.check:
            with self.lock:
                self.received.append({"to": name})
            return 201
        try:
            if headers.get("Content-Encoding") != "aes128gcm":
                raise ValueError(f"Content-Encoding {headers.get('Content-Encoding')!r}")
            if not headers.get("TTL", "").isdigit():
                raise ValueError("no TTL")
            claims = verify_vapid(headers.get("Authorization", ""), self.base)
            plain = http_ece.decrypt(body, private_key=sub.key, auth_secret=sub.auth, version="aes128gcm")
            payload = json.loads(plain)
        except Exception as e:  # a real service refuses it
            with self.lock:
                self.refused.append(f"{name}: {e}")
            return 400 if "Encoding" in str(e) else 403
        with self.lock:
            self.received.append({"to": name, "payload": payload, "claims": claims, "headers": headers})
        return 201

    def payloads(self, name: str) -> list[dict]:
        with self.lock:
            return [r["payload"] for r in self.received if r["to"] == name]

    def wait(self, name: str, count: int = 1, timeout: float = 15.0) -> list[dict]:
        """The first ``count`` payloads ``name`` received (AssertionError after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.payloads(name)
            if len(got) >= count:
                return got
            time.sleep(0.05)
        raise AssertionError(f"{name} got {self.payloads(name)} (wanted {count}); refused: {self.refused}")


def main() -> None:
    """A push service in a process of its own (bench/push.py): makes ``N`` subscribers,
    prints ``{"base", "subscriptions"}`` as one JSON line, then answers each ``stats``
    line on stdin with ``{"received", "refused", "cpu"}`` (this process's CPU seconds)."""
    import sys
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with PushService() as service:
        subs = [service.subscriber(f"b{i}").json() for i in range(count)]
        print(json.dumps({"base": service.base, "subscriptions": subs}), flush=True)
        for line in sys.stdin:
            if line.strip() == "stats":
                t = os.times()
                print(json.dumps({"received": len(service.received), "refused": len(service.refused),
                                  "cpu": t.user + t.system}), flush=True)


if __name__ == "__main__":
    main()
