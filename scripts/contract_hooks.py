"""Schemathesis hooks for the store's contract test (scripts/contract-test.sh).

A member takes part: scripts/contract_setup.py registered them through the emailed link (as a
shopper would) before the run and wrote their email and password to $FUZZ_DATA/member.json, and
every generated request carries their session as `Authorization: Bearer`, so the member calls
(profile, addresses, checkout, orders, Go-to Cases) are reached, not answered 401. When a
generated request ends that session (logout, a password change), the next 401 makes schemathesis
ask for a session again and send the request once more.

Should the member not survive the fuzzer (a changed password, a deleted account, a lockout),
logging in fails and a fresh member (a new email) is registered and used from then on;
$FUZZ_DATA/member.json is rewritten to name them. Password changes and deletions are sent as a
spare member instead, replaced after each success (see `Spare`).

Besides sessions: fixtures that keep the member within the store's limits and the cart workable
(`before_call`), and the real values the examples, coverage and stateful phases cannot draw from
a dictionary (`_serve_real_values`). None of them changes what is checked.
"""

import json
import os
import pathlib
import threading

import schemathesis

import contract_setup as setup

MEMBER_FILE = pathlib.Path(os.environ["FUZZ_DATA"]) / "member.json"


class _Member:
    """A member whose session the requests carry; shared by every worker thread."""

    def __init__(self, email, password, kind="member", saved_to=None):
        self.lock = threading.Lock()
        self.email = email
        self.password = password
        self.kind = kind
        self.saved_to = saved_to
        self.replaced = 0
        self.token = None
        self.retired = False

    def retire(self):
        """The next session is a new member's (this one is locked out of what is tried)."""
        self.retired = True

    def current(self):
        """The session in use, or a fresh one (a new member's after `retire`)."""
        with self.lock:
            if self.token and not self.retired:
                return self.token
        return self.session()

    def session(self):
        """A fresh session token of the member, or of a new member when they cannot log in."""
        with self.lock:
            token = None if self.retired else setup.login(self.email, self.password)
            self.retired = False
            if not token:
                # Their password changed, their account is gone or locked: a new member steps in.
                self.email = setup.fresh_address(self.kind)
                setup.register_member(self.email, self.password)
                self.replaced += 1
                if self.saved_to:
                    self.saved_to.write_text(json.dumps({"email": self.email, "password": self.password}))
                token = setup.login(self.email, self.password)
                if not token:
                    raise RuntimeError(f"the new {self.kind} {self.email} cannot log in")
            self.token = token
            return token


_saved = json.loads(MEMBER_FILE.read_text())
MEMBER = _Member(_saved["email"], _saved["password"], saved_to=MEMBER_FILE)
# The calls that need the current password (a password change, deleting the account) are sent as
# a spare member, whose password their dictionary offers: when one succeeds, the spare is replaced
# and the member whose addresses, Go-to Cases and orders the dictionaries hold stays.
SPARE = _Member(setup.fresh_address("spare"), setup.SPARE_PASSWORD, kind="spare")
setup.register_member(SPARE.email, SPARE.password)
SPARE_CALLS = ["POST /api/v1/user/change-password", "DELETE /api/v1/user"]


def _bearer(case, token):
    case.headers = case.headers or {}
    case.headers["Authorization"] = f"Bearer {token}"


@schemathesis.auth(refresh_interval=3600, retry_on=[401]).skip_for(name=SPARE_CALLS)
class Member:
    """The member's session token, fetched by logging in; fetched again after a 401."""

    def get(self, case, context):
        return MEMBER.session()

    def set(self, case, data, context):
        _bearer(case, data)


# Asked before every call (no caching): after a successful change or deletion, a lockout or an
# ended session (see after_call) the next call is a new spare's, whose password is the one offered.
@schemathesis.auth(refresh_interval=None).apply_to(name=SPARE_CALLS)
class Spare:
    def get(self, case, context):
        return SPARE.current()

    def set(self, case, data, context):
        _bearer(case, data)


# The store keeps at most 10 addresses and 50 Go-to Cases a member; the fuzzer makes many. Before
# each create, what it made beyond a few is deleted (never what the dictionaries name), so every
# phase can still create: a fixture keeping the member within the store's limits, as a shopper
# would tidy up, not a change to what is checked.
KEEP = {"addresses": 7, "goto-cases": 40}
_ROOM = {
    "POST /api/v1/user/addresses": ("addresses", "/api/v1/user/addresses/list", "/api/v1/user/addresses/{}"),
    "POST /api/v1/user/goto-case": ("goto-cases", "/api/v1/user/goto-case", "/api/v1/user/goto-case/{}"),
}


