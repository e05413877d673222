#!/usr/bin/env python3
"""constructed-subject.py IN.pem KEY OUT.pem: IN (a self-signed certificate) with every
UTF8String of its subject and issuer re-encoded in BER's constructed form (two OCTET STRING
segments), re-signed with KEY (SHA-256 with RSA). OpenSSL reads such a name and compares it
equal to the primitive form; aasa's bundle index cannot fingerprint it, so it must compare it
(Tests/AASACLITests/SystemRootsTests). Python standard library and the openssl CLI only."""
import subprocess
import sys
import tempfile
import os


def read(der, offset):
    tag = der[offset]
    first = der[offset + 1]
    if first < 0x80:
        return tag, 2, first
    count = first & 0x7F
    return tag, 2 + count, int.from_bytes(der[offset + 2: offset + 2 + count], "big")


def tlv(tag, content):
    n = len(content)
    if n < 0x80:
        return bytes([tag, n]) + content
    length = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(length)]) + length + content


def elements(der):
    out, offset = [], 0
    while offset < len(der):
        tag, header, length = read(der, offset)
        out.append((tag, der[offset + header: offset + header + length]))
        offset += header + length
    return out


def constructed_strings(name):
    """The Name with each UTF8String value split into a constructed encoding."""
    rdns = []
    for _, rdn in elements(name):
        attributes = []
        for _, attribute in elements(rdn):
            (type_tag, type_value), (value_tag, value) = elements(attribute)
            if value_tag == 0x0C and len(value) >= 2:
                half = len(value) // 2
                encoded = tlv(0x2C, tlv(0x04, value[:half]) + tlv(0x04, value[half:]))
            else:
                encoded = tlv(value_tag, value)
            attributes.append(tlv(0x30, tlv(type_tag, type_value) + encoded))
        rdns.append(tlv(0x31, b"".join(attributes)))
    return b"".join(rdns)


def main(source, key, out):
    der = subprocess.run(["openssl", "x509", "-in", source, "-outform", "DER"], check=True,
                         capture_output=True).stdout
    (_, cert), = elements(der)
    (tbs_tag, tbs), algorithm, _ = elements(cert)
    fields = elements(tbs)
    offset = 1 if fields[0][0] == 0xA0 else 0  # version
    for index in (offset + 2, offset + 4):  # issuer, subject
        fields[index] = (0x30, constructed_strings(fields[index][1]))
    new_tbs = tlv(0x30, b"".join(tlv(tag, value) for tag, value in fields))
    with tempfile.NamedTemporaryFile(delete=False) as handle:
        handle.write(new_tbs)
    try:
        signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key, handle.name], check=True,
                                   capture_output=True).stdout
    finally:
        os.unlink(handle.name)
    new = tlv(0x30, new_tbs + tlv(algorithm[0], algorithm[1]) + tlv(0x03, b"\x00" + signature))
    subprocess.run(["openssl", "x509", "-inform", "DER", "-out", out], input=new, check=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
