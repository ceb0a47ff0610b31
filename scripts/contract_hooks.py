"""Schemathesis hooks for the store's contract test (scripts/contract-test.sh).

A member takes part: at start a member registers through the emailed link (as a shopper would),
and every generated request carries their session as `Authorization: Bearer`, so the member calls
(profile, addresses, checkout, orders, Go-to Cases) are reached, not answered 401. When a
generated request ends that session (logout, a password change), the next 401 makes schemathesis
log in again and send the request once more.
"""

import email
import json
import os
import pathlib
import quopri
import re
import time
import urllib.error
import urllib.request

import schemathesis

BASE = os.environ["STORE_BASE"]
OUTBOX = pathlib.Path(os.environ["MAIL_OUTBOX"])
EMAIL = "fuzz.member@example.com"
PASSWORD = "Contract-Pale-Pilsen-2026"


def _post(path, body, headers=None):
    req = urllib.request.Request(
        BASE + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return res.status, dict(res.headers), res.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def _mailed_token():
    """The registration link's token from the newest mail to EMAIL (the mailer writes files)."""
    for _ in range(200):
        files = sorted(OUTBOX.glob("*"), key=lambda f: f.stat().st_mtime, reverse=True) if OUTBOX.exists() else []
        for f in files:
            text = quopri.decodestring(f.read_bytes()).decode("utf-8", "replace")
            if not re.search(r"^To: .*" + re.escape(EMAIL), text, re.M | re.I):
                continue
            m = re.search(r"/registration\?token=([A-Za-z0-9_-]+)", text)
            if m:
                return m.group(1)
        time.sleep(0.1)
    raise RuntimeError("no registration mail reached the outbox")


def _register():
    status, _, body = _post(
        "/api/v1/pre-register",
        {
            "first_name": "Fuzz",
            "last_name": "Member",
            "email": EMAIL,
            "mobile": "09170009999",
            "birth_date": "1990-05-05",
            "accept_terms": True,
        },
    )
    if status != 200:
        raise RuntimeError(f"pre-register answered {status}: {body[:200]!r}")
    token = _mailed_token()
    status, _, body = _post("/api/v1/registration", {"password": PASSWORD}, {"registration-token": token})
    if status != 200:
        raise RuntimeError(f"registration answered {status}: {body[:200]!r}")


_register()


@schemathesis.auth(refresh_interval=3600, retry_on=[401])
class Member:
    """The member's session token, fetched by logging in; fetched again after a 401."""

    def get(self, case, context):
        status, headers, body = _post("/api/v1/login", {"login": EMAIL, "password": PASSWORD})
        token = headers.get("access-token") or headers.get("Access-Token")
        if status != 200 or not token:
            raise RuntimeError(f"login answered {status}: {body[:200]!r}")
        return token

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
