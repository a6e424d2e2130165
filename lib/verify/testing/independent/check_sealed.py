#!/usr/bin/env python3
"""An independent check of a sealed entry's proof bundle: Python's hashlib and json, and the
openssl command for Ed25519, sharing no code with lib/verify (the implementation under test).

usage: check_sealed.py bundle.json
A bundle without `seal` is a sealed leaf alone, as anyone can take it from the log's tiles:
"ok sealed entry alone" when its payload is a sealed entry's, it is at log_index in the tree
and its signature verifies under key.
Prints "ok" and exits 0 when the bundle's opening gives the sealed leaf's commitment, the
sealed leaf's id and created_at follow its version's rule (hallmark.sealed/v1: the attestation's
own; hallmark.sealed/v2: a random UUIDv4 other than the attestation's id, and the attestation's
created_at to the second), the sealed leaf is at log_index in the tree of the inclusion proof
(RFC 9162), and both signatures (the attestation's by key, the sealed leaf's by seal.key) verify
over DSSE PAE; else prints why and exits 1. The checkpoint's own signature is lib/verify's and
the CLI's to check.
"""
import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

TYPES = ("hallmark.sealed/v1", "hallmark.sealed/v2")
UUID_V4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
MILLISECOND_TIME = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{3}Z$")
PAYLOAD_TYPE = b"application/vnd.hallmark.attestation.v1+json"


def jcs(value):
    # RFC 8785 for what these bundles hold (objects, strings, small integers): sorted members,
    # no white space, UTF-8. Refuse anything where Python's printing could differ from RFC 8785.
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if any(ord(c) > 0x7E for c in text) or isinstance(value, float):
        raise SystemExit("unsupported: non-ASCII text (this checker does not sort by UTF-16)")
    return text.encode("utf-8")


def leaf_data(a):
    return jcs({k: a[k] for k in ("id", "issuer_id", "kid", "payload", "created_at", "signature")})


def pae(a):
    body = jcs({k: a[k] for k in ("id", "issuer_id", "kid", "payload", "created_at")})
    return b"DSSEv1 %d %s %d %s" % (len(PAYLOAD_TYPE), PAYLOAD_TYPE, len(body), body)


def root_from_path(index, size, leaf_hash, path):
    # RFC 9162, 2.1.3.2: verifying an inclusion proof.
    if index >= size:
        return None
    fn, sn, r = index, size - 1, leaf_hash
    for p in path:
        if sn == 0:
            return None
        if fn % 2 == 1 or fn == sn:
            r = hashlib.sha256(b"\x01" + p + r).digest()
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = hashlib.sha256(b"\x01" + r + p).digest()
        fn >>= 1
        sn >>= 1
    return r if sn == 0 else None


def ed25519_ok(pem, message, signature_b64):
    with tempfile.TemporaryDirectory() as d:
        paths = {n: os.path.join(d, n) for n in ("key.pem", "msg", "sig")}
        open(paths["key.pem"], "w").write(pem)
        open(paths["msg"], "wb").write(message)
        open(paths["sig"], "wb").write(base64.b64decode(signature_b64, validate=True))
        r = subprocess.run(
            ["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", paths["key.pem"], "-rawin", "-in", paths["msg"], "-sigfile", paths["sig"]],
            capture_output=True,
        )
        return r.returncode == 0


def included(leaf, proof, tree_head):
    leaf_hash = hashlib.sha256(b"\x00" + leaf_data(leaf)).digest()
    path_hashes = [bytes.fromhex(h) for h in proof["hashes"]]
    root = root_from_path(proof["log_index"], proof["tree_size"], leaf_hash, path_hashes)
    return root is not None and root.hex() == proof["root_hash"] and proof["root_hash"] == tree_head["root_hash"]


def thumbprint(pem):
    # RFC 7638 over the Ed25519 key's JWK (RFC 8037): the raw key is the SPKI's last 32 bytes.
    der = base64.b64decode("".join(l for l in pem.strip().splitlines() if not l.startswith("-----")))
    x = base64.urlsafe_b64encode(der[-32:]).rstrip(b"=").decode()
    jwk = '{"crv":"Ed25519","kty":"OKP","x":"%s"}' % x
    return base64.urlsafe_b64encode(hashlib.sha256(jwk.encode()).digest()).rstrip(b"=").decode()


def alone(b):
    a, proof, key = b["attestation"], b["inclusion_proof"], b["key"]
    p = a["payload"]
    if set(p) != {"commitment", "type"} or p["type"] not in TYPES or not re.match(r"^sha256:[0-9a-f]{64}$", p["commitment"]):
        return "the leaf is not a sealed entry's"
    if a["log_index"] != proof["log_index"]:
        return "the leaf's log_index is not the inclusion proof's"
    if key["kid"] != a["kid"] or key["issuer_id"] != a["issuer_id"] or thumbprint(key["public_key"]) != key["kid"]:
        return "the key is not the one the sealed leaf names"
    if not included(a, proof, b["signed_tree_head"]):
        return "the sealed leaf is not at log_index in the tree"
    if not ed25519_ok(b["key"]["public_key"], pae(a), a["signature"]):
        return "the sealed leaf's signature does not verify under key"
    return None


def main(path):
    b = json.load(open(path, encoding="utf-8"))
    if "seal" not in b:
        return alone(b)
    a, seal, proof = b["attestation"], b["seal"], b["inclusion_proof"]
    salt = base64.b64decode(seal["salt"], validate=True)
    if len(salt) != 32:
        return "the salt is not 32 bytes"
    kind = seal["leaf"]["payload"].get("type")
    if kind not in TYPES:
        return "the sealed leaf's type is not a sealed entry's"
    commitment = "sha256:" + hashlib.sha256(kind.encode() + b"\x00" + salt + leaf_data(a)).hexdigest()
    if seal["leaf"]["payload"] != {"commitment": commitment, "type": kind}:
        return "the opening does not give the sealed leaf's commitment"
    if kind == "hallmark.sealed/v1":
        if seal["leaf"]["id"] != a["id"] or seal["leaf"]["created_at"] != a["created_at"]:
            return "the v1 sealed leaf's id or created_at is not the attestation's"
    else:
        second = MILLISECOND_TIME.match(a["created_at"])
        if not UUID_V4.match(seal["leaf"]["id"]) or seal["leaf"]["id"] == a["id"]:
            return "the v2 sealed leaf's id is not a random UUID of its own"
        if second is None or seal["leaf"]["created_at"] != second.group(1) + ".000Z":
            return "the v2 sealed leaf's created_at is not the attestation's second"
    if not included(seal["leaf"], proof, b["signed_tree_head"]):
        return "the sealed leaf is not at log_index in the tree"
    if not ed25519_ok(seal["key"]["public_key"], pae(seal["leaf"]), seal["leaf"]["signature"]):
        return "the sealed leaf's signature does not verify under seal.key"
    if not ed25519_ok(b["key"]["public_key"], pae(a), a["signature"]):
        return "the attestation's signature does not verify under key"
    return None


if __name__ == "__main__":
    path = sys.argv[1]
    problem = main(path)
    kind = "" if "seal" in json.load(open(path, encoding="utf-8")) else " sealed entry alone"
    print(problem or "ok" + kind)
    sys.exit(1 if problem else 0)
