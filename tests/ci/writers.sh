#!/bin/sh
# writers.sh SMEMLAB: the CI outputs of analyze and run. SARIF validates against the published
# 2.1.0 schema (tests/ci/sarif_valid.py) and places each conflict, race and memory error at its
# file:line; JUnit has a test case per kernel (analyze) or launch (run), failing for the checks
# asked for; the Markdown summary names them; --baseline fails only on what got worse, naming it.
set -e
smemlab=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
valid() { python3 "$src/tests/ci/sarif_valid.py" "$@"; r=$?; [ $r = 0 ] || [ $r = 77 ] || fail "$* is not valid SARIF 2.1.0"; }
# result FILE RULE URI LINE: a SARIF result of RULE at URI:LINE
result() {
  python3 - "$@" <<'PY' || fail "no $2 result at $3:$4 in $1"
import json, sys
path, rule, uri, line = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
doc = json.load(open(path))
ok = any(r["ruleId"] == rule and
         any(l["physicalLocation"]["artifactLocation"]["uri"] == uri and
             l["physicalLocation"].get("region", {}).get("startLine") == line for l in r["locations"])
         for r in doc["runs"][0]["results"])
sys.exit(0 if ok else 1)
PY
}
# junit FILE TESTS FAILURES: the counts of a JUnit file, read by an XML parser
junit() {
  python3 - "$@" <<'PY' || fail "$1: expected $2 test cases, $3 failing"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall("./testsuite/testcase")
failing = [c for c in cases if c.find("failure") is not None]
sys.exit(0 if (len(cases), len(failing)) == (int(sys.argv[2]), int(sys.argv[3])) else 1)
PY
}

cp "$src/docs/images/showcase.cu" "$tmp/showcase.cu"
cd "$tmp"
# analyze: four kernels, three conflicting sites (15, 25, 35), a race between 45 and 46
rc=0
"$smemlab" analyze showcase.cu --block 32,8 --fail-on-conflict --sarif a.sarif --junit a.xml \
  --markdown a.md --format json >a.json || rc=$?
[ $rc = 1 ] || fail "analyze --fail-on-conflict with CI outputs exited $rc, not 1"
valid a.sarif
result a.sarif bank-conflict showcase.cu 15
result a.sarif bank-conflict showcase.cu 25
result a.sarif race showcase.cu 46
grep -q '"automationDetails": {"id": "smemlab/analyze-showcase.cu/"}' a.sarif || fail "the SARIF run has no category of its own"
junit a.xml 4 3
grep -q '^\*\*FAIL\*\*' a.md || fail "the summary has no FAIL verdict"
grep -q '`showcase.cu:15`.*32-way' a.md || fail "the summary does not name showcase.cu:15's 32-way conflict"
# without a check asked for: the same findings, no failing test case, exit 0
"$smemlab" analyze showcase.cu --block 32,8 --junit b.xml --sarif b.sarif >/dev/null ||
  fail "analyze with CI outputs and no check failed"
junit b.xml 4 0
grep -q '"level": "warning"' b.sarif || fail "a conflict not asked to fail is not a warning"
# --source-root: the base name becomes the path under the root
mkdir -p tree/src && cp showcase.cu tree/src/
"$smemlab" analyze showcase.cu --block 32,8 --sarif c.sarif --source-root tree >/dev/null
result c.sarif bank-conflict src/showcase.cu 15
# the --format json contract is unchanged by the outputs
python3 -c "import json; d = json.load(open('a.json')); assert d['kernels'][0]['name'] == 'transpose'" ||
  fail "--format json is not the contract's"

# --baseline: the same code passes (even asked to fail on conflicts); a worse site fails, named
"$smemlab" analyze showcase.cu --block 32,8 --format json >base.json
"$smemlab" analyze showcase.cu --block 32,8 --fail-on-conflict --fail-on-hazard \
  --baseline base.json >/dev/null 2>err.txt || fail "the baseline's own code fails against it: $(cat err.txt)"
