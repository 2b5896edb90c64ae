"""Mints the bearer credentials wrk sends to the store simulator; nothing secret reaches argv or stdout.

  mint.py apple  <out file>   ES256 App Store Server API JWT (1 h life, the simulator's maximum), key from
                              APPLE_PRIVATE_KEY_FILE; claims from APPLE_KEY_ID, APPLE_ISSUER_ID, APPLE_BUNDLE_ID.
  mint.py google <out file>   RS256 service-account assertion exchanged at GOOGLE_TOKEN_URL for an access token;
                              the account from GOOGLE_SERVICE_ACCOUNT_FILE.
The token is written to <out file> (mode 600).
"""
import json
import os
import sys
import time
import urllib.parse
import urllib.request

import jwt


def write(path, text):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


def apple():
    with open(os.environ["APPLE_PRIVATE_KEY_FILE"]) as f:
        key = f.read()
    now = int(time.time())
    claims = {"iss": os.environ["APPLE_ISSUER_ID"], "iat": now, "exp": now + 3600,
              "aud": "appstoreconnect-v1", "bid": os.environ["APPLE_BUNDLE_ID"]}
    return jwt.encode(claims, key, algorithm="ES256", headers={"kid": os.environ["APPLE_KEY_ID"], "typ": "JWT"})


def google():
    with open(os.environ["GOOGLE_SERVICE_ACCOUNT_FILE"]) as f:
        account = json.load(f)
    url = os.environ["GOOGLE_TOKEN_URL"]
    now = int(time.time())
    assertion = jwt.encode({"iss": account["client_email"], "scope": "https://www.googleapis.com/auth/androidpublisher",
                            "aud": url, "iat": now, "exp": now + 3600}, account["private_key"], algorithm="RS256")
    body = urllib.parse.urlencode({"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": assertion})
    request = urllib.request.Request(url, data=body.encode(), headers={"Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)["access_token"]


if __name__ == "__main__":
    kind, out = sys.argv[1], sys.argv[2]
    write(out, {"apple": apple, "google": google}[kind]())
