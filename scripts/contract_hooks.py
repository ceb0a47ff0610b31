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
spare member instead, replaced after each success; the data download and profile changes too,
replaced after a lockout, the profile's hourly limit or an ended session (see `Spare`).

Staff take part too (`/api/v1/staff/...`): their session rides only in the `staff_session`
cookie. scripts/contract_setup.py signed in the manager and the dispatcher contract-test.sh added
(password, then a code of the second factor they set up, computed as an authenticator app would:
RFC 6238) and wrote them to $FUZZ_DATA/staff.json. The staff calls carry the manager's whole
session (so the managers' calls answer 200), signed in again after a 401; the calls that spend a
member's tries at the second factor (five wrong codes in ten minutes, then 429) or end the session
they bring (signing out, signing in) carry the dispatcher's instead, and a locked-out dispatcher
is replaced by a spare (see `_Seat`). A rider's calls go alternately with the manager's session
and a rider's (`RIDER_CALLS`). The enrollment (GET /api/v1/staff/second-factor) is asked
alternately by the manager and by a member of staff who has not set up the second factor, so both
of its answers are seen. Choosing a password (POST /api/v1/staff/password) needs no session: its
credential is the mailed link's token.

Besides sessions: fixtures that keep the member within the store's limits and the cart workable
(`before_call`), and the real values the examples, coverage and stateful phases cannot draw from
a dictionary (`_serve_real_values`, `_serve_staff_code`). None of them changes what is checked.
"""

import hashlib
import hmac
import itertools
import json
import re
import os
import pathlib
import threading
import time

import schemathesis
from schemathesis.core.parameters import ParameterLocation
from schemathesis.transport.serialization import Binary

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
# Downloading one's data (POST /api/v1/user/my-data) takes the current password too, and five wrong
# ones in ten minutes lock the member out of every call that asks it: the spare takes it as well,
# replaced only after a lockout or an ended session (a download changes nothing).
MY_DATA = "POST /api/v1/user/my-data"
# A member changes their profile at most 10 times an hour (then 429): the spare takes those changes
# too, replaced after the limit or an ended session, so most of them are tried on their merits.
PROFILE = "PUT /api/v1/user"
SPARE_CALLS = ["POST /api/v1/user/change-password", "DELETE /api/v1/user", MY_DATA, PROFILE]


def _bearer(case, token):
    case.headers = case.headers or {}
    case.headers["Authorization"] = f"Bearer {token}"


# The staff's calls, which no shopper's session opens (a shopper's bearer is not sent to them).
STAFF_PATHS = r"^/api/v1/staff/"


@schemathesis.auth(refresh_interval=3600, retry_on=[401]).skip_for(name=SPARE_CALLS).skip_for(path_regex=STAFF_PATHS)
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


STAFF_FILE = MEMBER_FILE.parent / "staff.json"
# Sent with the dispatcher's session: a wrong code counts against the member whose session it is
# (five in ten minutes, then 429 for the rest of them), signing out ends the session, and
# signing in ends the session the request brought.
DISPATCHER_CALLS = [
    "POST /api/v1/staff/second-factor",
    "POST /api/v1/staff/logout",
    "POST /api/v1/staff/login",
]
# Sent with no session: the mailed link's token is what it takes.
LINK_CALLS = ["POST /api/v1/staff/password"]
# Sent alternately with the manager's session (the second factor is set up) and the enrollee's
# (a session begun with the password of a member who has not: the secret, QR code and recovery
# codes to set it up).
ENROLLMENT_CALL = "GET /api/v1/staff/second-factor"
# A rider's calls (their runs, a run, a stop ended), sent alternately with the manager's session
# and the rider's whose runs scripts/contract_setup.py planned: each role's answers are seen.
RIDER_CALLS = [
    "GET /api/v1/staff/runs",
    "GET /api/v1/staff/runs/{runId}",
    "POST /api/v1/staff/runs/{runId}/stops/{orderId}",
]


class _Seat:
    """A part a member of staff plays in the run (the manager, the dispatcher, the enrollee): the
    member's session, whole (the password and a code of the second factor) or begun with the
    password only; signed in again when it ended (a 401, a sign-out, a sign-in that brought it);
    and when the member cannot sign in anymore (locked out of the second factor, `retire`),
    another member of the role steps in: a spare contract_setup.py made, else one added now
    (`store staff add`, the mailed link, the second factor set up). Shared by every worker."""

    def __init__(self, name, member, whole, spares=None):
        self.lock = threading.RLock()
        self.name = name
        self.member = member
        self.whole = whole
        self.spares = spares if spares is not None else []
        self.stale = False
        self.retired = False
        self.replaced = 0
        # Wrong codes given on this member's session since the store last took one.
        self.wrong = 0

    def current(self):
        """The session in use, or a new one (another member's after `retire`)."""
        with self.lock:
            if self.member.session and not (self.stale or self.retired):
                return self.member.session
            if self.retired:
                self._replace()
            elif self.stale and self._holds(self.member.session):
                # A 401 of a request that did not bring this session, or a session not ended.
                self.stale = False
                return self.member.session
            token = self.member.sign_in(whole=self.whole)
            if not token:
                # Locked out of the second factor, or of signing in: another member steps in.
                self._replace()
                token = self.member.sign_in(whole=self.whole)
                if not token:
                    raise RuntimeError(f"the new {self.name} {self.member.email} cannot sign in")
            self.stale = False
            _save_staff()
            return token

    def _holds(self, token):
        # Answered for any session of the member, whole or begun with the password.
        return bool(token) and setup.staff_request("GET", "/api/v1/staff/second-factor", session=token)[0] == 200

    def _replace(self):
        if not self.spares:
            # The enrollee's stand-in does not set up the second factor either.
            self.spares.extend(setup.new_staff(self.member.role, 2, second_factor=bool(self.member.secret)))
        self.member = self.spares.pop(0)
        self.member.session = None
        self.replaced += 1
        self.retired = self.stale = False
        self.wrong = 0

    def owns(self, token):
        return bool(token) and token == self.member.session

    def ended(self, token, surely=False):
        """The session `token` was answered 401 (`surely`: it was ended): a new one next time."""
        with self.lock:
            if self.owns(token):
                if surely:
                    self.member.session = None
                self.stale = True

    def retire(self, token):
        """The member of `token` is locked out: another member next time."""
        with self.lock:
            if self.owns(token):
                self.retired = True

    def code(self):
        """(session, code) the store takes on it now: a fresh code of the member's app, else a
        recovery code, else those of another member."""
        with self.lock:
            for _ in range(2):
                token = self.current()
                code = self.member.fresh_code() or self.member.recovery_code()
                if code:
                    _save_staff()
                    return token, code
                self.retired = True
            return self.current(), None


_staff = json.loads(STAFF_FILE.read_text())
_member = setup.Staff.from_json
MANAGER = _Seat("manager", _member(_staff["manager"]), whole=True)
DISPATCHER = _Seat(
    "dispatcher", _member(_staff["dispatcher"]), whole=False, spares=[_member(m) for m in _staff.get("spares", [])]
)
ENROLLEE = _Seat("enrollee", _member(_staff["enrollee"]), whole=False)
RIDER = _Seat("rider", _member(_staff["rider"]), whole=True)
SEATS = (MANAGER, DISPATCHER, ENROLLEE, RIDER)
_staff_lock = threading.Lock()


def _save_staff():
    """staff.json names the members of staff in use (as member.json the member)."""
    with _staff_lock:
        data = {seat.name: seat.member.as_json() for seat in SEATS}
        data["spares"] = [m.as_json() for m in DISPATCHER.spares]
        STAFF_FILE.write_text(json.dumps(data, indent=1))


def _staff_cookie(case, token):
    case.cookies = {**(case.cookies or {}), setup.STAFF_COOKIE: token}


def _staff_session_of(case):
    return (case.cookies or {}).get(setup.STAFF_COOKIE)


# Asked before every call (no caching), as the seats keep the sessions and know when one ended.
@schemathesis.auth(refresh_interval=None).apply_to(path_regex=STAFF_PATHS).skip_for(
    name=DISPATCHER_CALLS + LINK_CALLS + [ENROLLMENT_CALL] + RIDER_CALLS
)
class Manager:
    """The manager's whole session, for the staff's calls: the managers' ones answer 200."""

    def get(self, case, context):
        return MANAGER.current()

    def set(self, case, data, context):
        _staff_cookie(case, data)


@schemathesis.auth(refresh_interval=None).apply_to(name=DISPATCHER_CALLS)
class Dispatcher:
    """The dispatcher's session (begun with the password), for what spends or ends it."""

    def get(self, case, context):
        return DISPATCHER.current()

    def set(self, case, data, context):
        _staff_cookie(case, data)


_enrollment_turn = itertools.count()
_rider_turn = itertools.count()


@schemathesis.auth(refresh_interval=None).apply_to(name=RIDER_CALLS)
class RiderOrManager:
    """The rider's session and the manager's, in turn."""

    def get(self, case, context):
        return (RIDER if next(_rider_turn) % 2 else MANAGER).current()

    def set(self, case, data, context):
        _staff_cookie(case, data)


@schemathesis.auth(refresh_interval=None).apply_to(name=[ENROLLMENT_CALL])
class Enrollment:
    """The manager's session and the enrollee's, in turn."""

    def get(self, case, context):
        return (ENROLLEE if next(_enrollment_turn) % 2 else MANAGER).current()

    def set(self, case, data, context):
        _staff_cookie(case, data)


# POST /api/v1/staff/second-factor: a made-up code is refused (422), so a well-formed request
# would never be taken, and five wrong ones in ten minutes lock the member out (429). A code the
# store takes (the app's code now, or a recovery code) goes into a well-formed case while none
# was taken yet in the phase, and again before the dispatcher's wrong codes reach the limit; a
# dispatcher locked out all the same is replaced (after_call).
_SECOND_FACTOR = "POST /api/v1/staff/second-factor"
_code_taken = set()  # the phases in which the store took a code


def _phase(case):
    meta = getattr(case, "meta", None)
    return str(getattr(meta.phase.name, "value", meta.phase.name)) if meta is not None else ""


def _serve_staff_code(case, label):
    meta = getattr(case, "meta", None)
    if label != _SECOND_FACTOR or meta is None or not meta.generation.mode.is_positive:
        return
    if not isinstance(case.body, dict) or not DISPATCHER.owns(_staff_session_of(case)):
        return
    if _phase(case) in _code_taken and DISPATCHER.wrong < 3:
        return
    token, code = DISPATCHER.code()
    if code:
        _staff_cookie(case, token)
        case.body = {**case.body, "code": code}


def _new_staff_session(response):
    """The staff session a response's Set-Cookie begins, or None."""
    headers = getattr(response, "headers", None) or {}
    for name, values in headers.items():
        if name.lower() != "set-cookie":
            continue
        for line in values if isinstance(values, (list, tuple)) else [values]:
            m = re.match(rf"\s*{re.escape(setup.STAFF_COOKIE)}=([^;]+)", str(line))
            if m:
                return m.group(1)
    return None


def _after_staff_call(case, label, status, response=None):
    token = _staff_session_of(case)
    if status == 401:
        for seat in SEATS:
            seat.ended(token)
    if label in ("POST /api/v1/staff/logout", "POST /api/v1/staff/login") and status == 200:
        # Signing out ends the session; signing in ends the one the request brought.
        DISPATCHER.ended(token, surely=True)
    if label == _SECOND_FACTOR and DISPATCHER.owns(token):
        if status == 200:
            DISPATCHER.wrong = 0
            _code_taken.add(_phase(case))
            # Both factors make a new session (the password's one ended): the dispatcher's now.
            fresh = _new_staff_session(response)
            if fresh:
                with DISPATCHER.lock:
                    if DISPATCHER.owns(token):
                        DISPATCHER.member.session = fresh
                _save_staff()
            else:
                DISPATCHER.ended(token, surely=True)
        elif status == 422:
            DISPATCHER.wrong += 1
        elif status == 429:
            DISPATCHER.retire(token)


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
    if label == "POST /api/v1/staff/login":
        return {"body": {"email": DISPATCHER.member.email, "password": DISPATCHER.member.password}}
    if label == "POST /api/v1/staff/password":
        # The last five links (the fuzzing phase draws from all of them), and a password the
        # store's rule takes.
        tokens = _dict("staff-link-tokens")[-5:]
        return {"body": {"token": tokens[turn % len(tokens)], "password": "Amihan-Wheat-Summer-77"}} if tokens else None
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
    if label in (
        "GET /api/v1/staff/catalog/products/{productId}",
        "POST /api/v1/staff/catalog/products/{productId}",
    ):
        # The catalog's forms change the products no shopper's call buys (catalog-products in
        # scripts/schemathesis.toml), so the cart, checkout and Go-to Case calls keep finding
        # what they buy, at its price, where they buy it.
        return {"path": {"productId": CATALOG_PRODUCTS[turn % len(CATALOG_PRODUCTS)]}}
    if label == "POST /api/v1/staff/catalog/cities":
        return {"body": {"products": CATALOG_PRODUCTS[: 1 + turn % len(CATALOG_PRODUCTS)], "cities": [setup.MAKATI_CITY]}}
    if label == "GET /api/v1/staff/catalog/cities":
        return {"query": {"products": "23,24", "cities": str(setup.MAKATI_CITY)}}
    if label in ("GET /api/v1/staff/guest-data", "POST /api/v1/staff/guest-data/erase"):
        # The guest contract_setup.py made to be erased: by email and by mobile in turn.
        contacts = _dict("guest-contacts")
        if not contacts:
            return None
        contact = contacts[turn % len(contacts)]
        return {"query": {"contact": contact}} if label.startswith("GET") else {"body": {"contact": contact}}
    if label == "POST /api/v1/staff/payments/{paymentId}/refund":
        # A payment owed back (contract_setup.py setup_refunds), refunded once.
        payments = _dict("payments-to-refund")
        return {"path": {"paymentId": payments[turn % len(payments)]}, "body": {"reason": "requested_by_customer"}} if payments else None
    if label == "POST /api/v3/return-empty":
        # The case of bottles in the member's cart (see _tidy_cart) carries deposit 1.
        return {"body": {"deposit_id": 1, "cases": 1, "barangay": setup.MAKATI}}
    if label in _PHOTO_CALLS and "{sku}" in label:
        # The products the photo calls are given (skus.dict, contract_setup.py setup_photos).
        skus = _dict("skus")
        return {"path": {"sku": skus[turn % len(skus)]}} if skus else None
    return None


_turn = [0]

# The products the catalog's forms are given (scripts/schemathesis.toml's catalog-products), and
# the deposits and fees' cities (its catalog-deposits and fee-cities).
CATALOG_PRODUCTS = [23, 24, 25, 26]
CATALOG_DEPOSITS = [3, 6, 7]
FEE_CITIES = [301410000, 301411000]

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
        if label == "POST /api/v3/return-empty" and isinstance(case.body, dict):
            # The member's cart holds one case of bottles (deposit 1, see _tidy_cart): a drawn
            # deposit or count of cases is mostly one it does not hold (422, rightly), so every
            # other well-formed case returns what the cart holds.
            _turn[0] += 1
            if _turn[0] % 2 == 0:
                held = {"deposit_id": 1, "cases": _turn[0] % 4 // 2, "barangay": setup.MAKATI, "fulfillment": 1}
                case.body = {**case.body, **{k: v for k, v in held.items() if k in case.body or k in ("deposit_id", "cases")}}
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
    if "path" in real:
        case.path_parameters = {**(case.path_parameters or {}), **real["path"]}
    if "query" in real:
        case.query = {**(case.query or {}), **real["query"]}
    for name in real.get("drop_headers", []):
        (case.headers or {}).pop(name, None)


# The spare is replaced after a call that changed its password or deleted it (200), ended its
# session (401), or met the lockout of five wrong current passwords in 10 minutes (429), so the
# calls are tried on their merits again.
@schemathesis.hook
def after_call(context, case, response):
    label = f"{case.method.upper()} {case.operation.path}"
    if label in SPARE_CALLS and response.status_code in ((401, 429) if label in (MY_DATA, PROFILE) else (200, 401, 429)):
        SPARE.retire()
    if case.operation.path.startswith("/api/v1/staff/"):
        _after_staff_call(case, label, response.status_code, response)


def _positive_id(value):
    # Within every id's bounds (a 32-bit one's too), so a case drawn past them keeps its id. A
    # path's value may come as its text (the coverage phase sends "1"): the same id in a path.
    if isinstance(value, str) and value.isascii() and value.isdigit() and not value.startswith("0"):
        value = int(value)
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 2**31 - 1


def _pin_catalog(case, label):
    """The catalog's writes change only the products, deposits and fees no shopper's call buys
    or pays (CATALOG_PRODUCTS, CATALOG_DEPOSITS, FEE_CITIES), in every phase and mode: a
    malformed case whose id is itself well formed (its body is what is wrong) is sent to one of
    those, so that if the store wrongly took it (a check's finding) the cart, checkout and Go-to
    Case calls still find what they buy, at its price. A malformed id is left as drawn: that is
    what such a case tests."""
    _pins[0] += 1
    pick = CATALOG_PRODUCTS[_pins[0] % len(CATALOG_PRODUCTS)]
    if label == "POST /api/v1/staff/catalog/products/{productId}":
        params = case.path_parameters or {}
        if _positive_id(params.get("productId")):
            case.path_parameters = {**params, "productId": pick}
            _serve_version(case, f"/api/v1/staff/catalog/products/{pick}")
    elif label == "POST /api/v1/staff/catalog/banners/{bannerId}":
        banner = (case.path_parameters or {}).get("bannerId")
        if _positive_id(banner):
            _serve_version(case, "/api/v1/staff/catalog/banners", ("results", {"id": banner}))
    elif label == "POST /api/v1/staff/catalog/promos/{promoId}":
        promo = (case.path_parameters or {}).get("promoId")
        if _positive_id(promo):
            _serve_version(case, "/api/v1/staff/catalog/promos", ("results", {"id": promo}))
    elif label == "POST /api/v1/staff/catalog/deposits/{depositId}":
        params = case.path_parameters or {}
        if _positive_id(params.get("depositId")):
            deposit = CATALOG_DEPOSITS[_pins[0] % len(CATALOG_DEPOSITS)]
            case.path_parameters = {**params, "depositId": deposit}
            _serve_version(case, "/api/v1/staff/catalog/charges", ("deposits", {"id": deposit}))
    elif label == "POST /api/v1/staff/catalog/fees/{cityId}/{fulfillmentId}":
        params = case.path_parameters or {}
        if _positive_id(params.get("cityId")):
            city = FEE_CITIES[_pins[0] % len(FEE_CITIES)]
            case.path_parameters = {**params, "cityId": city}
            if _positive_id(params.get("fulfillmentId")):
                mine = {"city_id": city, "fulfillment_id": int(params["fulfillmentId"])}
                _serve_version(case, "/api/v1/staff/catalog/charges", ("fees", mine))
    elif label in _CALENDAR_CALLS and isinstance(case.body, dict):
        _pin_calendar(case, label)
    elif label == "POST /api/v1/staff/maintenance" and isinstance(case.body, dict):
        # Closing the store would answer every other call 503 for the rest of the run: the
        # switch is sent off only (crates/server/tests/staff_pages.rs closes and opens it).
        if isinstance(case.body.get("on"), bool):
            case.body = {**case.body, "on": False}
    elif label == "POST /api/v1/staff/catalog/cities" and isinstance(case.body, dict):
        products = case.body.get("products")
        if isinstance(products, list) and products and all(_positive_id(p) for p in products) and len(products) <= 500:
            case.body = {**case.body, "products": CATALOG_PRODUCTS[: 1 + _pins[0] % len(CATALOG_PRODUCTS)]}


_pins = [0]

# The holidays' and notices' calls, by the list their record is in.
_CALENDAR_CALLS = {
    "POST /api/v1/staff/catalog/holidays": "holidays",
    "POST /api/v1/staff/catalog/holidays/remove": "holidays",
    "POST /api/v1/staff/catalog/notices": "notices",
    "POST /api/v1/staff/catalog/notices/remove": "notices",
}


def _pin_calendar(case, label):
    """A well-formed save gets its days in order, and a well-formed case naming a record gets the
    record's version now (see _serve_version)."""
    body = case.body
    # A well-formed case's days in order (drawn apart, half of them would be refused for it).
    meta = getattr(case, "meta", None)
    starts, ends = body.get("starts_on"), body.get("ends_on")
    if meta is not None and meta.generation.mode.is_positive and isinstance(starts, str) and isinstance(ends, str) and ends < starts:
        body = {**body, "starts_on": ends, "ends_on": starts}
    case.body = body
    if _positive_id(body.get("id")):
        _serve_version(case, "/api/v1/staff/catalog/calendar", (_CALENDAR_CALLS[label], {"id": int(body["id"])}))


def _serve_version(case, path, row=None):
    """A form's `version` (the record's as it was opened) drawn from the document is never the
    record's, so a well-formed save would always be refused as stale (409): three of four such
    cases get the record's version now, the fourth keeps the drawn one (and meets the refusal).
    A malformed case keeps what it drew."""
    meta = getattr(case, "meta", None)
    if meta is None or not meta.generation.mode.is_positive or not isinstance(case.body, dict):
        return
    if "version" not in case.body or _pins[0] % 4 == 0:
        return
    status, _, answer = setup.staff_request("GET", path, session=MANAGER.current())
    if status != 200 or not isinstance(answer, dict):
        return
    if row is not None:
        # The record in a list of the answer (`row`: the list's name, and what the record holds).
        listed, mine = row
        rows = answer.get(listed) if isinstance(answer.get(listed), list) else []
        answer = next((r for r in rows if all(r.get(k) == v for k, v in mine.items())), None) or {}
    if isinstance(answer.get("version"), str):
        case.body = {**case.body, "version": answer["version"]}


# The photo calls (PUT gives a photo, DELETE takes it away). A photo's bytes are read for what
# they are (a JPEG, PNG or WebP image, else 415), which no schema can state and the fuzzer's
# binary never is: every well-formed PUT, in every phase, carries a small PNG the store takes
# (contract_setup.photo_png), so its success and its answer's schema are checked; a malformed
# case keeps what it drew (its body is what such a case tests).
_PHOTO_CALLS = {
    "PUT /api/v1/staff/catalog/products/{sku}/photo",
    "DELETE /api/v1/staff/catalog/products/{sku}/photo",
    "PUT /api/v1/staff/catalog/banners/{bannerId}/photo",
    "DELETE /api/v1/staff/catalog/banners/{bannerId}/photo",
}
_PHOTO = setup.photo_png()


def _serve_photo(case, label):
    meta = getattr(case, "meta", None)
    if label not in _PHOTO_CALLS or not label.startswith("PUT ") or meta is None:
        return
    if not isinstance(case.body, dict):
        return
    if meta.generation.mode.is_positive:
        case.body["photo"] = Binary(_PHOTO)
        # Schemathesis 4.32.5 checks again a body a hook changed, and reads any that holds a
        # file's bytes as malformed (`contains_binary`): the well-formed case would be judged a
        # malformed one. The photo is what the case was generated to be (a file), so the body as
        # it is now is taken as generated (its hash recorded, as for what auth writes).
        hashed = getattr(case, "_hash_container", None)
        if hashed is not None and hasattr(case._meta, "update_validated_hash"):
            case._meta.update_validated_hash(ParameterLocation.BODY, hashed(case.body))
        return
    # A malformed case whose only fault was its path, which a dictionary (skus, banners) then
    # replaced with a real one, is well formed again: it keeps a fault of its own, its photo
    # left out (a 422), rather than being sent as the well-formed case it became.
    params = case.path_parameters or {}
    sku, banner = params.get("sku"), params.get("bannerId")
    real_path = (isinstance(sku, str) and 1 <= len(sku) <= 100) or _positive_id(banner)
    if real_path and set(case.body) == {"photo"} and isinstance(case.body["photo"], Binary):
        case.body.pop("photo")


WEBHOOK = "POST /api/v1/payments/paymongo/events"
_webhook_turns = itertools.count()


def _sign_event(case, label):
    """PayMongo's webhook takes only events signed with its secret (the store's PAYMONGO_WEBHOOK_SECRET,
    which contract-test.sh gives the store and this process alike): each generated event is signed
    over the bytes the transport sends (requests' `json.dumps`, as schemathesis hands it the body),
    so the call is tried on what it does with an event, not refused at its door; one in eight goes
    unsigned, so the refusal (401) is seen too."""
    secret = os.environ.get("PAYMONGO_WEBHOOK_SECRET")
    if label != WEBHOOK or not secret or next(_webhook_turns) % 8 == 7:
        return
    if case.body is None or isinstance(case.body, (bytes, Binary)):
        return
    try:
        raw = json.dumps(case.body, allow_nan=False).encode()
    except (TypeError, ValueError):
        return
    t = int(time.time())
    mac = hmac.new(secret.encode(), f"{t}.".encode() + raw, hashlib.sha256).hexdigest()
    case.headers = {**(case.headers or {}), "paymongo-signature": f"t={t},te={mac},li="}


@schemathesis.hook
def before_call(context, case, **kwargs):
    label = f"{case.method.upper()} {case.operation.path}"
    _sign_event(case, label)
    _serve_real_values(case, label)
    _serve_photo(case, label)
    _pin_catalog(case, label)
    _serve_staff_code(case, label)
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
