#!/bin/sh
# s6_order_h200.sh: session 6's any kernels with the last tile column first (bench/sol/dev_order.cu,
# built into $BIN/dev/ beforehand): three processes at 4097^2, one at other odd shapes, each against
# memcpy and the shipped order. From the repository root:
#   OUT=out BIN=build sh bench/sol/s6_order_h200.sh   -> $OUT/order-<i>.log, order.tgz
. "$(dirname "$0")/h200_start.sh"
for i in 1 2 3; do
  stamp "dev_order $i"
  timeout 120 "$BIN/dev/dev_order" --sizes 4097x4097 >"$OUT/order-$i.log" 2>&1
  echo "exit $?" >>"$OUT/order-$i.log"
  grep -E 'x memcpy|MISMATCH|exit' "$OUT/order-$i.log"
done
stamp "dev_order other shapes"
timeout 200 "$BIN/dev/dev_order" --sizes 8191x8191,6001x5003,2049x2049 >"$OUT/order-4.log" 2>&1
echo "exit $?" >>"$OUT/order-4.log"
grep -E 'x memcpy|MISMATCH|exit' "$OUT/order-4.log"
(cd "$OUT" && tar czf order.tgz --exclude=order.tgz ./*.log ./*.txt 2>/dev/null)
exit 0
