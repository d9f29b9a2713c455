#!/usr/bin/env python3
"""A learning platform's LTI 1.3 id_token, written and signed in Python with PyJWT (Debian's python3-jwt, RS256
through python3-cryptography): a second signer the project did not write, beside the jose-based simulator.
Reads one JSON object from stdin:
  {"key": <PEM private key>, "kid": ..., "issuer": ..., "audience": ..., "deployment_id": ..., "nonce": ...,
   "sub": ..., "name": ..., "roles": [...], "target_link_uri": ..., "message_type": "LtiResourceLinkRequest" | ...,
   "deep_link_return_url": <for a deep linking request>}
and prints the compact token on stdout."""
import json
import sys
import time
import uuid

import jwt

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
LTI_DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"

request = json.load(sys.stdin)
now = int(time.time())
message_type = request.get("message_type", "LtiResourceLinkRequest")
claims = {
    "iss": request["issuer"],
    "aud": request["audience"],
    "sub": request["sub"],
    "iat": now,
    "exp": now + 300,
    "nonce": request["nonce"],
    "name": request["name"],
    "email": "python.platform@school.example.org",
    LTI + "message_type": message_type,
    LTI + "version": "1.3.0",
    LTI + "deployment_id": request["deployment_id"],
    LTI + "target_link_uri": request["target_link_uri"],
    LTI + "roles": request["roles"],
    LTI + "context": {"id": "python-course", "label": "PY 1", "title": "Python course"},
    LTI + "tool_platform": {"guid": str(uuid.uuid4()), "name": "Python platform"},
}
if message_type == "LtiResourceLinkRequest":
    claims[LTI + "resource_link"] = {"id": "python-link", "title": "Books"}
else:
    claims[LTI_DL + "deep_linking_settings"] = {
        "deep_link_return_url": request["deep_link_return_url"],
        "accept_types": ["ltiResourceLink"],
        "accept_presentation_document_targets": ["iframe", "window"],
        "data": "python-data",
    }

token = jwt.encode(claims, request["key"], algorithm="RS256", headers={"kid": request["kid"], "typ": "JWT"})
sys.stdout.write(token)
