"""Real data for the contract test (scripts/contract-test.sh), made through the API as shoppers
would, before schemathesis starts: what the fuzzer cannot guess (ids of a member's own things,
the tokens of mailed links).

Run as `python3 scripts/contract_setup.py [SOURCE TARGET]` against a served store (STORE_BASE,
MAIL_OUTBOX, and FUZZ_DATA: the folder written to); with SOURCE and TARGET it also writes the run's
copy of the schemathesis configuration (see `write_config`). It writes, in FUZZ_DATA:

- member.json: the fuzz member's email and password (scripts/contract_hooks.py logs them in);
- staff.json: the staff contract-test.sh added (a manager, a dispatcher; FUZZ_MANAGER and
  FUZZ_DISPATCHER), and more made here (spare dispatchers, a member of staff who has not set up
  the second factor): each one's email, password, TOTP secret, recovery codes, the last step of
  the app's codes given (the store takes a code only of a later step) and a session
  (scripts/contract_hooks.py signs them in);
- libfuzzer dictionaries (one `"value"` a line) that scripts/schemathesis.toml reads:
  addresses.dict and goto-cases.dict (the member's), orders.dict (the member's and guests'),
  order-keys.dict (guest orders' link keys), orders-to-move.dict (guests' orders the staff's bulk
  move may cancel), registration-tokens.dict (pending registrations' link
  tokens), newsletter-tokens.dict (unconfirmed signups' link tokens) and reset-suids.dict (reset
  links of other members: never the fuzz member's, whose password the hooks need), and
  staff-link-tokens.dict (links to choose a staff password, one member of staff each: a new
  link voids the older); and addresses-to-delete, goto-cases-to-delete,
  registration-tokens-to-use and reset-suids-to-use for the calls that use them up; skus.dict
  (the SKUs the photo calls give photos to, bound by `write_config`).

Several of each token, since a token used once is gone. Setup and hooks speak as a client of
their own (`X-Forwarded-For`, the store trusting 127.0.0.1 as its proxy) so the per-client rate
limits the fuzzer runs into never refuse them; per-address limits (3 mails an address an hour)
are met by giving each mail a new address.

scripts/contract_hooks.py imports this module for `register_member`, `login`, `Staff` and
`photo_png`.
"""

import base64
import datetime
import email
import email.policy
import hashlib
import hmac
import itertools
import json
import os
import pathlib
import re
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zlib

BASE = os.environ["STORE_BASE"]
OUTBOX = pathlib.Path(os.environ["MAIL_OUTBOX"])
# The client setup and hooks speak as (the store trusts 127.0.0.1 as its proxy: TRUSTED_PROXIES):
# 192.0.2.N (TEST-NET-1), N moving on when a login meets the per-client limit (the hooks log in
# after every logout the fuzzer makes).
_client = [10]
PASSWORD = "Contract-Pale-Pilsen-2026"
# The spare member's (scripts/contract_hooks.py), whom password changes and deletions are sent as.
SPARE_PASSWORD = "Spare-Amihan-Keg-2026"
# The mobile number of the guest whose data the staff erase (no other order has it).
ERASE_MOBILE = "09175550001"

# Seeded data (see scripts/schemathesis.toml): Makati sells everything and delivers.
MAKATI = 1380300002
MAKATI_CITY = 1380300000
JUPITER_STREET = 1  # one of Makati's streets, which its addresses and deliveries name
DELIVERY = 1
PILSEN = 1  # tala-pale-pilsen-320ml

# How many of each: what reads a thing gets ids and tokens of its own, and what uses one up
# (deletes it, finishes a registration, resets a password) gets others, so the readers still
# find theirs after the fuzzer used some up.
ADDRESSES, ADDRESSES_TO_DELETE = 3, 3  # a member keeps at most 10
CASES, CASES_TO_DELETE = 4, 4  # and at most 50 Go-to Cases
GUEST_ORDERS = 3
# Guests' orders the staff's bulk move takes (POST /api/v1/staff/orders/status): cancelled once,
# then already cancelled, never the orders the readers are given.
ORDERS_TO_MOVE = 6
# The member's orders paid online that wait for their payment: Pay Now's (which leaves them
# waiting), and Pay in Cash's own (each placed once, then 409), so that a long run's Pay in Cash
# leaves Pay Now orders to pay.
ORDERS_AWAITING_PAYMENT, ORDERS_TO_PAY_IN_CASH = 6, 12
PAYMENTS_TO_REFUND = 8
PENDING_REGISTRATIONS, PENDING_REGISTRATIONS_TO_USE = 6, 40
NEWSLETTER_SIGNUPS = 20
RESET_LINKS, RESET_LINKS_TO_USE = 6, 14  # one member each: a new link voids the earlier ones


