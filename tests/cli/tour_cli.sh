# tour_cli.sh: `smemlab tour`: runs without a GPU, its three formats, section selection, exit codes.
S=${1:?usage: tour_cli.sh PATH/TO/smemlab}
. "$(dirname "$0")/lib.sh"

t "tour" "$S" tour
expect_rc 0
expect_out "== Square tile 32x32"
expect_out "shared_load_transactions_per_request    32.000000  (32 requests, 1024 wavefronts)"
expect_out "== Access-pattern table"
expect_out "arr[threadIdx.x*128]             32      1     32  32-way conflict"
expect_out "== struct Point4D"

t "one section" "$S" tour strides
expect_rc 0; expect_out "== Stride rule"
printf '%s' "$out" | grep -q "Square" && fail "tour strides printed other sections"

t "json" "$S" tour --format json
expect_rc 0
expect_out '"experiments":[{"id":"square"'
expect_out '"expression":"tile[tx][ty]","shape":[32,33],"requests":32,"wavefronts":32,"ideal_wavefronts":32,"max_ways":1'
if command -v python3 >/dev/null 2>&1; then
  printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d["experiments"]) >= 7' \
    || fail "tour json does not parse"
fi

t "csv" "$S" tour rectangle --format=csv
expect_rc 0
expect_out "experiment,row,op,expression,elem,block,shape,requests,wavefronts,ideal_wavefronts,max_ways,transactions_per_request,claim"
expect_out "rectangle,setRowReadColPad (IPAD 1),ld,tile[(ty*bdx+tx)%bdy][(ty*bdx+tx)/bdy],4,32x16x1,16x33,16,32,16,2,2,2-way"

t "list" "$S" tour --list
expect_rc 0; expect_out "access-patterns"
t "help" "$S" tour --help
expect_rc 0; expect_out "usage: smemlab tour"
t "unknown section" "$S" tour nosuch
expect_rc 2; expect_err "no section 'nosuch'"
t "bad option" "$S" tour --bogus
expect_rc 2
t "bad format" "$S" tour --format yaml
expect_rc 2

# the real kernels of kernels/, analysed (built when nvcc is present, as in CI)
if [ -d "$(dirname "$S")/kernels" ]; then
  t "kernels" "$S" tour kernels
  expect_rc 0
  expect_out 'square/setRowReadCol                     32x32     1     32 x 32.00    32 x 1.00'
  expect_out 'rect/setRowReadColPad1                   32x16     1     16 x 2.00     16 x 1.00'
  expect_out 'reduce/reduce_interleaved                1024x1    1024  74752 x 5.25  69632 x 3.28'
fi
# the rows that are not cost tables: 6 (printed tiles), 7 (bank size), 14 (static sizes)
t "more rows" "$S" tour --no-gpu
expect_out '       1   33   65   97  129  161  193  225'
expect_out 'int arr[tid*2]                          2              1'
if [ -d "$(dirname "$S")/kernels" ]; then
  expect_out 'alloc/MyKernel                 44 static +     0 dynamic bytes'
  expect_out 'carveout/carveoutChase          0 static + 32768 dynamic bytes ->  6 blocks per SM'
fi
finish
