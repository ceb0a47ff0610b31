"""Schemathesis hooks for the store's contract test (scripts/contract-test.sh).

A member takes part: scripts/contract_setup.py registered them through the emailed link (as a
shopper would) before the run and wrote their email and password to $FUZZ_DATA/member.json, and
every generated request carries their session as `Authorization: Bearer`, so the member calls
(profile, addresses, checkout, orders, Go-to Cases) are reached, not answered 401. When a
generated request ends that session (logout, a password change), the next 401 makes schemathesis
ask for a session again and send the request once more.

The member may not survive the fuzzer: a generated request may change their password or delete
their account (when a dictionary or an earlier answer offers the current password), or lock the
account with failed logins. Then logging in fails, and a fresh member (a new email) is registered
and used from then on; $FUZZ_DATA/member.json is rewritten to name them.
"""

import json
import os
import pathlib
import threading

import schemathesis

import contract_setup as setup

MEMBER_FILE = pathlib.Path(os.environ["FUZZ_DATA"]) / "member.json"


class _Member:
    """The member whose session the requests carry; shared by every worker thread."""

    def __init__(self):
        self.lock = threading.Lock()
        saved = json.loads(MEMBER_FILE.read_text())
        self.email = saved["email"]
        self.password = saved["password"]
        self.replaced = 0

    def session(self):
        """A fresh session token of the member, or of a new member when they cannot log in."""
        with self.lock:
            token = setup.login(self.email, self.password)
            if token:
                return token
            # Their password changed, their account is gone or locked: a new member steps in.
            self.email = setup.fresh_address("member")
            self.password = setup.PASSWORD
            setup.register_member(self.email, self.password)
            self.replaced += 1
            MEMBER_FILE.write_text(json.dumps({"email": self.email, "password": self.password}))
            token = setup.login(self.email, self.password)
            if not token:
                raise RuntimeError(f"the new member {self.email} cannot log in")
            return token


MEMBER = _Member()


@schemathesis.auth(refresh_interval=3600, retry_on=[401])
class Member:
    """The member's session token, fetched by logging in; fetched again after a 401."""

    def get(self, case, context):
        return MEMBER.session()

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