def request(method, path, body=None, headers=None, token=None):
    """(status, headers, parsed JSON or raw bytes) of one call, as the setup's client."""
    h = {"X-Forwarded-For": f"192.0.2.{_client[0]}", **(headers or {})}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        h["Content-Type"] = "application/json"
    if token:
        h["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(BASE + path, data=data, headers=h, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            status, headers, raw = res.status, res.headers, res.read()
    except urllib.error.HTTPError as e:
        status, headers, raw = e.code, e.headers, e.read()
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = raw
    return status, headers, parsed


def expect(ok, what, answer):
    status, _, body = answer
    if status not in ok:
        raise RuntimeError(f"{what} answered {status}: {str(body)[:300]}")
    return body


_mails = {}  # path -> (size, recipient, plain text): each file is read once (again if it grew)
_mails_lock = threading.Lock()


def _outbox():
    with _mails_lock:
        for f in OUTBOX.glob("*.eml") if OUTBOX.exists() else []:
            try:
                data = f.read_bytes()
            except OSError:
                continue
            if _mails.get(f, (None,))[0] == len(data):
                continue
            msg = email.message_from_bytes(data, policy=email.policy.default)
            part = msg.get_body(preferencelist=("plain",))
            text = part.get_content() if part else ""
            _mails[f] = (len(data), (msg["To"] or "").strip().lower(), text)
        return list(_mails.values())


def mailed(to, pattern, timeout=30.0):
    """The first group of `pattern` in the text of a mail to `to` (the mailer writes .eml files,
    from a queue, so a mail may come a moment after the call that sent it)."""
    deadline = time.monotonic() + timeout
    rx = re.compile(pattern)
    while True:
        for _, recipient, text in _outbox():
            m = rx.search(text) if recipient == to.lower() else None
            if m:
                return m.group(1)
        if time.monotonic() > deadline:
            raise RuntimeError(f"no mail to {to} matching {pattern!r} reached {OUTBOX}")
        time.sleep(0.05)


TOKEN = r"[?&]{}=([A-Za-z0-9_-]+)"


def pre_register(address, first="Fuzz"):
    """Pre-registers an address (its link comes by mail: `registration_token`)."""
    expect(
        {200},
        f"pre-register {address}",
        request(
            "POST",
            "/api/v1/pre-register",
            {
                "first_name": first,
                "last_name": "Member",
                "email": address,
                "mobile": "0917" + str(zlib.crc32(address.encode()) % 10**7).zfill(7),
                "birth_date": "1990-05-05",
                "accept_terms": True,
            },
        ),
    )


def registration_token(address):
    """The token of the registration link mailed to an address."""
    return mailed(address, r"/registration" + TOKEN.format("token"))


def finish_registration(address, password=PASSWORD):
    """Opens the mailed link and chooses the password, as the new member would."""
    expect(
        {200},
        f"registration of {address}",
        request(
            "POST",
            "/api/v1/registration",
            {"password": password},
            {"registration-token": registration_token(address)},
        ),
    )


def register_member(address, password=PASSWORD):
    """A member, registered through the mailed link as a shopper would (as another client when
    this one met a per-client limit)."""
    for attempt in range(5):
        try:
            pre_register(address)
            finish_registration(address, password)
            return
        except RuntimeError as e:
            if "429" not in str(e) or attempt == 4:
                raise
            _client[0] = _client[0] % 250 + 1


def login(address, password=PASSWORD):
    """The member's session token, or None when the login is refused (any status but 200)."""
    for _ in range(10):
        status, headers, _ = request("POST", "/api/v1/login", {"login": address, "password": password})
        if status != 429:
            break
        _client[0] = _client[0] % 250 + 1
    token = headers.get("access-token")
    return token if status == 200 and token else None


_fresh = itertools.count(1)
_fresh_lock = threading.Lock()


def fresh_address(kind):
    """An address nobody used in this run (per-address mail limits never bite)."""
    with _fresh_lock:
        n = next(_fresh)
    return f"fuzz.{kind}.{os.getpid()}.{n}.{int(time.time() * 1000) % 10**8}@example.com"


# Staff. scripts/contract-test.sh adds a manager and a dispatcher (`store staff add`); the rest
# are added here, and by the hooks when they need more, with the same command (STORE_BIN).
STAFF_COOKIE = "staff_session"  # the only way a staff session is presented (no bearer)
STAFF_PASSWORD = "Staff-Tala-Brewhouse-2026"
# Links to choose a staff password nobody used yet (POST /api/v1/staff/password), one member of
# staff each (a new link voids the older ones), and enrolled dispatchers ready to stand in for
# the dispatcher when the fuzzer locked them out (scripts/contract_hooks.py).
STAFF_LINKS = 20
SPARE_DISPATCHERS = 3
# The store takes an app's code only when its 30-second step is later than the last step it took
# of the member (an earlier or the same step is refused and counts as a wrong try), and one step
# of clock drift either way: the setup gives the current step's code, else the next one's.


def totp(secret, step):
    """RFC 6238's code of a base32 secret (spaces ignored) at a 30-second step: HMAC-SHA-1 of the
    step as 8 big-endian bytes, dynamically truncated (RFC 4226), six digits."""
    raw = secret.replace(" ", "").upper()
    key = base64.b32decode(raw + "=" * (-len(raw) % 8))
    digest = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 10**6:06d}"


def staff_request(method, path, body=None, session=None):
    """A call with a staff session: its token in the `staff_session` cookie, the only place the
    store reads it. No Origin header (the cross-site rule lets a request naming no origin by)."""
    return request(method, path, body, {"Cookie": f"{STAFF_COOKIE}={session}"} if session else None)


