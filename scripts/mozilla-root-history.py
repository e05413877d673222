#!/usr/bin/env python3
"""Regenerates the historical root store that `--historical` verifies against.

Two steps, each runnable alone:

  scripts/mozilla-root-history.py fetch [--repo DIR]
      Reads every version of ca-bundle.crt in the git history of github.com/bagder/ca-bundle
      (curl's "CA certificates extracted from Mozilla", https://curl.se/docs/caextract.html;
      cloned into a temporary directory unless --repo names a clone) and writes
      data/mozilla-root-history/roots.pem and history.json: every root that was in any
      snapshot, once, and the date ranges of the snapshots that held it.

  scripts/mozilla-root-history.py generate
      Compiles data/mozilla-root-history/ into Sources/CAASACrypto/mozilla_roots.c: the DER of
      each root and its trust ranges as const arrays, which the C compiler puts in .rodata.
      SwiftPM builds that file like any other C source of CAASACrypto; nothing is parsed until
      a verification asks for the historical store.

Without an argument both run, fetch first. Needs python3 and the openssl CLI (for the RFC 2253
subject of each root); git for fetch. The data is Mozilla's, MPL-2.0: keep
data/mozilla-root-history/README.md beside it and the NOTICE entry.
"""

import base64
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data", "mozilla-root-history")
C_SOURCE = os.path.join(ROOT, "Sources", "CAASACrypto", "mozilla_roots.c")
UPSTREAM = "https://github.com/bagder/ca-bundle.git"
PEM = re.compile(rb"-----BEGIN CERTIFICATE-----\s*(.*?)\s*-----END CERTIFICATE-----", re.S)
MONTHS = {m: i + 1 for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())}


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def snapshot_date(bundle, commit_date):
    """The "Certificate data from Mozilla as of/last updated on" date of the header, else the commit's."""
    header = bundle[:4096].decode("latin-1")
    m = re.search(r"Certificate data from Mozilla (?:as of|last updated on):?\s*\w{3}\s+(\w{3})\s+(\d+)\s+[\d:]+\s+(\d{4})", header)
    if m:
        return datetime.date(int(m.group(3)), MONTHS[m.group(1)], int(m.group(2))).isoformat()
    return commit_date


def subject_of(der):
    out = subprocess.run(
        ["openssl", "x509", "-inform", "DER", "-noout", "-subject", "-nameopt", "RFC2253"],
        input=der, check=True, capture_output=True).stdout.decode()
    return out.strip().removeprefix("subject=")


def fetch(repo):
    if repo is None:
        scratch = tempfile.mkdtemp(prefix="ca-bundle-")
        subprocess.run(["git", "clone", "--quiet", UPSTREAM, scratch], check=True)
        repo = scratch
    log = git(repo, "log", "--reverse", "--format=%H %cs", "--", "ca-bundle.crt").decode().split("\n")
    snapshots, membership, ders = [], [], {}
    for line in filter(None, log):
        commit, commit_date = line.split()
        bundle = git(repo, "show", f"{commit}:ca-bundle.crt")
        held = set()
        for block in PEM.findall(bundle):
            der = base64.b64decode(b"".join(block.split()))
            digest = hashlib.sha256(der).hexdigest()
            ders.setdefault(digest, der)
            held.add(digest)
        snapshots.append({"date": snapshot_date(bundle, commit_date), "commit": commit, "roots": len(held)})
        membership.append(held)
    roots = []
    for digest, der in ders.items():
        ranges, current = [], None
        for snapshot, held in zip(snapshots, membership):
            if digest in held:
                if current is None:
                    current = {"from": snapshot["date"], "lastSeen": snapshot["date"], "removedBy": None}
                current["lastSeen"] = snapshot["date"]
            elif current is not None:
                current["removedBy"] = snapshot["date"]
                ranges.append(current)
                current = None
        if current is not None:
            ranges.append(current)
        roots.append({"sha256": digest, "subject": subject_of(der), "inBundle": ranges})
    roots.sort(key=lambda r: (r["inBundle"][0]["from"], r["sha256"]))
    os.makedirs(DATA, exist_ok=True)
    with open(os.path.join(DATA, "history.json"), "w") as f:
        json.dump({"snapshots": snapshots, "roots": roots}, f, indent=1)
    first, last = snapshots[0]["date"], snapshots[-1]["date"]
    with open(os.path.join(DATA, "roots.pem"), "w") as f:
        f.write(f"# Every root certificate of Mozilla's CA bundle (website trust) from {first} to {last}, once each.\n")
        f.write("# Source and licence: README.md beside this file. Dates: history.json.\n")
        for root in roots:
            spans = "; ".join(
                f"{r['from']} .. {r['lastSeen']} " + (f"(gone by {r['removedBy']})" if r["removedBy"] else "(still in)")
                for r in root["inBundle"])
            b64 = base64.b64encode(ders[root["sha256"]]).decode()
            body = "\n".join(b64[i:i + 64] for i in range(0, len(b64), 64))
            f.write(f"\n# {root['subject']}\n# SHA-256 {root['sha256']}\n# in the bundle: {spans}\n")
            f.write(f"-----BEGIN CERTIFICATE-----\n{body}\n-----END CERTIFICATE-----\n")
    print(f"{len(roots)} roots in {len(snapshots)} snapshots, {first} .. {last} -> {DATA}")


