"""Peer for bench-jws: Apple's app-store-server-library verifying and decoding the same signed transactions.

    apple_verify.py <folder>   reads <folder>/root.der and <folder>/transactions.jws (one JWS per line)

Prints one `apple-python measure=... per_second=...` line per pass; exits 1 if any payload fails.
cold: a fresh SignedDataVerifier, online checks off, over the whole file.
warm: the same verifier again. Note: with enable_online_checks=False the library's chain cache is never
consulted (_ChainVerifier.verify_chain caches only when online checks are on), so every payload re-validates the chain.
cached: the cache-hit path a user with online checks on gets for 15 minutes after the first (OCSP-checked) call:
the cache is seeded with the leaf key once, then the verifier runs with online checks on; no network is used.
"""
import sys
import time
from pathlib import Path

import jwt
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

BUNDLE_ID = "com.example.fitness"
APP_APPLE_ID = 1478523690


def new_verifier(root: bytes, online: bool = False) -> SignedDataVerifier:
    return SignedDataVerifier(root_certificates=[root], enable_online_checks=online,
                              environment=Environment.PRODUCTION, bundle_id=BUNDLE_ID, app_apple_id=APP_APPLE_ID)


def run(name: str, verifier: SignedDataVerifier, payloads: list[str]) -> int:
    failures = 0
    started = time.perf_counter()
    for jws in payloads:
        try:
            if verifier.verify_and_decode_signed_transaction(jws).transactionId is None:
                failures += 1
        except Exception as error:  # VerificationException, with the cause chained
            if failures == 0:
                print(f"apple-python: rejected: {error!r} cause {error.__cause__!r}", file=sys.stderr)
            failures += 1
    seconds = time.perf_counter() - started
    print(f"apple-python measure={name} payloads={len(payloads)} seconds={seconds:.4f} "
          f"per_second={len(payloads) / seconds:.0f} failures={failures}", flush=True)
    return failures


def main() -> int:
    folder = Path(sys.argv[1])
    root = (folder / "root.der").read_bytes()
    payloads = (folder / "transactions.jws").read_text().split()
    verifier = new_verifier(root)
    failures = run("cold", verifier, payloads)
    failures += run("warm", verifier, payloads)

    cached = new_verifier(root, online=True)
    x5c = jwt.get_unverified_header(payloads[0])["x5c"]
    key = cached._chain_verifier._verify_chain_without_caching(x5c, False, time.time())
    cached._chain_verifier.put_verified_public_key(x5c, key)
    failures += run("cached", cached, payloads)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