def photo_png(width=16, height=12):
    """A small photo the store takes (a PNG, made here without an image library): the fuzzer's
    binary is never one, so the photo calls' well-formed cases carry this (contract_hooks.py)."""
    rows = b"".join(
        b"\x00" + bytes(v for x in range(width) for v in ((x * 16) % 256, (y * 20) % 256, 128)) for y in range(height)
    )

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def staff_upload(method, path, part, data, session):
    """A file call with a staff session: `data` as the one part `part` of a multipart/form-data
    body (as a browser's FormData sends it)."""
    boundary = "contract-setup-" + os.urandom(8).hex()
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="{part}"; filename="{part}.png"\r\n'
        f"Content-Type: image/png\r\n\r\n"
    ).encode() + data + f"\r\n--{boundary}--\r\n".encode()
    h = {
        "X-Forwarded-For": f"192.0.2.{_client[0]}",
        "Cookie": f"{STAFF_COOKIE}={session}",
        "Content-Type": f"multipart/form-data; boundary={boundary}",
    }
    req = urllib.request.Request(BASE + path, data=body, headers=h, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            status, raw = res.status, res.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = raw
    return status, None, parsed


def set_cookie(headers, name):
    """The value a response's Set-Cookie gives the cookie `name`, or None."""
    for line in headers.get_all("Set-Cookie") or []:
        m = re.match(rf"\s*{re.escape(name)}=([^;]*)", line)
        if m and m.group(1):
            return m.group(1)
    return None


def staff_login(address, password=STAFF_PASSWORD):
    """A new staff session begun with the password (it can only give the second factor), and the
    step the store asks next ("enroll" or "code"); (None, None) when the password is refused.
    As another client when this one met the per-client limit."""
    for _ in range(10):
        status, headers, body = request("POST", "/api/v1/staff/login", {"email": address, "password": password})
        if status != 429:
            break
        _client[0] = _client[0] % 250 + 1
    if status != 200:
        return None, None
    return set_cookie(headers, STAFF_COOKIE), (body or {}).get("next")


class Staff:
    """A member of staff as the setup and the hooks know them: their email and password, their
    second factor (the TOTP secret and the recovery codes not used yet), the last 30-second step of
    the app's codes given (the store takes a code only of a later step), and their session (`whole`
    once the second factor was given: a new token, the password's one ended)."""

    def __init__(
        self,
        email,
        password=STAFF_PASSWORD,
        role=None,
        secret=None,
        recovery_codes=(),
        last_step=None,
        session=None,
        whole=False,
    ):
        self.lock = threading.RLock()
        self.email = email
        self.password = password
        self.role = role
        self.secret = secret
        self.recovery_codes = list(recovery_codes)
        self.last_step = last_step
        self.session = session
        self.whole = whole

    def as_json(self):
        with self.lock:
            return {
                "email": self.email,
                "password": self.password,
                "role": self.role,
                "secret": self.secret,
                "recovery_codes": self.recovery_codes,
                "last_step": self.last_step,
                "session": self.session,
                "whole": self.whole,
            }

    @classmethod
    def from_json(cls, d):
        return cls(
            **{k: d.get(k) for k in ("email", "password", "role", "secret", "session")},
            recovery_codes=d.get("recovery_codes") or (),
            last_step=d.get("last_step"),
            whole=bool(d.get("whole")),
        )

    def fresh_code(self):
        """An app code of a step later than the last one the store took: the current step's, else
        the next step's (the store takes one step of drift); None when both were given."""
        with self.lock:
            if not self.secret:
                return None
            step = int(time.time()) // 30
            for s in (step, step + 1):
                if self.last_step is None or s > self.last_step:
                    self.last_step = s
                    return totp(self.secret, s)
            return None

    def recovery_code(self):
        """A recovery code not used yet (used up now), or None."""
        with self.lock:
            return self.recovery_codes.pop(0) if self.recovery_codes else None

    def wait_for_code(self):
        """Until the next 30-second step, when the app shows a new code."""
        time.sleep(30 - time.time() % 30 + 0.2)

    def give_code(self, session, recovery=True):
        """Gives the second factor on `session`: a fresh app code, else (`recovery`) a recovery
        code, else the next step's code when it comes. The token of the whole session the store
        answers with (a new one: the password's session ends) when it took one; None when the
        session ended. Raises when the member is locked out (429)."""
        for _ in range(8):
            code = self.fresh_code() or (self.recovery_code() if recovery else None)
            if code is None:
                self.wait_for_code()
                continue
            status, headers, body = staff_request("POST", "/api/v1/staff/second-factor", {"code": code}, session)
            if status == 200:
                token = set_cookie(headers, STAFF_COOKIE)
                if not token:
                    raise RuntimeError(f"the second factor of {self.email} answered no new session")
                return token
            if status == 401:
                return None
            if status != 422:
                raise RuntimeError(f"second factor of {self.email} answered {status}: {str(body)[:300]}")
            # 422: the step was taken already (the clock moved on meanwhile): the next.
        raise RuntimeError(f"no code of {self.email}'s second factor was taken")

    def sign_in(self, whole=True):
        """A new session: the password and (`whole`) a code of the second factor; its token, or
        None when the password is refused or the member is locked out of the second factor."""
        with self.lock:
            token, _ = staff_login(self.email, self.password)
            if not token:
                return None
            if whole:
                try:
                    token = self.give_code(token)
                except RuntimeError:
                    return None
                if not token:
                    return None
            self.session, self.whole = token, whole
            return token


def add_staff(role, count=1, kind=None):
    """Members of staff added with the store's command (`store staff add`), as the store's staff
    are: their emails. The store's sender delivers the links mailed to them within a few seconds
    (`staff_link`): ask for every mail before awaiting any."""
    emails = [fresh_address(kind or f"staff.{role}") for _ in range(count)]
    for address in emails:
        subprocess.run(
            [os.environ["STORE_BIN"], "staff", "add", address, "--role", role],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return emails


def staff_link(address):
    """The token of the link to choose a staff password mailed to an address (the last one:
    a new link voids the older)."""
    return mailed(address, r"/staff/password" + TOKEN.format("token"))


def enroll_staff(address, link, role=None, password=STAFF_PASSWORD, second_factor=True):
    """A member of staff through their mailed link as they would: chooses the password, signs in,
    and (`second_factor`) sets up the second factor shown at the first sign-in, confirmed with a
    code computed as an authenticator app would (its secret and recovery codes kept). Else the
    session begun with the password stays as it is (asked to set up the second factor)."""
    expect(
        {200},
        f"staff password of {address}",
        request("POST", "/api/v1/staff/password", {"token": link, "password": password}),
    )
    member = Staff(address, password, role=role)
    token, step = staff_login(address, password)
    if not token or step != "enroll":
        raise RuntimeError(f"staff login of {address} answered {token and 'a session'}, next {step!r}")
    member.session = token
    state = expect({200}, "staff second factor", staff_request("GET", "/api/v1/staff/second-factor", session=token))
    enrollment = (state or {}).get("enrollment") or {}
    if state.get("enrolled") or not enrollment.get("secret"):
        raise RuntimeError(f"no second factor to set up for {address}: {str(state)[:300]}")
    if not second_factor:
        return member
    member.secret = enrollment["secret"].replace(" ", "")
    member.recovery_codes = list(enrollment.get("recovery_codes") or [])
    token = member.give_code(token, recovery=False)
    if not token:
        raise RuntimeError(f"the second factor of {address} was not confirmed")
    member.session, member.whole = token, True
    return member


def new_staff(role, count=1, second_factor=True):
    """Members of staff of `role` added now, their second factor set up (or not: `enroll_staff`);
    for the hooks, members standing in."""
    return [
        enroll_staff(address, staff_link(address), role, second_factor=second_factor)
        for address in add_staff(role, count, kind=None if second_factor else f"staff.{role}.enrollee")
    ]


def place_order(token, *, guest_email=None, product=PILSEN, quantity=24, mobile="09170001234", payment="cash"):
    """Puts a product in the session's cart for Makati and places it, paid in cash or online:
    (order id, key or None)."""
    cart = expect(
        {200},
        "add to cart",
        request(
            "POST",
            "/api/v1/cart",
            {
                "product_id": product,
                "quantity": quantity,
                "barangay": MAKATI,
                "street_id": JUPITER_STREET,
                "fulfillment": DELIVERY,
            },
            token=token,
        ),
    )
    form = {
        "barangay": MAKATI,
        "fulfillment": DELIVERY,
        "street_id": JUPITER_STREET,
        "revision": cart["revision"],
        "expected_total": cart["cart_order_summary"]["subtotal"],
        "contact_name": "Fuzz Shopper",
        "mobile": mobile,
        "address": "12 Jupiter Street, Unit 3",
        "notes": "",
        "payment": payment,
    }
    if guest_email:
        form["email"] = guest_email
    placed = expect({201}, "place order", request("POST", "/api/v1/orders", form, token=token))
    m = re.search(r"[?&]key=([^&]+)", placed.get("link", ""))
    REVISIONS.append(cart["revision"])
    if placed.get("pay_url"):
        PAY_URLS[placed["order"]["id"]] = placed["pay_url"]
    return placed["order"]["id"], (m.group(1) if m else None)


# The PayMongo pages (the simulator's) of the orders placed to be paid online, by order id.
PAY_URLS = {}


def pay_on_paymongo(order_id, method="gcash"):
    """Pays an order on its PayMongo page as a shopper would (the simulator's hosted form), which
    delivers the signed event to the store's webhook before it answers."""
    req = urllib.request.Request(
        PAY_URLS[order_id],
        data=f"method={method}".encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        method="POST",
    )

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    try:
        urllib.request.build_opener(Stay).open(req, timeout=10)
    except urllib.error.HTTPError as e:
        if e.code != 303:
            raise RuntimeError(f"paying order {order_id} on PayMongo's page answered {e.code}")


def setup_refunds(folder, token, manager):
    """Orders the member paid online, then cancelled by the manager: their payments are owed back,
    for POST /api/v1/staff/payments/{paymentId}/refund (each refunded once, then 409). Writes
    payments-to-refund.dict."""
    ids = [place_order(token, payment="online")[0] for _ in range(PAYMENTS_TO_REFUND)]
    for order_id in ids:
        pay_on_paymongo(order_id)
    expect(
        {200},
        "cancel the paid orders",
        staff_request(
            "POST",
            "/api/v1/staff/orders/status",
            {"order_ids": ids, "status": "cancelled", "reason": "Out of kegs"},
            session=manager.session,
        ),
    )
    payments = []
    for order_id in ids:
        view = expect({200}, "a paid order", staff_request("GET", f"/api/v1/staff/orders/{order_id}", session=manager.session))
        payments += [p["id"] for p in view["payments"] if p["refundable"]]
    if len(payments) != len(ids):
        raise RuntimeError(f"{len(payments)} payments to refund of {len(ids)} orders paid online")
    write_dict(folder, "payments-to-refund", payments)
    return f"{len(payments)} payments to refund"


# The cart revisions the member's orders were placed from: a submit naming one again is answered
# with that order (200), which is how a real client's repeated submit looks.
REVISIONS = []


def write_dict(folder, name, values):
    if not values:
        raise RuntimeError(f"no values for {name}")
    lines = []
    for v in values:
        s = str(v).replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'"{s}"')
    (folder / f"{name}.dict").write_text("\n".join(lines) + "\n")


def write_config(source, target, folder):
    """The run's copy of the schemathesis configuration, its dictionaries' `from-file` naming the
    files in `folder`. Schemathesis 4.32.5 reads `${VAR}` from the environment in most settings but
    not in `from-file` (config/_dictionaries.py takes the path as written); and a libfuzzer file
    holds strings, which a parameter bound to a dictionary takes as they are, so an integer id
    from one would only ever be a wrong type: a file of integers is given as `values` instead."""
    out = []
    for line in pathlib.Path(source).read_text().splitlines():
        m = re.fullmatch(r'from-file = "\$\{FUZZ_DATA\}/([A-Za-z0-9_.-]+)"', line.strip())
        if m:
            path = folder / m.group(1)
            entries = [json.loads(e) for e in path.read_text().split("\n") if e.strip()]
            if all(re.fullmatch(r"-?[0-9]+", e) for e in entries):
                line = f"values = [{', '.join(entries)}]  # {path}"
            else:
                line = f'from-file = "{path}"'
        out.append(line)
    skus = folder / "skus.dict"
    if skus.exists():
        # The photo calls' products by SKU (setup_photos), bound per call: scripts/schemathesis.toml's
        # [parameters] table is closed above, and operations may be added anywhere.
        values = ", ".join(json.dumps(json.loads(e)) for e in skus.read_text().split("\n") if e.strip())
        out += ["", "# The photo calls' products, by SKU (contract_setup.py setup_photos).", "[dictionaries.skus]", f"values = [{values}]"]
        for method in ("PUT", "DELETE"):
            out += [
                "",
                "[[operations]]",
                f'include-name = "{method} /api/v1/staff/catalog/products/{{sku}}/photo"',
                'parameters = { "path.sku" = { dictionary = "skus", probability = 0.9 } }',
            ]
    pathlib.Path(target).write_text("\n".join(out) + "\n")


def add_setup_staff():
    """The members of staff the setup adds besides the two contract-test.sh added (first, so
    the mails to them are on their way while the rest is made): spare dispatchers, a member who
    will not set up the second factor (the enrollee), and the holders of the unused links."""
    return {
        "spares": add_staff("dispatcher", SPARE_DISPATCHERS),
        "rider": add_staff("rider")[0],
        "enrollee": add_staff("rider", kind="staff.enrollee")[0],
        "links": add_staff("rider", STAFF_LINKS, kind="staff.link"),
    }


def setup_staff(folder, added):
    """The staff's part: the manager and the dispatcher contract-test.sh added choose their
    passwords by their mailed links, sign in and set up their second factor (staff.json keeps
    them and their sessions, whole); the spare dispatchers and a rider too; the enrollee chooses a password
    and signs in, and their session shows how to set up the second factor (GET
    /api/v1/staff/second-factor); the links of the others stay unused, for POST
    /api/v1/staff/password. Answers what it made, as words, the manager and the rider."""
    staff = {"manager": os.environ["FUZZ_MANAGER"], "dispatcher": os.environ["FUZZ_DISPATCHER"]}
    members = {role: enroll_staff(address, staff_link(address), role) for role, address in staff.items()}
    members["rider"] = enroll_staff(added["rider"], staff_link(added["rider"]), "rider")
    members["enrollee"] = enroll_staff(added["enrollee"], staff_link(added["enrollee"]), "rider", second_factor=False)
    members["spares"] = [enroll_staff(address, staff_link(address), "dispatcher") for address in added["spares"]]
    links = [staff_link(address) for address in added["links"]]
    manager = members["manager"]
    # What the audit log's filters are given: the staff's ids, the kinds of write there are, and
    # the entries' ids (its pages start before one).
    team = expect({200}, "staff team", staff_request("GET", "/api/v1/staff/team", session=manager.session))
    audit = expect({200}, "staff audit", staff_request("GET", "/api/v1/staff/audit", session=manager.session))
    (folder / "staff.json").write_text(
        json.dumps(
            {k: [m.as_json() for m in v] if isinstance(v, list) else v.as_json() for k, v in members.items()},
            indent=1,
        )
    )
    write_dict(folder, "staff-link-tokens", links)
    write_dict(folder, "staff-logins", [members["dispatcher"].email])
    write_dict(folder, "staff-passwords", [STAFF_PASSWORD])
    write_dict(folder, "staff-ids", [m["id"] for m in team["results"]])
    write_dict(folder, "audit-entries", [e["id"] for e in audit["entries"]])
    write_dict(folder, "audit-actions", sorted({e["action"] for e in audit["entries"]}))
    words = (
        f"{len(team['results'])} staff ({len(members['spares'])} spare dispatchers, {len(links)} unused links), "
        f"{len(audit['entries'])} audit entries"
    )
    return words, manager, members["rider"]


# Catalog files the manager uploaded (POST /staff/catalog/import, the catalog page's upload form),
# each waiting for its import: some to read (GET /api/v1/staff/catalog/drafts/{draftId}), others
# to apply (POST .../apply uses one up). Each raises the price of a keg no other call buys.
DRAFTS, DRAFTS_TO_APPLY = 3, 6
DRAFT_PRODUCT = "tala-light-keg-30l"


def upload_draft(manager, n):
    """A catalog file uploaded by the manager as the browser does (multipart, with the page's CSRF
    token and the session cookie the page set); answers its id."""
    cookie = f"{STAFF_COOKIE}={manager.session}"
    status, headers, page = request("GET", "/staff/catalog/import", headers={"Cookie": cookie})
    if status != 200:
        raise RuntimeError(f"the import page answered {status}")
    shopper = set_cookie(headers, "session")
    if shopper:
        cookie += f"; session={shopper}"
    csrf = re.search(rb'name="csrf" value="([^"]+)"', page).group(1).decode()
    status, _, text = request("GET", "/staff/catalog/export", headers={"Cookie": cookie})
    file = text if isinstance(text, dict) else json.loads(text)
    for product in file["products"]:
        if product["slug"] == DRAFT_PRODUCT:
            product["price"] += 100 * (n + 1)
    boundary = f"contract-setup-{n}"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{csrf}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="catalog-{n}.json"\r\n'
        f"Content-Type: application/json\r\n\r\n{json.dumps(file)}\r\n--{boundary}--\r\n"
    ).encode()
    req = urllib.request.Request(
        BASE + "/staff/catalog/import",
        data=body,
        method="POST",
        headers={
            "X-Forwarded-For": f"192.0.2.{_client[0]}",
            "Cookie": cookie,
            "Origin": BASE,
            "Accept": "application/json",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
        },
    )
    with urllib.request.urlopen(req, timeout=10) as res:
        location = json.loads(res.read())["location"]
    return location.rsplit("/", 1)[1]