def epoch(day):
    return int(datetime.datetime.fromisoformat(day).replace(tzinfo=datetime.timezone.utc).timestamp())


def generate():
    history = json.load(open(os.path.join(DATA, "history.json")))
    pem = open(os.path.join(DATA, "roots.pem"), "rb").read()
    ders = {}
    for block in PEM.findall(pem):
        der = base64.b64decode(b"".join(block.split()))
        ders[hashlib.sha256(der).hexdigest()] = der
    roots = history["roots"]
    if len(ders) != len(roots) or any(r["sha256"] not in ders for r in roots):
        sys.exit("roots.pem and history.json do not list the same certificates")
    out = [
        "// GENERATED by scripts/mozilla-root-history.py from data/mozilla-root-history/ (Mozilla's CA",
        "// bundle as extracted by curl, MPL-2.0: see data/mozilla-root-history/README.md). Do not edit.",
        "//",
        "// Why a C source and not a resource file: the roots and their trust ranges are const data the",
        "// linker puts in .rodata, in the binary itself (the static release needs no file beside it,",
        "// and the library works the same from any package that depends on it). Nothing here runs",
        "// at start-up: the pages are mapped, not read, until `--historical` asks for the store, and",
        "// only then are the certificates parsed (once per process, by HistoricalTrustStore.mozilla).",
        '#include "internal.h"',
        "",
    ]
    periods, records = [], []
    for index, root in enumerate(roots):
        der = ders[root["sha256"]]
        literal = "".join(f"\\x{b:02x}" for b in der)
        lines = [literal[i:i + 96] for i in range(0, len(literal), 96)]
        out.append(f"// {root['subject']}")
        out.append(f"static const unsigned char root_{index}[{len(der)}] =")
        out += [f'    "{line}"' for line in lines]
        out[-1] += ";"
        first = len(periods)
        for r in root["inBundle"]:
            periods.append((epoch(r["from"]), epoch(r["lastSeen"]), epoch(r["removedBy"]) if r["removedBy"] else 0))
        records.append(f"    {{root_{index}, {len(der)}, {first}, {len(root['inBundle'])}}},")
    out.append("")
    out.append("static const caasa_trust_period periods[] = {")
    out += [f"    {{{a}, {b}, {c}}}," for a, b, c in periods]
    out.append("};")
    out.append("")
    out.append("static const struct { const unsigned char *der; size_t length; size_t first_period, period_count; } roots[] = {")
    out += records
    out.append("};")
    out.append("")
    out.append("static const int64_t snapshots[] = {")
    out += [f"    {epoch(s['date'])},  // {s['date']} {s['commit'][:12]}" for s in history["snapshots"]]
    out.append("};")
    out.append("")
    out.append("size_t caasa_mozilla_root_count(void) { return sizeof roots / sizeof roots[0]; }")
    out.append("")
    out.append("const unsigned char *caasa_mozilla_root_der(size_t index, size_t *length) {")
    out.append("    if (index >= caasa_mozilla_root_count()) { *length = 0; return NULL; }")
    out.append("    *length = roots[index].length;")
    out.append("    return roots[index].der;")
    out.append("}")
    out.append("")
    out.append("size_t caasa_mozilla_root_periods(size_t index, const caasa_trust_period **first) {")
    out.append("    if (index >= caasa_mozilla_root_count()) { *first = NULL; return 0; }")
    out.append("    *first = &periods[roots[index].first_period];")
    out.append("    return roots[index].period_count;")
    out.append("}")
    out.append("")
    out.append("size_t caasa_mozilla_snapshots(const int64_t **dates) {")
    out.append("    *dates = snapshots;")
    out.append("    return sizeof snapshots / sizeof snapshots[0];")
    out.append("}")
    with open(C_SOURCE, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(roots)} roots, {len(periods)} trust ranges, {len(history['snapshots'])} snapshots -> {C_SOURCE}")


if __name__ == "__main__":
    args = sys.argv[1:]
    repo = None
    if "--repo" in args:
        repo = args[args.index("--repo") + 1]
        del args[args.index("--repo"):args.index("--repo") + 2]
    step = args[0] if args else "all"
    if step in ("fetch", "all"):
        fetch(repo)
    if step in ("generate", "all"):
        generate()
    if step not in ("fetch", "generate", "all"):
        sys.exit(__doc__)
