"""Email, the second channel (README "Notifications"): the same notifications, coalesced
and chosen alike, to a player's confirmed address, through the SMTP server of
``KOZYR_SMTP_URL`` (Python's smtplib, in a worker thread); off while it is empty.
Every mail carries a one-click unsubscribe (RFC 8058: ``List-Unsubscribe`` with
``List-Unsubscribe-Post: List-Unsubscribe=One-Click``) and the same link in its text."""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from urllib.parse import unquote, urlsplit


class MailRefused(Exception):
    """The SMTP server refused the mail for good (5xx): not tried again."""


class Mailer:
    def __init__(self, smtp_url: str, sender: str, timeout: float = 30.0) -> None:
        self.url = urlsplit(smtp_url) if smtp_url else None
        if self.url is not None and self.url.scheme not in ("smtp", "smtps"):
            raise ValueError("KOZYR_SMTP_URL must be smtp://... or smtps://...")
        self.sender = sender
        self.timeout = timeout

    @property
    def enabled(self) -> bool:
        return self.url is not None

    def message(self, to: str, subject: str, text: str, unsubscribe_url: str) -> EmailMessage:
        msg = EmailMessage()
        msg["From"] = self.sender
        msg["To"] = to
        msg["Subject"] = subject
        msg["Date"] = formatdate(localtime=False)
        msg["Message-ID"] = make_msgid(domain=parseaddr(self.sender)[1].rpartition("@")[2] or "localhost")
        msg["List-Unsubscribe"] = f"<{unsubscribe_url}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        msg["Auto-Submitted"] = "auto-generated"
        msg.set_content(text)
        return msg

    def send(self, msg: EmailMessage) -> None:
        """(A worker thread.)  Hand the mail to the SMTP server: MailRefused for a
        permanent refusal, OSError / smtplib errors for what may pass later."""
        url = self.url
        assert url is not None, "no KOZYR_SMTP_URL"
        host = url.hostname or "localhost"
        secure = url.scheme == "smtps"
        port = url.port or (465 if secure else 25)
        client = (smtplib.SMTP_SSL(host, port, timeout=self.timeout, context=ssl.create_default_context())
                  if secure else smtplib.SMTP(host, port, timeout=self.timeout))
        try:
            client.ehlo()
            if not secure and client.has_extn("starttls"):
                client.starttls(context=ssl.create_default_context())
                client.ehlo()
            if url.username:
                client.login(unquote(url.username), unquote(url.password or ""))
            client.send_message(msg)
        except smtplib.SMTPRecipientsRefused as e:
            raise MailRefused(str(e)) from None
        except smtplib.SMTPResponseException as e:
            if e.smtp_code >= 500:
                raise MailRefused(f"{e.smtp_code} {e.smtp_error!r}") from None
            raise
        finally:
            try:
                client.quit()
            except (smtplib.SMTPException, OSError):
                client.close()
