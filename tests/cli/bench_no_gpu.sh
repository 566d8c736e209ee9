#!/bin/sh
# Without a GPU (or without built kernels), `smemlab bench` says so in one sentence and exits 4;
# `bench --list` works anywhere. Skipped (77) where a GPU is present: test_gpu covers that case.
smemlab="$1"
"$smemlab" bench --list >/dev/null || { echo "bench --list failed"; exit 1; }
err=$("$smemlab" bench square/setRowReadRow --no-counters --reps 1 2>&1 >/dev/null)
rc=$?
if [ $rc -eq 0 ]; then
  echo "skipped: a GPU is present"
  exit 77
fi
[ $rc -eq 4 ] || { echo "expected exit 4 without a GPU, got $rc: $err"; exit 1; }
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { echo "expected one sentence, got: $err"; exit 1; }
case "$err" in
  *"no CUDA"*|*"kernels are missing"*|*"CUDA driver"*) ;;
  *) echo "unexpected message: $err"; exit 1 ;;
esac
# A usage error stays a usage error even without a GPU.
"$smemlab" bench --reps 0 2>/dev/null
[ $? -eq 2 ] || { echo "--reps 0 should be a usage error (2)"; exit 1; }
exit 0
