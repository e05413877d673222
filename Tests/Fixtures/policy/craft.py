#!/usr/bin/env python3
"""craft.py: the small ASN.1 edits make-policy-fixtures.sh needs (Python standard library only).

Every signature is made by the openssl CLI; this script only lays out DER. Subcommands:

  signed-attrs OUT CONTENT CERT KEY VARIANT
      SignedData (content embedded, one signer, the signer certificate) whose signed or
      unsigned attributes break one RFC 5652 rule, signed correctly with SHA-256 (over the
      signed attributes, or over the content when there are none).
      VARIANT: see the table in cmd_signed_attrs (good, no-content-type, unsigned-signing-time, ...)
  raw-signer OUT CONTENT CERT DIGEST_OID SIGNATURE_OID SIGNATURE_FILE
      SignedData without signed attributes whose SignerInfo names the given algorithms and
      carries the signature bytes of SIGNATURE_FILE (made by openssl beforehand).
  econtent OUT CERT ECONTENT_OID ECONTENT_DER_HEX
      SignedData whose encapsulated content is ECONTENT_OID with [0] EXPLICIT the given DER
      (Authenticode, catalog, DigestedData); the SignerInfo's signature is 64 zero bytes (the
      structure is refused before any signature is checked).
  content-info OUT OID [CONTENT_DER_HEX]
      A bare ContentInfo: the OID and, when given, [0] EXPLICIT the content.
  append-to-certificates OUT IN EXTRA_HEX
      IN (a DER SignedData) with the DER element EXTRA_HEX added to its certificates field.
  strip-dsa-params OUT CERT ISSUER_KEY
      CERT re-issued (same TBS, re-signed by ISSUER_KEY with SHA-256) with the DSA parameters
      removed from its subjectPublicKeyInfo: a key that inherits its parameters (RFC 3279).
"""
import subprocess
import sys
import tempfile
import os


def length_bytes(n):
    if n < 0x80:
        return bytes([n])
    out = []
    while n:
        out.insert(0, n & 0xFF)
        n >>= 8
    return bytes([0x80 | len(out)] + out)


def tlv(tag, content):
    return bytes([tag]) + length_bytes(len(content)) + content


def seq(*items):
    return tlv(0x30, b"".join(items))


def set_of(*items, sort=True):
    items = sorted(items) if sort else list(items)
    return tlv(0x31, b"".join(items))


