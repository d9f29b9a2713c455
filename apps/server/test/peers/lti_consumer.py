#!/usr/bin/env python3
"""An LTI 1.1 tool consumer (a learning platform) built on oauthlib, an OAuth 1.0a implementation the
project did not write (Debian's python3-oauthlib). Reads one JSON object from stdin:
  {"url": ..., "key": ..., "secret": ..., "method": "HMAC-SHA1" | "HMAC-SHA256", "params": {...}}
and prints the signed form body (application/x-www-form-urlencoded, UTF-8) on stdout."""
import json
import sys
from urllib.parse import urlencode

from oauthlib.oauth1 import SIGNATURE_HMAC_SHA1, SIGNATURE_HMAC_SHA256, SIGNATURE_TYPE_BODY, Client

request = json.load(sys.stdin)
method = {"HMAC-SHA1": SIGNATURE_HMAC_SHA1, "HMAC-SHA256": SIGNATURE_HMAC_SHA256}[request["method"]]
client = Client(request["key"], client_secret=request["secret"], signature_method=method, signature_type=SIGNATURE_TYPE_BODY)
body = urlencode(request["params"])
_, _, signed = client.sign(request["url"], http_method="POST", body=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
sys.stdout.write(signed)
