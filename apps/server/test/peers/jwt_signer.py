#!/usr/bin/env python3
"""Signs JSON Web Tokens with PyJWT, a JOSE implementation the project did not write (Debian's python3-jwt,
with python3-cryptography for EdDSA). Reads one JSON array of requests from stdin, each
  {"alg": "EdDSA" | "HS256" | "none", "key": <PEM private key, HMAC secret or null>, "headers": {...}, "payload": {...}}
and prints a JSON array of the compact tokens on stdout, in the same order."""
import json
import sys

import jwt

tokens = [
    jwt.encode(request["payload"], request["key"], algorithm=request["alg"], headers=request.get("headers") or None)
    for request in json.load(sys.stdin)
]
json.dump(tokens, sys.stdout)