def _named(kind):
    folder = MEMBER_FILE.parent
    names = set()
    for f in (folder / f"{kind}.dict", folder / f"{kind}-to-delete.dict"):
        if f.exists():
            names |= {int(json.loads(line)) for line in f.read_text().split("\n") if line.strip()}
    return names


# The calls that work on the member's cart need something in it: the fuzzer's own calls empty
# it (removals, orders, a kept cart) or fill it to the store's limit of 999 a product. Before each,
# the cart is put back to one case of Tala Pale Pilsen 320 ml for Makati (what contract_setup.py
# left there), and the Go-to Cases the dictionaries name get that product back if they were
# emptied. Like the limits above: the member's state kept where the calls can do their work.
_CART_CALLS = {
    "POST /api/v1/user/goto-case",
    "POST /api/v1/user/checkout/verify",
    "POST /api/v3/return-empty",
    "POST /api/v1/orders/{orderId}/again",
    "POST /api/v1/user/goto-case/cart/{caseId}/barangay/{barangayId}",
}


# The calls that work on the Go-to Cases the dictionaries name: those emptied by the fuzzer get
# their product back first.
_CASE_CALLS = {
    "POST /api/v1/user/goto-case/cart/{caseId}/barangay/{barangayId}",
    "PUT /api/v1/user/goto-case",
    "DELETE /api/v1/user/goto-case/items",
}


def _tidy_cart(token):
    status, _, cart = setup.request("GET", f"/api/v1/cart/{setup.MAKATI}", token=token)
    if status != 200 or not isinstance(cart, dict):
        return
    held = {
        item.get("id"): item.get("quantity", 0)
        for case in cart.get("shopping_cart") or []
        for item in case.get("items") or []
    }
    if held.get(setup.PILSEN) == 24 and len(held) == 1:
        return
    for product in held:
        if product != setup.PILSEN:
            setup.request("DELETE", "/api/v1/cart", {"product_id": [product]}, token=token)
    if setup.PILSEN in held:
        setup.request(
            "PUT", "/api/v1/cart", {"product_id": setup.PILSEN, "quantity": 24, "barangay": setup.MAKATI}, token=token
        )
    else:
        setup.request(
            "POST",
            "/api/v1/cart",
            {"product_id": setup.PILSEN, "quantity": 24, "barangay": setup.MAKATI, "street_id": setup.JUPITER_STREET},
            token=token,
        )


def _tidy_cases(token):
    for case_id in _named("goto-cases"):
        status, _, case = setup.request("GET", f"/api/v1/user/goto-case/{case_id}", token=token)
        body = case.get("data") if isinstance(case, dict) and isinstance(case.get("data"), dict) else case
        if status == 200 and isinstance(body, dict) and not body.get("items"):
            setup.request("POST", "/api/v1/user/goto-case", {"cart_items": [setup.PILSEN], "case_id": case_id}, token=token)


# The examples and coverage phases draw their well-formed values from the document (its
# examples and bounds), never from the dictionaries, so a call that needs a secret or the state
# of the member's things (a password, a placed cart's revision, a mailed token, the deposit in the
# cart) would never be served there. Their well-formed cases are given the real values, as the
# dictionaries do for the fuzzing phase; what is sent stays well formed.
def _dict(name):
    f = MEMBER_FILE.parent / f"{name}.dict"
    return [json.loads(line) for line in f.read_text().split("\n") if line.strip()] if f.exists() else []


def _real_values(label, turn):
    if label == "POST /api/v1/login":
        return {"body": {"login": MEMBER.email, "password": MEMBER.password}}
    if label == "POST /api/v1/user/change-password":
        # And a new password the store's rule takes.
        return {"body": {"current_password": SPARE.password, "password": "Tala Keg Night 2026!"}}
    if label in SPARE_CALLS:
        return {"body": {"current_password": SPARE.password}}
    if label == "POST /api/v1/orders":
        revisions = _dict("order-revisions")
        return {"body": {"revision": int(revisions[0])}} if revisions else None
    if label == "POST /api/v1/registration":
        # The last five tokens (the fuzzing phase draws from all of them).
        tokens = _dict("registration-tokens-to-use")[-5:]
        if not tokens:
            return None
        return {
            "headers": {"registration-token": tokens[turn % len(tokens)]},
            "drop_headers": ["fb-token", "google-token"],
            "body": {"password": "Amihan-Wheat-Summer-77"},
        }
    if label == "POST /api/v1/user/checkout/verify":
        return {
            "body": {"barangay": setup.MAKATI, "street_id": setup.JUPITER_STREET},
            # No revision (else the cart's, which the fuzzer changes) and the server's hours
            # (the store runs at a Tuesday afternoon, STORE_TESTDATE).
            "drop_body": ["revision", "testdate"],
        }
    if label in ("POST /api/v1/user/addresses", "PUT /api/v1/user/addresses/{addressId}"):
        return {"body": {"barangay_id": setup.MAKATI, "street_id": setup.JUPITER_STREET}}
    if label in ("PUT /api/v1/user/goto-case", "DELETE /api/v1/user/goto-case/items"):
        cases = _dict("goto-cases")
        return {"body": {"case_id": int(cases[turn % len(cases)])}} if cases else None
    if label in _REFILL_CALLS:
        # A refill names the cart revision it was made against, one the cart has had.
        revision = _cart_revision()
        return {"body": {"revision": revision}} if revision is not None else None
    if label == "POST /api/v3/return-empty":
        # The case of bottles in the member's cart (see _tidy_cart) carries deposit 1.
        return {"body": {"deposit_id": 1, "cases": 1, "barangay": setup.MAKATI}}
    return None


