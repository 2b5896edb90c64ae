"""Peer for `Benchmarks/run.sh requery`: the Apple half of requery-at-risk done with Apple's official
app-store-server-library (AppStoreServerAPIClient + SignedDataVerifier) and psycopg 3.

    apple_requery.py    (configuration from the environment, like the job: PG* variables, APPLE_BUNDLE_ID,
                         APPLE_APP_APPLE_ID, APPLE_API_BASE_URL, APPLE_KEY_ID, APPLE_ISSUER_ID, APPLE_PRIVATE_KEY_FILE,
                         APPLE_ROOT_CERT_FILES, APPLE_SANDBOX_API_BASE_URL; PEER_THREADS (default 2), PEER_AS_OF (ISO instant), PEER_FRESH_HOURS,
                         PEER_LIMIT (default: no cap))

1. select: the Apple subscriptions with an originalTransactionId not verified within the freshness window
   (the set requery-at-risk selects for Apple when its cap covers every eligible subscription).
2. per subscription (production first, then the sandbox host on 4040010, as our client does), on a pool of PEER_THREADS threads (one psycopg connection and one HTTP session each):
   Get All Subscription Statuses, verify and decode the entry's signedTransactionInfo and signedRenewalInfo
   (SignedDataVerifier, online checks off, root = the simulator's root), project minimally (status, expiry,
   auto-renew, last_verified_at) and write in one transaction per subscription: lock the row, compare,
   insert a drift_event per differing field, update.
Prints one `apple-python-requery ...` line; exits 1 if any subscription failed.

Two deviations from calling the library untouched, both in the subclass below:
- the base URL points at the simulator (the library hard-codes Apple's hosts);
- `_generate_token` adds `iat`: library 3.1.2 omits it, and the simulator (like Apple's documentation) requires it.
- `_execute_request` reuses one requests.Session per thread (keep-alive); the library's default opens a new
  connection per call. This makes the peer faster, not slower.
"""
import calendar
import datetime
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import jwt
import psycopg
import requests
from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

_local = threading.local()


class SimulatorClient(AppStoreServerAPIClient):
    def __init__(self, base_url: str, **kwargs):
        super().__init__(**kwargs)
        self._base_url = base_url.rstrip("/")

    def _generate_token(self) -> str:
        now = datetime.datetime.now(datetime.timezone.utc)
        return jwt.encode({"bid": self._bundle_id, "iss": self._issuer_id, "aud": "appstoreconnect-v1",
                           "iat": calendar.timegm(now.timetuple()),
                           "exp": calendar.timegm((now + datetime.timedelta(minutes=5)).timetuple())},
                          self._signing_key, algorithm="ES256", headers={"kid": self._key_id})

    def _execute_request(self, method, url, params, headers, json, data):
        session = getattr(_local, "session", None)
        if session is None:
            session = _local.session = requests.Session()
        return session.request(method, url, params=params, headers=headers, json=json, data=data, timeout=30)


STATUS = {1: "ACTIVE", 2: "EXPIRED", 3: "ON_HOLD", 4: "IN_GRACE_PERIOD", 5: "REVOKED"}


def connection():
    conn = getattr(_local, "conn", None)
    if conn is None:
        conn = _local.conn = psycopg.connect(os.environ.get("DATABASE_URL", ""))
    return conn