# variants of the file under the same name (a baseline matches file:line), one folder each
variant() { mkdir -p "$1" && sed "$2" showcase.cu >"$1/showcase.cu"; }
variant worse 's/(t \* 2) % 512/(t * 4) % 512/'
rc=0; "$smemlab" analyze worse/showcase.cu --block 32,8 --baseline base.json >/dev/null 2>err.txt || rc=$?
[ $rc = 1 ] || fail "a worse stride exited $rc against the baseline, not 1"
grep -q 'showcase.cu:25: worse than the baseline: stride2: shared ld: 16.00 wavefronts per request, was 8.00' err.txt ||
  { cat err.txt; fail "the regression at line 25 is not named"; }
[ "$(grep -c 'showcase.cu:' err.txt)" = 1 ] || { cat err.txt; fail "more than the one regression named"; }
variant better 's/tile\[TILE\]\[TILE\];/tile[TILE][TILE + 1];/'
"$smemlab" analyze better/showcase.cu --block 32,8 --format json >better.json
rc=0; "$smemlab" analyze showcase.cu --block 32,8 --baseline better.json >/dev/null 2>err.txt || rc=$?
[ $rc = 1 ] || fail "an unpadded tile exited $rc against a padded baseline"
grep -q 'showcase.cu:15: a bank conflict the baseline does not have' err.txt ||
  { cat err.txt; fail "the new conflict at line 15 is not named"; }
"$smemlab" analyze better/showcase.cu --block 32,8 --baseline base.json --fail-on-conflict >/dev/null 2>err.txt ||
  fail "a better transpose fails against the baseline: $(cat err.txt)"
variant norace 's/d\[t\] = s\[255 - t\];/d[t] = s[t];/'
"$smemlab" analyze norace/showcase.cu --block 32,8 --format json >norace.json
rc=0; "$smemlab" analyze showcase.cu --block 32,8 --baseline norace.json >/dev/null 2>err.txt || rc=$?
[ $rc = 1 ] && grep -q 'showcase.cu:46: a hazard the baseline does not have: reverse: shared-memory race' err.txt ||
  { cat err.txt; fail "a new race is not a regression (exit $rc)"; }
# a baseline that is not JSON: located, exit 3
printf '{\n  "kernels": [1,]\n}\n' >broken.json
rc=0; "$smemlab" analyze showcase.cu --block 32,8 --baseline broken.json >/dev/null 2>err.txt || rc=$?
[ $rc = 3 ] && grep -q 'broken.json:2:17: expected a value' err.txt ||
  { cat err.txt; fail "a broken baseline exited $rc without its place"; }
rc=0; "$smemlab" analyze showcase.cu --block 32,8 --sarif >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || fail "--sarif without a file exited $rc, not 2"

# run: a launch per test case, a race and a memory error placed (needs nvcc to build the program)
command -v nvcc >/dev/null 2>&1 || { echo "writers: ok (run part skipped: no nvcc)"; exit 0; }
nvcc -cudart shared -lineinfo -arch=sm_90 "$src/tests/run/checks.cu" -o checks
rc=0; "$smemlab" run --fail-on-hazard --sarif r.sarif --junit r.xml --markdown r.md ./checks race \
  >/dev/null 2>err.txt || rc=$?
[ $rc = 1 ] || { cat err.txt; fail "run --fail-on-hazard on a race exited $rc"; }
valid r.sarif
line=$(grep -n 's\[63 - threadIdx.x\]; // no __syncthreads' "$src/tests/run/checks.cu" | cut -d: -f1)
result r.sarif race checks.cu "$line"
junit r.xml 2 1
grep -q 'launch 0: racy' r.xml || fail "no test case for launch 0"
# the table on stderr stays; the JSON report asked for keeps its contract
"$smemlab" run --format json -o r.json --sarif r2.sarif ./checks oob >/dev/null 2>&1 || true
valid r2.sarif
python3 -c "import json; d = json.load(open('r.json')); assert d['exit_status'] is not None and d['launches']" ||
  fail "run --format json with --sarif broke the report"
python3 -c "import json; d = json.load(open('r2.sarif')); assert any(r['ruleId'] == 'memory-error' for r in d['runs'][0]['results'])" ||
  fail "the out-of-bounds program has no memory-error result"
"$smemlab" run --format json -o t.json ./checks transpose >/dev/null 2>&1
"$smemlab" run --baseline t.json --fail-on-conflict ./checks transpose >/dev/null 2>&1 ||
  fail "a program fails against its own baseline"
echo "writers: ok"