def integer(value):
    raw = value.to_bytes((value.bit_length() + 8) // 8 or 1, "big")
    return tlv(0x02, raw)


def octets(data):
    return tlv(0x04, data)


def oid(dotted):
    parts = [int(p) for p in dotted.split(".")]
    body = [40 * parts[0] + parts[1]] + parts[2:]
    out = b""
    for value in body:
        chunk = [value & 0x7F]
        value >>= 7
        while value:
            chunk.insert(0, 0x80 | (value & 0x7F))
            value >>= 7
        out += bytes(chunk)
    return tlv(0x06, out)


def explicit(number, content):
    return tlv(0xA0 | number, content)


def algorithm(dotted, null_params=True):
    return seq(oid(dotted), b"\x05\x00") if null_params else seq(oid(dotted))


def read(der, offset=0):
    """(tag, header_length, content_length) of the element at offset (definite lengths only)."""
    tag = der[offset]
    first = der[offset + 1]
    if first < 0x80:
        return tag, 2, first
    count = first & 0x7F
    length = int.from_bytes(der[offset + 2: offset + 2 + count], "big")
    return tag, 2 + count, length


def children(der):
    """The elements inside the constructed element `der` (whole TLVs)."""
    tag, header, length = read(der)
    body = der[header: header + length]
    out = []
    offset = 0
    while offset < len(body):
        _, h, l = read(body, offset)
        out.append(body[offset: offset + h + l])
        offset += h + l
    return out


def pem_to_der(path):
    text = open(path, "rb").read()
    if text.startswith(b"-----"):
        return subprocess.run(["openssl", "x509", "-in", path, "-outform", "DER"], check=True,
                              capture_output=True).stdout
    return text


def issuer_and_serial(cert):
    tbs = children(cert)[0]
    fields = children(tbs)
    if fields[0][0] == 0xA0:
        fields = fields[1:]
    serial, _, issuer = fields[0], fields[1], fields[2]
    return seq(issuer, serial)


def sign(data, key, md="sha256"):
    with tempfile.NamedTemporaryFile(delete=False) as handle:
        handle.write(data)
        path = handle.name
    try:
        return subprocess.run(["openssl", "dgst", "-" + md, "-sign", key, path], check=True,
                              capture_output=True).stdout
    finally:
        os.unlink(path)


def sha256(data):
    import hashlib
    return hashlib.sha256(data).digest()


DATA = "1.2.840.113549.1.7.1"
SIGNED_DATA = "1.2.840.113549.1.7.2"
SHA256 = "2.16.840.1.101.3.4.2.1"
RSA = "1.2.840.113549.1.1.1"
CONTENT_TYPE = "1.2.840.113549.1.9.3"
MESSAGE_DIGEST = "1.2.840.113549.1.9.4"
SIGNING_TIME = "1.2.840.113549.1.9.5"
COUNTERSIGNATURE = "1.2.840.113549.1.9.6"
SIGNING_CERTIFICATE = "1.2.840.113549.1.9.16.2.12"


def signed_data(econtent_type, econtent, cert, signer_info, digest_oid=SHA256):
    encapsulated = seq(oid(econtent_type), explicit(0, econtent)) if econtent is not None else seq(oid(econtent_type))
    body = seq(
        integer(1),
        set_of(algorithm(digest_oid)),
        encapsulated,
        tlv(0xA0, cert),
        set_of(signer_info),
    )
    return seq(oid(SIGNED_DATA), explicit(0, body))


def attribute(type_oid, *values):
    return seq(oid(type_oid), set_of(*values))


def cmd_signed_attrs(out, content_path, cert_path, key, variant):
    content = open(content_path, "rb").read()
    cert = pem_to_der(cert_path)
    digest = octets(sha256(content))
    content_type = attribute(CONTENT_TYPE, oid(DATA))
    message_digest = attribute(MESSAGE_DIGEST, digest)
    signing_time = attribute(SIGNING_TIME, tlv(0x17, b"250101000000Z"))
    good = [content_type, message_digest, signing_time]
    # Any SEQUENCE stands for a countersignature's or an ESS attribute's value: the rules of
    # RFC 5652 section 11 are about where an attribute stands and how many there are.
    opaque = seq(integer(1))
    # (signed attributes, or None for none: the AASA recipe; unsigned attributes)
    signed, unsigned = {
        "good": (good, []),
        "no-content-type": ([message_digest, signing_time], []),
        "two-content-type-values": ([attribute(CONTENT_TYPE, oid(DATA), oid("1.2.840.113549.1.7.5")),
                                     message_digest, signing_time], []),
        "two-content-type-attributes": ([content_type, attribute(CONTENT_TYPE, oid("1.2.840.113549.1.7.5")),
                                         message_digest, signing_time], []),
        "content-type-mismatch": ([attribute(CONTENT_TYPE, oid("1.2.840.113549.1.7.5")), message_digest,
                                   signing_time], []),
        "no-message-digest": ([content_type, signing_time], []),
        # Not a time at all: "2025-13-45" is no UTCTime (YYMMDDHHMMSSZ).
        "bad-signing-time": ([content_type, message_digest, attribute(SIGNING_TIME, tlv(0x17, b"2025-13-45"))], []),
        # RFC 5652 section 11.3: dates from 1950 to 2049 MUST be UTCTime.
        "signing-time-generalized-1999": ([content_type, message_digest,
                                           attribute(SIGNING_TIME, tlv(0x18, b"19991231235959Z"))], []),
        # RFC 5652 section 11: placement (signed only, unsigned only) and multiplicity.
        "two-message-digest-attributes": ([content_type, message_digest,
                                           attribute(MESSAGE_DIGEST, octets(bytes(32))), signing_time], []),
        "two-signing-time-attributes": ([content_type, message_digest, signing_time,
                                         attribute(SIGNING_TIME, tlv(0x17, b"250102000000Z"))], []),
        "two-signing-time-values": ([content_type, message_digest,
                                     attribute(SIGNING_TIME, tlv(0x17, b"250101000000Z"),
                                               tlv(0x17, b"250102000000Z"))], []),
        "unsigned-signing-time": (None, [signing_time]),
        "unsigned-signing-time-beside-signed": ([content_type, message_digest], [signing_time]),
        "unsigned-content-type": (good, [content_type]),
        "unsigned-message-digest": (good, [message_digest]),
        "signed-countersignature": (good + [attribute(COUNTERSIGNATURE, opaque)], []),
        "unsigned-countersignature": (None, [attribute(COUNTERSIGNATURE, opaque)]),
        "unsigned-signing-certificate": (None, [attribute(SIGNING_CERTIFICATE, opaque)]),
        "two-signing-certificate-attributes": (good + [attribute(SIGNING_CERTIFICATE, opaque),
                                                       attribute(SIGNING_CERTIFICATE, seq(integer(2)))], []),
    }[variant]
    fields = [integer(1), issuer_and_serial(cert), algorithm(SHA256)]
    if signed is None:
        signature = sign(content, key)  # no signed attributes: the signature covers the content
    else:
        attr_set = set_of(*signed)  # DER: a SET OF is sorted; this is what the signature covers
        signature = sign(attr_set, key)
        fields.append(tlv(0xA0, attr_set[read(attr_set)[1]:]))  # [0] IMPLICIT: the same SET, another tag
    fields += [algorithm(RSA), octets(signature)]
    if unsigned:
        unsigned_set = set_of(*unsigned)
        fields.append(tlv(0xA1, unsigned_set[read(unsigned_set)[1]:]))  # [1] IMPLICIT, not signed
    open(out, "wb").write(signed_data(DATA, octets(content), cert, seq(*fields)))


def cmd_raw_signer(out, content_path, cert_path, digest_oid, signature_oid, signature_file):
    content = open(content_path, "rb").read()
    cert = pem_to_der(cert_path)
    signature = open(signature_file, "rb").read()
    # Ed25519 (RFC 8410) takes no parameters; the others the NULL the RSA recipe writes.
    no_params = signature_oid in ("1.3.101.112", "1.3.101.113") or signature_oid.startswith("1.2.840.10040.4.")
    signer_info = seq(
        integer(1),
        issuer_and_serial(cert),
        algorithm(digest_oid, null_params=False),
        algorithm(signature_oid, null_params=not no_params),
        octets(signature),
    )
    open(out, "wb").write(signed_data(DATA, octets(content), cert, signer_info, digest_oid=digest_oid))


def cmd_econtent(out, cert_path, econtent_oid, econtent_hex):
    cert = pem_to_der(cert_path)
    signer_info = seq(integer(1), issuer_and_serial(cert), algorithm(SHA256), algorithm(RSA), octets(bytes(64)))
    open(out, "wb").write(signed_data(econtent_oid, bytes.fromhex(econtent_hex), cert, signer_info))


def cmd_content_info(out, dotted, content_hex=None):
    parts = [oid(dotted)]
    if content_hex:
        parts.append(explicit(0, bytes.fromhex(content_hex)))
    open(out, "wb").write(seq(*parts))


def cmd_strip_dsa_params(out, cert_path, issuer_key):
    cert = pem_to_der(cert_path)
    tbs = children(cert)[0]
    fields = children(tbs)
    index = 6 if fields[0][0] == 0xA0 else 5  # version?, serial, signature, issuer, validity, subject, spki
    spki = fields[index]
    alg, key = children(spki)
    alg_oid = children(alg)[0]
    fields[index] = seq(seq(alg_oid), key)
    new_tbs = seq(*fields)
    signature = sign(new_tbs, issuer_key)
    sha256_rsa = algorithm("1.2.840.113549.1.1.11")
    open(out, "wb").write(seq(new_tbs, sha256_rsa, tlv(0x03, b"\x00" + signature)))


def cmd_append_to_certificates(out, in_path, extra_hex):
    """IN's SignedData with the DER EXTRA_HEX added to its certificates field, after the first."""
    der = open(in_path, "rb").read()
    content_type, explicit0 = children(der)
    signed = children(explicit0)[0]
    fields = children(signed)
    index = next(i for i, field in enumerate(fields) if field[0] == 0xA0)
    fields[index] = tlv(0xA0, b"".join(children(fields[index])) + bytes.fromhex(extra_hex))
    open(out, "wb").write(seq(content_type, explicit(0, seq(*fields))))


def main(argv):
    commands = {
        "append-to-certificates": cmd_append_to_certificates,
        "signed-attrs": cmd_signed_attrs,
        "raw-signer": cmd_raw_signer,
        "econtent": cmd_econtent,
        "content-info": cmd_content_info,
        "strip-dsa-params": cmd_strip_dsa_params,
    }
    if len(argv) < 2 or argv[1] not in commands:
        sys.stderr.write(__doc__)
        return 64
    commands[argv[1]](*argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