def process(clients, item, now):
    subscription_id, original = item
    # Production first; a 4040010 means the purchase lives in the sandbox (TestFlight, App Review), as Apple documents.
    try:
        client, verifier = clients[0]
        response = client.get_all_subscription_statuses(original)
    except APIException as error:
        if error.raw_api_error != 4040010 or len(clients) < 2:
            raise
        client, verifier = clients[1]
        response = client.get_all_subscription_statuses(original)
    entry = None
    for group in response.data or []:
        for last in group.lastTransactions or []:
            if last.originalTransactionId == original:
                entry = last
    if entry is None:
        raise RuntimeError(f"no status entry for {subscription_id}")
    transaction = verifier.verify_and_decode_signed_transaction(entry.signedTransactionInfo)
    renewal = verifier.verify_and_decode_renewal_info(entry.signedRenewalInfo) if entry.signedRenewalInfo else None
    status = STATUS.get(entry.rawStatus, "EXPIRED")
    if status == "ACTIVE" and transaction.rawOfferType == 1 and (transaction.offerDiscountType or "") == "FREE_TRIAL":
        status = "TRIALING"
    expires = (datetime.datetime.fromtimestamp(transaction.expiresDate / 1000, datetime.timezone.utc)
               if transaction.expiresDate else None)
    auto_renew = bool(renewal and renewal.rawAutoRenewStatus == 1)
    conn = connection()
    with conn.transaction():
        row = conn.execute("SELECT status::text, current_period_end_at, auto_renew FROM subscription WHERE id = %s FOR UPDATE",
                           (subscription_id,)).fetchone()
        drift = []
        if row[0] != status:
            drift.append(("status", "status", row[0], status))
        if row[1] != expires:
            drift.append(("expiry", "current_period_end_at", str(row[1]), str(expires)))
        if row[2] != auto_renew:
            drift.append(("other", "auto_renew", str(row[2]), str(auto_renew)))
        if drift:
            with conn.cursor() as cursor:
                cursor.executemany("INSERT INTO drift_event (subscription_id, kind, field, database_value, store_value, detected_at, repaired)"
                                   " VALUES (%s, %s, %s, %s, %s, %s, true)",
                                   [(subscription_id, kind, field, old, new, now) for kind, field, old, new in drift])
        conn.execute("UPDATE subscription SET status = %s::subscription_status, current_period_end_at = %s, auto_renew = %s,"
                     " last_verified_at = %s, updated_at = now() WHERE id = %s",
                     (status, expires, auto_renew, now, subscription_id))
    return len(drift)


def main() -> int:
    env = os.environ
    threads = int(env.get("PEER_THREADS", "2"))
    as_of = env.get("PEER_AS_OF")
    fresh_hours = int(env.get("PEER_FRESH_HOURS", "6"))
    with open(env["APPLE_PRIVATE_KEY_FILE"], "rb") as f:
        key = f.read()
    roots = []
    for name in env["APPLE_ROOT_CERT_FILES"].split(","):
        with open(name, "rb") as f:
            data = f.read()
        if data.startswith(b"-----BEGIN"):  # the library wants DER
            from cryptography import x509
            from cryptography.hazmat.primitives.serialization import Encoding
            data = x509.load_pem_x509_certificate(data).public_bytes(Encoding.DER)
        roots.append(data)
    def pair(base_url, environment):
        client = SimulatorClient(base_url, signing_key=key, key_id=env["APPLE_KEY_ID"], issuer_id=env["APPLE_ISSUER_ID"],
                                 bundle_id=env["APPLE_BUNDLE_ID"], environment=environment)
        verifier = SignedDataVerifier(root_certificates=roots, enable_online_checks=False, environment=environment,
                                      bundle_id=env["APPLE_BUNDLE_ID"], app_apple_id=int(env["APPLE_APP_APPLE_ID"]))
        return client, verifier

    clients = [pair(env["APPLE_API_BASE_URL"], Environment.PRODUCTION)]
    if env.get("APPLE_SANDBOX_API_BASE_URL"):
        clients.append(pair(env["APPLE_SANDBOX_API_BASE_URL"], Environment.SANDBOX))

    started = time.perf_counter()
    with psycopg.connect(env.get("DATABASE_URL", "")) as conn:
        now = conn.execute("SELECT coalesce(%s::timestamptz, now())", (as_of,)).fetchone()[0]
        items = conn.execute("""
            SELECT s.id::text, a.original_transaction_id FROM subscription s
            JOIN apple_subscription_identity a ON a.subscription_id = s.id
            WHERE s.provider = 'APPLE'
              AND (s.last_verified_at IS NULL OR s.last_verified_at <= %s::timestamptz - make_interval(hours => %s))
            ORDER BY s.last_verified_at NULLS FIRST, s.current_period_end_at NULLS LAST, s.id
            LIMIT %s""", (now, fresh_hours, int(env.get("PEER_LIMIT", "100000000")))).fetchall()
    selected = time.perf_counter()
    failures = 0
    drift = 0
    first_error = None
    lock = threading.Lock()

    def work(item):
        nonlocal failures, drift, first_error
        try:
            found = process(clients, item, now)
            with lock:
                drift += found
        except Exception as error:
            with lock:
                failures += 1
                if first_error is None:
                    first_error = f"{error!r} cause {error.__cause__!r}"

    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(work, items, chunksize=20))
    seconds = time.perf_counter() - started
    if first_error:
        print(f"apple-python-requery: first failure: {first_error}", file=sys.stderr)
    print(f"apple-python-requery subscriptions={len(items)} threads={threads} seconds={seconds:.2f} "
          f"select_seconds={selected - started:.2f} per_second={len(items) / seconds:.1f} drift_rows={drift} failures={failures}",
          flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