# Holidays and notices of their own for the removals (each taken once), in 2098, so the seed's
# stay for the saves.
CALENDAR_TO_REMOVE = 150


def setup_catalog(folder, manager):
    """The catalog's part: uploaded files for the drafts' calls, and holidays and notices to
    remove."""
    drafts = [upload_draft(manager, n) for n in range(DRAFTS + DRAFTS_TO_APPLY)]
    write_dict(folder, "drafts", drafts[:DRAFTS])
    write_dict(folder, "drafts-to-apply", drafts[DRAFTS:])
    for kind, fields in (("holidays", {"name": "Contract holiday"}), ("notices", {"title": "Contract notice", "body": "Made to be removed."})):
        ids = []
        for n in range(CALENDAR_TO_REMOVE):
            day = f"2098-{1 + n // 28:02d}-{1 + n % 28:02d}"
            answer = staff_request("POST", f"/api/v1/staff/catalog/{kind}", {**fields, "starts_on": day, "ends_on": day}, session=manager.session)
            expect({200}, f"a {kind[:-1]} to remove", answer)
            ids.append(answer[2]["id"])
        write_dict(folder, f"{kind}-to-remove", ids)
    photos = setup_photos(folder, manager)
    return f"{len(drafts)} catalog files uploaded, {CALENDAR_TO_REMOVE} holidays and notices to remove, {photos}"


