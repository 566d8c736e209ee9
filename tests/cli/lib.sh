# lib.sh: helpers for the CLI tests (sourced): run a command, check its exit status and output.
fails=0
out=""; err=""; rc=0
TMPD=$(mktemp -d) || exit 1
trap 'rm -rf "$TMPD"' EXIT

# run CMD...: runs it, keeping stdout in $out, stderr in $err, status in $rc.
run() {
  "$@" >"$TMPD/out" 2>"$TMPD/err"; rc=$?
  out=$(cat "$TMPD/out"); err=$(cat "$TMPD/err")
}
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
# expect_rc N: the last run exited with N.
expect_rc() { [ "$rc" -eq "$1" ] || fail "$last: exit $rc, expected $1 (stderr: $err)"; }
# expect_out TEXT / expect_err TEXT: the last run's stdout / stderr contains TEXT (fixed string).
expect_out() { printf '%s' "$out" | grep -qF -- "$1" || fail "$last: stdout lacks '$1'"; }
expect_err() { printf '%s' "$err" | grep -qF -- "$1" || fail "$last: stderr lacks '$1'"; }
# t DESCRIPTION CMD...: runs CMD and remembers DESCRIPTION for messages.
t() { last=$1; shift; run "$@"; }
finish() {
  if [ "$fails" -ne 0 ]; then echo "$fails CLI checks failed" >&2; exit 1; fi
  echo "all CLI checks passed"; exit 0
}
