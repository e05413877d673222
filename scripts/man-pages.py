#!/usr/bin/env python3
"""The manual pages of the subcommands: aasa-verify(1), aasa-audit-summarize(1), ...

usage: man-pages.py GENERATED_DIR OUT_DIR

GENERATED_DIR holds swift-argument-parser's multi-page manual (`swift package generate-manual
--multi-page`: aasa.verify.1, aasa.audit.summarize.1, ...). Each subcommand's page is written to
OUT_DIR under git's naming (aasa-verify.1: `man aasa-verify`), with the sections a manual page
has (mdoc(7), in its order): the help's "Exit status:" paragraph as EXIT STATUS (for the
generator's generic `.Ex -std`), its EXAMPLES paragraph as EXAMPLES, and ENVIRONMENT and FILES
for what the command reads. The pages are named on stdout, one a line.

Written by hand because the generator has no way to add sections: it writes NAME, SYNOPSIS,
DESCRIPTION, a generic EXIT STATUS and SEE ALSO only. scripts/release.sh runs it;
scripts/test-release.sh checks the installed pages (man finds them, groff renders them without
warnings, every section is there).
"""
import pathlib
import re
import sys

DOCS = "/usr/share/doc/aasa/docs"

# What each variable means, and the option of the synopsis that says a command reads it.
ENVIRONMENT = [
    ("NO_COLOR", None, "When set (to anything), no colour with --color auto; it wins over CLICOLOR_FORCE."),
    ("CLICOLOR_FORCE", None, "When set and not 0, colour with --color auto even when the output is not a terminal."),
    ("TERM", None, "dumb (or unset): no colour and no progress bar with --color auto."),
    ("AASA_RULES_URL", "--rules-url", "Where the rules' documentation is published, for rule links in reports (as --rules-url)."),
    ("SSL_CERT_FILE", "--no-system-roots", "The system's CA bundle, as OpenSSL reads it (the system roots, unless --no-system-roots)."),
    ("SSL_CERT_DIR", "--no-system-roots", "The system's directory of hashed CA certificates, as OpenSSL reads it."),
    ("https_proxy, HTTPS_PROXY", "--proxy", "The HTTP proxy (CONNECT) to reach the domains through, unless --proxy or --no-proxy."),
    ("no_proxy, NO_PROXY", "--proxy", "Hosts and domains reached directly, not through the proxy."),
]


def mdoc_text(text):
    """Plain text as mdoc input: a line may not start with a dot or an apostrophe."""
    return "\n".join(("\\&" + line if line[:1] in (".", "'") else line) for line in text.split("\n"))


def paragraphs(description):
    """The DESCRIPTION's paragraphs (blank-line separated) up to its option list (.Bl)."""
    head, sep, rest = description.partition("\n.Bl ")
    return [p for p in head.split("\n\n")], sep + rest


def convert(source, name):
    text = source.read_text(encoding="utf-8")
    text = re.sub(r"^\.Dt (\S+) (\d)$", lambda m: f".Dt {m.group(1).replace('.', '-')} {m.group(2)}", text, flags=re.M)
    text = re.sub(r"^\.Xr aasa\.(\S+) (\d)", lambda m: f".Xr aasa-{m.group(1).replace('.', '-')} {m.group(2)}", text, flags=re.M)
    # The help names the documentation where the binary runs; a manual page names the installed one.
    text = re.sub(r"docs/([a-z-]+\.md) in aasa's source", DOCS + r"/\1", text)

    start = text.index(".Sh DESCRIPTION\n") + len(".Sh DESCRIPTION\n")
    end = text.index('.Sh "EXIT STATUS"\n')
    parts, options = paragraphs(text[start:end])
    exit_status = [p for p in parts if p.startswith("Exit status:")]
    examples = [p for p in parts if p.startswith("EXAMPLES")]
    kept = [p for p in parts if p not in exit_status and p not in examples]
    if not exit_status or not examples:
        sys.exit(f"man-pages.py: {source.name}: the help has no 'Exit status:' or no EXAMPLES paragraph")
    description = "\n\n".join(kept).rstrip("\n") + "\n" + options
    synopsis = text[text.index(".Sh SYNOPSIS"):start]

    sections = []
    used = [(n, what) for n, option, what in ENVIRONMENT if option is None or f"Fl {option[1:]}" in synopsis]
    sections.append(".Sh ENVIRONMENT\n.Bl -tag -width Ds\n" + "".join(f".It Ev {n}\n{mdoc_text(w)}\n" for n, w in used) + ".El\n")
    files = [(DOCS, "The documentation (README.md and docs/ of the source); share/doc/aasa/docs in the release tarball.")]
    if "Fl -config " in synopsis:
        files.insert(0, ("./.aasa.json", "The project's configuration, read when present (--config FILE instead): rules, their severities, the --fail-on level, a baseline."))
    sections.append(".Sh FILES\n.Bl -tag -width Ds\n" + "".join(f".It Pa {p}\n{mdoc_text(w)}\n" for p, w in files) + ".El\n")
    status = exit_status[0][len("Exit status:"):].strip()
    sections.append('.Sh "EXIT STATUS"\n' + mdoc_text(status[:1].upper() + status[1:]) + "\n")
    heading, _, commands = examples[0].partition("\n")
    where = re.sub(r"^EXAMPLES\s*\(?|\)?:\s*$", "", heading).strip()
    body = "\n".join(line[2:] if line.startswith("  ") else line for line in commands.rstrip("\n").split("\n"))
    sections.append(
        ".Sh EXAMPLES\n" + (mdoc_text(where[:1].upper() + where[1:] + ":") + "\n" if where else "")
        + ".Bd -literal -offset indent\n" + mdoc_text(body) + "\n.Ed\n")

    tail = text[end:]
    tail = re.sub(r'^\.Sh "EXIT STATUS"\n\.Ex -std\n?', "", tail, flags=re.M)
    page = text[:start] + description + "".join(sections) + tail
    return page if page.endswith("\n") else page + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().split("\n\n")[1])
    generated, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    pages = sorted(p for p in generated.glob("aasa.*.1") if p.name != "aasa.help.1")
    if not pages:
        sys.exit(f"man-pages.py: no subcommand page in {generated}")
    for page in pages:
        name = page.name[: -len(".1")].replace(".", "-") + ".1"
        (out / name).write_text(convert(page, name), encoding="utf-8")
        print(out / name)


if __name__ == "__main__":
    main()