# The products the photo calls are given by SKU: those the catalog's forms change
# (scripts/schemathesis.toml's catalog-products), which no shopper's call buys.
PHOTO_PRODUCTS = [23, 24, 25, 26]


def setup_photos(folder, manager):
    """The photo calls' part: skus.dict (the SKUs of PHOTO_PRODUCTS, as the catalog lists them),
    which `write_config` binds to their `sku`; and one photo given through the API and taken
    away, so a run whose photo calls could not take a photo fails here, not as a warning."""
    catalog = expect({200}, "the staff's catalog", staff_request("GET", "/api/v1/staff/catalog", session=manager.session))
    skus = [p["sku"] for p in catalog["results"] if p["id"] in PHOTO_PRODUCTS]
    write_dict(folder, "skus", skus)
    path = f"/api/v1/staff/catalog/products/{skus[0]}/photo"
    given = expect({200}, "a photo given", staff_upload("PUT", path, "photo", photo_png(), manager.session))
    if not (given.get("photo") or {}).get("width"):
        raise RuntimeError(f"a photo given answered {given}")
    expect({200}, "a photo taken away", staff_request("DELETE", path, session=manager.session))
    return f"photos by SKU {', '.join(skus)}"


# Dispatch runs for the staff's runs calls, each kind with its own ids (bound per call in
# scripts/schemathesis.toml) so what one call uses up stays for the others: runs (planned and out:
# read, sent; sending one out already answers it as sent), runs to arrange (planned for
# tomorrow, many stops: moved, taken off), runs to add stops to (tomorrow's too: their own
# orders added again stay where they are, the other's are on another run), a run out with many stops (ended: the same ending again answers
# the run), runs to close (out, every stop ended: closed, and again on the same cash), and
# confirmed orders waiting for a run (added to one, or a new one planned of them).
RUNS_PLANNED, RUNS_OUT, STOPS_PER_RUN = 2, 1, 3
ARRANGE_RUNS, ARRANGE_STOPS = 3, 16
ADD_RUNS, ADD_STOPS = 2, 8
OUT_STOPS = 24
CLOSE_RUNS, CLOSE_STOPS = 3, 2
ORDERS_WAITING = 12


