#!/bin/sh
# example.sh BUILD: examples/ci built against smemlab installed from BUILD (cmake --install into a
# temporary prefix; find_package(smemlab) from there), as its CI would: its smemlab tests pass;
# its planted conflict and race fail, each at its file:line in SARIF and JUnit; against a baseline
# of the unplanted test only the planted conflict fails, named. Skipped (77) without nvcc.
set -e
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v nvcc >/dev/null 2>&1 || { echo "skipped: no nvcc"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cmake --install "$build" --prefix "$tmp/p" >/dev/null
ex="$src/examples/ci"
cmake -S "$ex" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$tmp/p" -DVECOPS_PLANTED=ON >"$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log"; fail "the example does not configure against the install"; }
cmake --build "$tmp/b" -j 2 >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "the example does not build"; }
cd "$tmp/b"
ctest -L smemlab --output-on-failure >"$tmp/good.log" 2>&1 || { cat "$tmp/good.log"; fail "the example's smemlab tests fail"; }
grep -q "100% tests passed, 0 tests failed out of 3" "$tmp/good.log" || { cat "$tmp/good.log"; fail "not 3 smemlab tests"; }
python3 "$src/tests/ci/sarif_valid.py" smemlab/*.sarif || [ $? = 77 ] || fail "the example's SARIF is not valid"

# the planted regressions: each test fails, at the line the source marks
line() { grep -n "$1" "$ex/src/vecops.cu" | cut -d: -f1; }
conflict=$(line VECOPS-CONFLICT-SITE); load=$(line VECOPS-RACE-LOAD); store=$(line VECOPS-RACE-STORE)
ctest -L planted >"$tmp/planted.log" 2>&1 && fail "the planted regressions pass"
grep -q "planted_conflict .*Failed" "$tmp/planted.log" || { cat "$tmp/planted.log"; fail "planted_conflict did not fail"; }
grep -q "planted_race .*Failed" "$tmp/planted.log" || { cat "$tmp/planted.log"; fail "planted_race did not fail"; }
python3 - smemlab/planted_conflict.sarif smemlab/planted_race.sarif "$conflict" "$load" "$store" <<'PY' ||
import json, sys
def results(path):
    out = []
    for r in json.load(open(path))["runs"][0]["results"]:
        locs = r["locations"] + r.get("relatedLocations", [])
        out.append((r["ruleId"], r["level"], [(l["physicalLocation"]["artifactLocation"]["uri"],
                     l["physicalLocation"]["region"]["startLine"]) for l in locs]))
    return out
conflict, race = results(sys.argv[1]), results(sys.argv[2])
c, load, store = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
assert ("bank-conflict", "error", [("src/vecops.cu", c)]) in conflict, conflict
assert all(r[0] == "bank-conflict" for r in conflict), conflict
assert any(r[0] == "race" and r[1] == "error" and set(r[2]) == {("src/vecops.cu", load), ("src/vecops.cu", store)}
           for r in race), race
assert not any(r[0] == "bank-conflict" for r in race), race
PY
  fail "the planted regressions are not placed at vecops.cu:$conflict (conflict), $load and $store (race)"
grep -q "src/vecops.cu:$conflict: \[bank-conflict\] transpose_tile: 32-way" smemlab/planted_conflict.xml ||
  fail "the JUnit failure does not name vecops.cu:$conflict"
grep -q "src/vecops.cu:$load: \[race\]" smemlab/planted_race.xml || fail "the JUnit failure does not name the race"

# a baseline of the unplanted test: it passes against it, the planted conflict fails, named
"$tmp/p/bin/smemlab" run --format json -o "$tmp/base.json" ./test_transpose >/dev/null 2>&1
"$tmp/p/bin/smemlab" run --baseline "$tmp/base.json" ./test_transpose >/dev/null 2>&1 ||
  fail "the unplanted test fails against its own baseline"
cmake -S "$ex" -B "$tmp/b" -DVECOPS_BASELINE="$tmp/base.json" >/dev/null 2>&1
ctest -R planted_conflict_vs_baseline --output-on-failure >"$tmp/base.log" 2>&1 &&
  fail "the planted conflict passes against the baseline"
grep -q "vecops.cu:$conflict: a bank conflict the baseline does not have: transpose_tile: 32-way" "$tmp/base.log" ||
  { cat "$tmp/base.log"; fail "the baseline's regression is not named"; }
echo "example: ok"
