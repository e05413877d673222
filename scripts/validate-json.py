#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema with Debian's python3-jsonschema.

    scripts/validate-json.py SCHEMA [FILE ...]     # each FILE one JSON document ('-' or none: stdin)
    scripts/validate-json.py --jsonl SCHEMA [FILE]  # each line of FILE one document
    scripts/validate-json.py --check SCHEMA ...     # each SCHEMA a valid schema whose $refs all resolve

The schema's own "$schema" chooses the draft (SARIF's is draft-07, docs/schemas' are
2020-12). Every error is one line: the document, the JSON pointer of the failing value and
the message. Exit status: 0 all valid, 1 an invalid document, 2 a file, a schema or the
jsonschema module missing or unreadable. Used by the tests (Tests/AASATestSupport) and by
docs/ci.md; nothing here reads the network: "$ref"s resolve inside the schema and, through a
local `referencing` registry, to the schemas beside it (every *.json of its directory with a
"$id", such as docs/schemas/common.schema.json), never to an address.
"""
import json
import os
import sys


def sibling_registry(schema_path):
    """A registry of the schemas in `schema_path`'s directory, by their "$id" (None without
    the referencing module, which jsonschema 4.18 and later depend on)."""
    try:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
    except ImportError:
        return None
    directory = os.path.dirname(os.path.abspath(schema_path))
    resources = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".json"):
            continue
        try:
            with open(os.path.join(directory, name), encoding="utf-8") as handle:
                contents = json.load(handle)
        except (OSError, ValueError):
            continue
        if isinstance(contents, dict) and isinstance(contents.get("$id"), str):
            resources.append((contents["$id"], Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Registry().with_resources(resources)


def references(node):
    """Every "$ref" value in a schema."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from references(value)
    elif isinstance(node, list):
        for value in node:
            yield from references(value)


def check(paths):
    """Each schema is valid for its draft and each of its "$ref"s resolves (locally)."""
    import jsonschema
    from referencing.exceptions import Unresolvable

    bad = False
    for path in paths:
        try:
            with open(path, encoding="utf-8") as handle:
                schema = json.load(handle)
            validator_class = jsonschema.validators.validator_for(schema)
            validator_class.check_schema(schema)
        except (OSError, ValueError, jsonschema.exceptions.SchemaError) as error:
            print(f"{path}: not a usable schema: {error}", file=sys.stderr)
            bad = True
            continue
        registry = sibling_registry(path)
        if registry is None:
            print(f"{path}: the referencing module is missing: cannot resolve $refs", file=sys.stderr)
            return 2
        resolver = registry.resolver(base_uri=schema.get("$id", ""))
        for reference in references(schema):
            try:
                resolver.lookup(reference)
            except Unresolvable as error:
                print(f"{path}: $ref {reference} does not resolve ({type(error).__name__})", file=sys.stderr)
                bad = True
    return 1 if bad else 0


def main(argv):
    jsonl = False
    if argv and argv[0] == "--check":
        return check(argv[1:]) if argv[1:] else 2
    if argv and argv[0] == "--jsonl":
        jsonl = True
        argv = argv[1:]
    if not argv:
        print("usage: validate-json.py [--jsonl] SCHEMA [FILE ...] | --check SCHEMA ...", file=sys.stderr)
        return 2
    try:
        import jsonschema
    except ImportError:
        print("validate-json: the jsonschema module is missing (apt-get install python3-jsonschema)", file=sys.stderr)
        return 2
    schema_path, files = argv[0], argv[1:] or ["-"]
    try:
        with open(schema_path, encoding="utf-8") as handle:
            schema = json.load(handle)
        validator_class = jsonschema.validators.validator_for(schema)
        validator_class.check_schema(schema)
        registry = sibling_registry(schema_path)
        options = {} if registry is None else {"registry": registry}
        validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER, **options)
    except (OSError, ValueError, jsonschema.exceptions.SchemaError) as error:
        print(f"validate-json: {schema_path}: not a usable schema: {error}", file=sys.stderr)
        return 2
    invalid = False
    for name in files:
        try:
            text = sys.stdin.read() if name == "-" else open(name, encoding="utf-8").read()
        except OSError as error:
            print(f"validate-json: {name}: {error}", file=sys.stderr)
            return 2
        # JSON lines end at LF only: str.splitlines() would also split inside a string at
        # U+2028, U+0085 and the other line ends JSON leaves unescaped.
        lines = text.split("\n")
        documents = [(f"{name}:{n}", line) for n, line in enumerate(lines, 1) if line.strip()] if jsonl else [(name, text)]
        if jsonl and not documents:
            print(f"{name}: no JSON lines", file=sys.stderr)
            invalid = True
        for label, source in documents:
            try:
                document = json.loads(source)
            except ValueError as error:
                print(f"{label}: not JSON: {error}", file=sys.stderr)
                invalid = True
                continue
            for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
                pointer = "/" + "/".join(str(part) for part in error.absolute_path)
                print(f"{label}: {pointer}: {error.message}", file=sys.stderr)
                invalid = True
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