def setup_runs(folder, manager, rider):
    """Guests' orders confirmed by the manager and runs planned of them for a rider of the store,
    some sent out and some with every stop ended; writes runs.dict, arrange-runs.dict and
    arrange-orders.dict, add-runs.dict and add-orders.dict, out-runs.dict and out-orders.dict,
    close-runs.dict, run-waiting.dict (confirmed orders on none), days.dict (today), riders.dict
    and failure-reasons.dict. The runs are `rider`'s (a member of staff signed in as the hooks'
    rider). Answers what it made, as words."""
    session = manager.session
    count = (
        (RUNS_PLANNED + RUNS_OUT) * STOPS_PER_RUN
        + ARRANGE_RUNS * ARRANGE_STOPS
        + ADD_RUNS * ADD_STOPS
        + OUT_STOPS
        + CLOSE_RUNS * CLOSE_STOPS
        + ORDERS_WAITING
    )
    orders = []
    for _ in range(count):
        answer = request("POST", "/api/v1/guest-token")
        expect({200}, "guest token", answer)
        orders.append(place_order(answer[1].get("access-token"), guest_email=fresh_address("guest"))[0])
    for n in range(0, len(orders), 100):  # a move takes at most 100 orders
        expect(
            {200},
            "orders confirmed",
            staff_request(
                "POST", "/api/v1/staff/orders/status", {"order_ids": orders[n : n + 100], "status": "confirmed"}, session
            ),
        )
    plan = expect({200}, "the runs", staff_request("GET", "/api/v1/staff/runs", session=session))
    team = expect({200}, "staff team", staff_request("GET", "/api/v1/staff/team", session=session))
    mine = [m["id"] for m in team["results"] if m["email"] == rider.email]
    riders = mine + [r["id"] for r in plan["riders"] if r["id"] not in mine]
    left = list(orders)

    def planned(stops, day=plan["today"]):
        """A run on `day` of the next `stops` orders: its id and orders."""
        taken, left[:] = left[:stops], left[stops:]
        made = expect(
            {200},
            "a run planned",
            staff_request(
                "POST",
                "/api/v1/staff/runs",
                {"rider_id": riders[0], "day": day, "order_ids": taken},
                session,
            ),
        )
        return made["run_id"], taken

    def sent(run):
        expect({200}, "a run sent out", staff_request("POST", f"/api/v1/staff/runs/{run}/send", None, session))

    runs, on_runs = [], []
    for n in range(RUNS_PLANNED + RUNS_OUT):
        run, taken = planned(STOPS_PER_RUN)
        if n >= RUNS_PLANNED:
            sent(run)
        runs.append(run)
        on_runs.extend(taken)
    arrange_runs, arrange_orders = [], []
    # Tomorrow's: the day's lists (GET /api/v1/staff/runs, /day), whose ids the fuzzer takes up
    # for any run call (sending them out too), show today's.
    tomorrow = (datetime.date.fromisoformat(plan["today"]) + datetime.timedelta(days=1)).isoformat()
    for _ in range(ARRANGE_RUNS):
        run, taken = planned(ARRANGE_STOPS, tomorrow)
        arrange_runs.append(run)
        arrange_orders.extend(taken)
    add_runs, add_orders = [], []
    for _ in range(ADD_RUNS):
        run, taken = planned(ADD_STOPS, tomorrow)
        add_runs.append(run)
        add_orders.extend(taken)
    out_run, out_orders = planned(OUT_STOPS)
    sent(out_run)
    close_runs = []
    view = None
    for _ in range(CLOSE_RUNS):
        run, taken = planned(CLOSE_STOPS)
        sent(run)
        view = expect({200}, "a run", staff_request("GET", f"/api/v1/staff/runs/{run}", session=session))
        for n, order in enumerate(taken):
            ending = (
                {"outcome": "delivered", "cash_received": "980", "empties_returned": 0}
                if n % 2 == 0
                else {"outcome": "failed", "reason": view["failure_reasons"][0]}
            )
            expect(
                {200},
                "a stop ended",
                staff_request("POST", f"/api/v1/staff/runs/{run}/stops/{order}", ending, session),
            )
        close_runs.append(run)
    write_dict(folder, "runs", runs)
    write_dict(folder, "arrange-runs", arrange_runs)
    write_dict(folder, "arrange-orders", arrange_orders)
    write_dict(folder, "add-runs", add_runs)
    write_dict(folder, "add-orders", add_orders)
    write_dict(folder, "out-runs", [out_run])
    write_dict(folder, "out-orders", out_orders)
    write_dict(folder, "close-runs", close_runs)
    write_dict(folder, "run-waiting", left)
    write_dict(folder, "days", [plan["today"]])
    write_dict(folder, "riders", riders)
    write_dict(folder, "failure-reasons", view["failure_reasons"])
    return (
        f"{len(runs) + ARRANGE_RUNS + ADD_RUNS + 1 + CLOSE_RUNS} runs ({RUNS_OUT + 1} out, {CLOSE_RUNS} to close) "
        f"of {len(orders) - len(left)} orders, {len(left)} orders waiting"
    )