_turn = [0]

# The refills name the cart revision they were made against (one refill per click); a
# revision the cart has not reached is made up and refused (422), so a drawn integer is mostly
# refused: every other well-formed case of the fuzzing phase gets the member's cart's revision.
_REFILL_CALLS = {
    "POST /api/v1/orders/{orderId}/again",
    "POST /api/v1/user/goto-case/cart/{caseId}/barangay/{barangayId}",
}


def _cart_revision():
    if not MEMBER.token:
        return None
    status, _, cart = setup.request("GET", f"/api/v1/cart/{setup.MAKATI}", token=MEMBER.token)
    if status != 200 or not isinstance(cart, dict):
        return None
    return cart.get("revision")


def _serve_real_values(case, label):
    meta = getattr(case, "meta", None)
    if meta is None or not meta.generation.mode.is_positive:
        return
    phase = str(getattr(meta.phase.name, "value", meta.phase.name))
    if phase == "stateful":
        # The stateful phase draws from the document too; every other well-formed case of these
        # calls gets the real values.
        _turn[0] += 1
        if _turn[0] % 2:
            return
    elif phase not in ("examples", "coverage"):
        # The store under test has no social provider configured, so a registration carrying
        # `fb-token` or `google-token` is always refused (crates/server/tests/social.rs tests
        # those with a stand-in provider): every other well-formed one goes without them, with
        # a password the store's rule takes, and the token its dictionary drew.
        if label in _REFILL_CALLS and isinstance(case.body, dict):
            _turn[0] += 1
            revision = _cart_revision() if _turn[0] % 2 == 0 else None
            if revision is not None:
                case.body = {**case.body, "revision": revision}
        if label == "POST /api/v1/registration":
            _turn[0] += 1
            if _turn[0] % 2 == 0:
                for name in ("fb-token", "google-token"):
                    (case.headers or {}).pop(name, None)
                if isinstance(case.body, dict):
                    case.body = {**case.body, "password": "Amihan-Wheat-Summer-77"}
        return
    real = _real_values(label, _turn[0])
    if not real:
        return
    _turn[0] += 1
    if isinstance(case.body, dict):
        body = {k: v for k, v in case.body.items() if k not in real.get("drop_body", [])}
        case.body = {**body, **real.get("body", {})}
    if "headers" in real:
        case.headers = {**(case.headers or {}), **real["headers"]}
    for name in real.get("drop_headers", []):
        (case.headers or {}).pop(name, None)


# The spare is replaced after a call that changed its password or deleted it (200), ended its
# session (401), or met the lockout of five wrong current passwords in 10 minutes (429), so the
# calls are tried on their merits again.
@schemathesis.hook
def after_call(context, case, response):
    label = f"{case.method.upper()} {case.operation.path}"
    if label in SPARE_CALLS and response.status_code in (200, 401, 429):
        SPARE.retire()


@schemathesis.hook
def before_call(context, case, **kwargs):
    label = f"{case.method.upper()} {case.operation.path}"
    _serve_real_values(case, label)
    if label in _CART_CALLS and MEMBER.token:
        _tidy_cart(MEMBER.token)
    if label in _CASE_CALLS and MEMBER.token:
        if label not in _CART_CALLS:
            _tidy_cart(MEMBER.token)  # a case is refilled from the cart
        _tidy_cases(MEMBER.token)
    room = _ROOM.get(label)
    if not room or not MEMBER.token:
        return
    kind, listing, one = room
    status, _, body = setup.request("GET", listing, token=MEMBER.token)
    if status != 200 or not isinstance(body, dict):
        return
    rows = body.get("data") if isinstance(body.get("data"), list) else body.get("results") or []
    ids = [r["id"] for r in rows if isinstance(r, dict) and "id" in r]
    spare = [i for i in ids if i not in _named(kind)]
    for i in spare[: max(0, len(ids) - KEEP[kind])]:
        setup.request("DELETE", one.format(i), token=MEMBER.token)
