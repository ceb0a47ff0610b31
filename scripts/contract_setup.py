"""Real data for the contract test (scripts/contract-test.sh), made through the API as shoppers
would, before schemathesis starts: what the fuzzer cannot guess (ids of a member's own things,
the tokens of mailed links).

Run as `python3 scripts/contract_setup.py [SOURCE TARGET]` against a served store (STORE_BASE,
MAIL_OUTBOX, and FUZZ_DATA: the folder written to); with SOURCE and TARGET it also writes the run's
copy of the schemathesis configuration (see `write_config`). It writes, in FUZZ_DATA:

- member.json: the fuzz member's email and password (scripts/contract_hooks.py logs them in);
- libfuzzer dictionaries (one `"value"` a line) that scripts/schemathesis.toml reads:
  addresses.dict and goto-cases.dict (the member's), orders.dict (the member's and guests'),
  order-keys.dict (guest orders' link keys), registration-tokens.dict (pending registrations' link
  tokens), newsletter-tokens.dict (unconfirmed signups' link tokens) and reset-suids.dict (reset
  links of other members: never the fuzz member's, whose password the hooks need); and
  addresses-to-delete, goto-cases-to-delete, registration-tokens-to-use and reset-suids-to-use
  for the calls that use them up.

Several of each token, since a token used once is gone. Setup and hooks speak as a client of
their own (`X-Forwarded-For`, the store trusting 127.0.0.1 as its proxy) so the per-client rate
limits the fuzzer runs into never refuse them; per-address limits (3 mails an address an hour)
are met by giving each mail a new address.

scripts/contract_hooks.py imports this module for `register_member` and `login`.
"""

import email
import email.policy
import itertools
import json
import os
import pathlib
import re
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

# Seeded data (see scripts/schemathesis.toml): Makati sells everything and delivers.
MAKATI = 1380300002
JUPITER_STREET = 1  # one of Makati's streets, which its addresses and deliveries name
DELIVERY = 1
PILSEN = 1  # tala-pale-pilsen-320ml

# How many of each: what reads a thing gets ids and tokens of its own, and what uses one up
# (deletes it, finishes a registration, resets a password) gets others, so the readers still
# find theirs after the fuzzer used some up.
ADDRESSES, ADDRESSES_TO_DELETE = 3, 3  # a member keeps at most 10
CASES, CASES_TO_DELETE = 4, 4  # and at most 50 Go-to Cases
GUEST_ORDERS = 3
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


def place_order(token, *, guest_email=None, product=PILSEN, quantity=24):
    """Puts a product in the session's cart for Makati and places it: (order id, key or None)."""
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
        "mobile": "09170001234",
        "address": "12 Jupiter Street, Unit 3",
        "notes": "",
    }
    if guest_email:
        form["email"] = guest_email
    placed = expect({201}, "place order", request("POST", "/api/v1/orders", form, token=token))
    m = re.search(r"[?&]key=([^&]+)", placed.get("link", ""))
    REVISIONS.append(cart["revision"])
    return placed["order"]["id"], (m.group(1) if m else None)


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
    pathlib.Path(target).write_text("\n".join(out) + "\n")


def main():
    folder = pathlib.Path(os.environ["FUZZ_DATA"])
    folder.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()

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

    # Those to delete come first: the coverage phase tries the smallest ids (1 and 2) wherever an
    # id is asked for, deletions too, without a dictionary.
    write_dict(folder, "addresses-to-delete", addresses[:ADDRESSES_TO_DELETE])
    write_dict(folder, "addresses", addresses[ADDRESSES_TO_DELETE:])
    write_dict(folder, "goto-cases-to-delete", cases[:CASES_TO_DELETE])
    write_dict(folder, "goto-cases", cases[CASES_TO_DELETE:])
    write_dict(folder, "orders", orders)
    write_dict(folder, "order-keys", keys or ["0" * 40])
    write_dict(folder, "registration-tokens", registrations[:PENDING_REGISTRATIONS])
    write_dict(folder, "registration-tokens-to-use", registrations[PENDING_REGISTRATIONS:])
    write_dict(folder, "newsletter-tokens", newsletter)
    write_dict(folder, "reset-suids", suids[:RESET_LINKS])
    write_dict(folder, "reset-suids-to-use", suids[RESET_LINKS:])
    write_dict(folder, "order-revisions", member_revisions)
    # The member's own login (POST /login takes it now and then) and the spare's password, which
    # the calls that need the current password are offered (scripts/contract_hooks.py: the spare
    # member takes those calls, so the member whose ids the dictionaries hold stays).
    write_dict(folder, "member-logins", [member])
    write_dict(folder, "member-passwords", [PASSWORD])
    write_dict(folder, "spare-passwords", [SPARE_PASSWORD])
    print(
        f"contract setup: {len(addresses)} addresses, {len(cases)} Go-to Cases, {len(orders)} orders "
        f"({len(keys)} guests' keys), {len(registrations)} registration tokens, {len(newsletter)} "
        f"newsletter tokens, {len(suids)} reset links in {time.monotonic() - started:.1f} s",
        file=sys.stderr,
    )
    if len(sys.argv) == 3:
        write_config(sys.argv[1], sys.argv[2], folder)


if __name__ == "__main__":
    main()