def main():
    folder = pathlib.Path(os.environ["FUZZ_DATA"])
    folder.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()

    staff = add_setup_staff()

    # The fuzz member, and what they own: addresses, Go-to Cases, orders.
    member = "fuzz.member@example.com"
    register_member(member)
    token = login(member)
    if not token:
        raise RuntimeError("the fuzz member cannot log in")
    (folder / "member.json").write_text(json.dumps({"email": member, "password": PASSWORD}))

    places = [
        ("12 Jupiter Street, Unit 3", MAKATI, JUPITER_STREET),
        ("7 Kalayaan Avenue, Blk 2", 1380601001, None),
        ("Lot 4, Phase 1 Sitio Malinis", 301412001, None),
    ]
    addresses = []
    for n in range(ADDRESSES + ADDRESSES_TO_DELETE):
        line, barangay, street = places[n % len(places)]
        a = expect(
            {201},
            "create address",
            request(
                "POST",
                "/api/v1/user/addresses",
                {"address": f"{line} #{n + 1}", "barangay_id": barangay, "street_id": street},
                token=token,
            ),
        )
        addresses.append(a["id"])

    orders, keys = [], []
    for quantity in (24, 48):
        order_id, _ = place_order(token, quantity=quantity)
        orders.append(order_id)
    member_revisions = list(REVISIONS)
    # The member's orders paid online, awaiting their payment: Pay Now answers their PayMongo
    # page (the simulator's) each time; Pay in Cash places each of its own once (then 409).
    awaiting = [place_order(token, payment="online")[0] for _ in range(ORDERS_AWAITING_PAYMENT)]
    to_pay_in_cash = [place_order(token, payment="online")[0] for _ in range(ORDERS_TO_PAY_IN_CASH)]

    # Go-to Cases are saved from a case of the cart.
    cases = []
    expect(
        {200},
        "add to cart",
        request(
            "POST",
            "/api/v1/cart",
            {"product_id": PILSEN, "quantity": 24, "barangay": MAKATI, "street_id": JUPITER_STREET},
            token=token,
        ),
    )
    for n in range(CASES + CASES_TO_DELETE):
        saved = expect(
            {200},
            "create Go-to Case",
            request(
                "POST",
                "/api/v1/user/goto-case",
                {"name": f"Weekend Pilsen {n + 1}", "cart_items": [PILSEN], "barangay": MAKATI},
                token=token,
            ),
        )
        cases.append(saved["goto_case"]["id"])

    # Guests' orders, with the keys of their links.
    for _ in range(GUEST_ORDERS):
        answer = request("POST", "/api/v1/guest-token")
        expect({200}, "guest token", answer)
        guest = answer[1].get("access-token")
        order_id, key = place_order(guest, guest_email=fresh_address("guest"))
        orders.append(order_id)
        if key:
            keys.append(key)

    # Guests' orders for the staff to move (cancel) as they like.
    to_move = []
    for _ in range(ORDERS_TO_MOVE):
        answer = request("POST", "/api/v1/guest-token")
        expect({200}, "guest token", answer)
        order_id, _ = place_order(answer[1].get("access-token"), guest_email=fresh_address("guest"))
        to_move.append(order_id)

    # A guest who asks to be erased (GET /api/v1/staff/guest-data, POST .../erase): two orders
    # of their own email and mobile, no other order's, so erasing them changes no order another
    # call's dictionary names; erased once, they are found no more (the erasure still answers).
    erased_guest = (fresh_address("erase"), ERASE_MOBILE)
    for _ in range(2):
        answer = request("POST", "/api/v1/guest-token")
        expect({200}, "guest token", answer)
        place_order(answer[1].get("access-token"), guest_email=erased_guest[0], mobile=erased_guest[1])

    # Tokens of mailed links nobody used yet. Every mail is asked for before any is awaited:
    # the store's sender delivers its queue in batches.
    pending = [fresh_address("pending") for _ in range(PENDING_REGISTRATIONS + PENDING_REGISTRATIONS_TO_USE)]
    subscribers = [fresh_address("news") for _ in range(NEWSLETTER_SIGNUPS)]
    others = [fresh_address("other") for _ in range(RESET_LINKS + RESET_LINKS_TO_USE)]
    for address in pending:
        pre_register(address, "Pending")
    for address in others:
        pre_register(address, "Other")
    for address in subscribers:
        expect({200}, "newsletter signup", request("POST", "/api/v1/mail/subscribe", {"email": address}))
    for address in others:
        finish_registration(address)
        expect({200}, "reset link", request("POST", "/api/v1/reset/password/get-link", {"email": address}))
    registrations = [registration_token(address) for address in pending]
    newsletter = [mailed(address, r"/newsletter/confirm" + TOKEN.format("token")) for address in subscribers]
    suids = [mailed(address, r"/reset-password" + TOKEN.format("suid")) for address in others]

    staff, manager, rider = setup_staff(folder, staff)
    runs = setup_runs(folder, manager, rider)
    catalog = setup_catalog(folder, manager)
    refunds = setup_refunds(folder, token, manager)

    # Those to delete come first: the coverage phase tries the smallest ids (1 and 2) wherever an
    # id is asked for, deletions too, without a dictionary.
    write_dict(folder, "addresses-to-delete", addresses[:ADDRESSES_TO_DELETE])
    write_dict(folder, "addresses", addresses[ADDRESSES_TO_DELETE:])
    write_dict(folder, "goto-cases-to-delete", cases[:CASES_TO_DELETE])
    write_dict(folder, "goto-cases", cases[CASES_TO_DELETE:])
    write_dict(folder, "orders", orders)
    write_dict(folder, "orders-to-move", to_move)
    write_dict(folder, "orders-awaiting-payment", awaiting)
    write_dict(folder, "orders-to-pay-in-cash", to_pay_in_cash)
    write_dict(folder, "order-keys", keys or ["0" * 40])
    write_dict(folder, "registration-tokens", registrations[:PENDING_REGISTRATIONS])
    write_dict(folder, "registration-tokens-to-use", registrations[PENDING_REGISTRATIONS:])
    write_dict(folder, "newsletter-tokens", newsletter)
    write_dict(folder, "reset-suids", suids[:RESET_LINKS])
    write_dict(folder, "reset-suids-to-use", suids[RESET_LINKS:])
    write_dict(folder, "order-revisions", member_revisions)
    write_dict(folder, "guest-contacts", list(erased_guest))
    # The member's own login (POST /login takes it now and then) and the spare's password, which
    # the calls that need the current password are offered (scripts/contract_hooks.py: the spare
    # member takes those calls, so the member whose ids the dictionaries hold stays).
    write_dict(folder, "member-logins", [member])
    write_dict(folder, "member-passwords", [PASSWORD])
    write_dict(folder, "spare-passwords", [SPARE_PASSWORD])
    print(
        f"contract setup: {len(addresses)} addresses, {len(cases)} Go-to Cases, {len(orders)} orders "
        f"({len(keys)} guests' keys), {len(registrations)} registration tokens, {len(newsletter)} "
        f"newsletter tokens, {len(suids)} reset links, {staff}, {runs}, {catalog}, {refunds} in {time.monotonic() - started:.1f} s",
        file=sys.stderr,
    )
    if len(sys.argv) == 3:
        write_config(sys.argv[1], sys.argv[2], folder)


if __name__ == "__main__":
    main()
