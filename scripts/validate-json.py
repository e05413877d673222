#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema with Debian's python3-jsonschema.

    scripts/validate-json.py SCHEMA [FILE ...]     # each FILE one JSON document ('-' or none: stdin)
    scripts/validate-json.py --jsonl SCHEMA [FILE]  # each line of FILE one document

The schema's own "$schema" chooses the draft (SARIF's is draft-07, docs/schemas' are
2020-12). Every error is one line: the document, the JSON pointer of the failing value and
the message. Exit status: 0 all valid, 1 an invalid document, 2 a file, a schema or the
jsonschema module missing or unreadable. Used by the tests (Tests/AASATestSupport) and by
docs/ci.md; nothing here reads the network: "$ref"s resolve only inside the schema.
"""
import json
import sys


def main(argv):
    jsonl = False
    if argv and argv[0] == "--jsonl":
        jsonl = True
        argv = argv[1:]
    if not argv:
        print("usage: validate-json.py [--jsonl] SCHEMA [FILE ...]", file=sys.stderr)
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
        validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
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
        documents = [(f"{name}:{n}", line) for n, line in enumerate(text.splitlines(), 1) if line.strip()] if jsonl else [(name, text)]
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
