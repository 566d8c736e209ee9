# pattern_cli.sh: `smemlab pattern`: formats, the JSON contract, exit codes (DESIGN.md).
S=${1:?usage: pattern_cli.sh PATH/TO/smemlab}
. "$(dirname "$0")/lib.sh"

t "help" "$S" pattern --help
expect_rc 0; expect_out "usage: smemlab pattern EXPR"

t "stride 129 json" "$S" pattern 'arr[tid*129]' --elem 4 --format json
expect_rc 0
expect_out '{"requests":1,"wavefronts":1,"ideal_wavefronts":1,"max_ways":1,"warps":[{"warp":0,"wavefronts":1,"ideal_wavefronts":1,"max_ways":1'

t "stride 128 table" "$S" pattern 'arr[tid*128]'
expect_rc 0; expect_out "1 request, 32 wavefronts (ideal 1): 32-way bank conflict"
expect_out "bank map of warp 0"

t "square column read" "$S" pattern 'tile[tx][ty]' --shape 32x32 --block 32x32 --format json
expect_rc 0; expect_out '{"requests":32,"wavefronts":1024,"ideal_wavefronts":32,"max_ways":32,'
t "square column read padded" "$S" pattern 'tile[tx][ty]' --shape=32x33 --block=32,32 --format json
expect_rc 0; expect_out '{"requests":32,"wavefronts":32,"ideal_wavefronts":32,"max_ways":1,'

t "rectangle pad 1" "$S" pattern 'tile[(ty*32+tx)%16][(ty*32+tx)/16]' --shape 16x33 --block 32x16
expect_rc 0; expect_out "16 requests, 32 wavefronts (ideal 16): 2-way bank conflict"

t "csv" "$S" pattern 'arr[tid*2]' --block 64 --format csv
expect_rc 0; expect_out "warp,active_lanes,wavefronts,ideal_wavefronts,max_ways,conflicts"
expect_out "1,32,2,1,2,1"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 3 ] || fail "csv: expected header + 2 rows"

t "float4: four passes of 8 lanes" "$S" pattern 'v[tid]' --elem 16
expect_rc 0; expect_out "1 request, 4 wavefronts (ideal 4): no bank conflict"
expect_out "lanes 24-31"

# the two wavefront counters (docs/bank-model.md): pairs of lanes on two doubles of one bank,
# 4 per instruction (tests/hw/h100-ld64b.csv g2_k2), 2 through the pipeline
t "paired doubles on one bank: per-instruction 4, pipeline 2" "$S" pattern 's[((tid/2)%2)*16]' --elem 8
expect_rc 0; expect_out "1 request, 4 wavefronts"; expect_out "pipeline's passes (l1tex__data_pipe_lsu_wavefronts_mem_shared, the Memory Workload table) are 2 in all"
t "paired doubles json" "$S" pattern 's[((tid/2)%2)*16]' --elem 8 --format json
expect_rc 0; expect_out '"wavefronts":4,'; expect_out '"pipe_wavefronts":2,'
# a partial warp's 16-byte loads: Nsight's count (4) below the ideal (5) is no conflict, and the
# total's conflicts do not wrap (they were 18446744073709551615)
t "float4 rows of a 17x2 block" "$S" pattern 'tile[ty]' --elem 16 --block 17x2 --format json
expect_rc 0; expect_out '"wavefronts":4,"ideal_wavefronts":5,'; expect_out '"conflicts":0,'
t "doubles, no conflict: one counter" "$S" pattern 's[tid]' --elem 8
expect_rc 0; expect_out "1 request, 2 wavefronts (ideal 2): no bank conflict"
case "$out" in *"pipeline's passes"*) fail "a note where the counters agree";; esac

t "store, grid index, 8-byte banks" "$S" pattern 'arr[bx*64+tid*2]' --op st --grid-index 3 --bank-bytes 8 --format json
expect_rc 0; expect_out '"wavefronts":1,'; expect_out '"op":"st"'; expect_out '"block_index":[3,0,0]'

t "expression after options" "$S" pattern --elem 1 'c[tid*128]' --format csv
expect_rc 0; expect_out "0,32,32,1,32,31"

# ldmatrix / stmatrix / cp.async (rules: src/model/matrix.c, measured in tests/hw/h100-ldsm.csv).
t "ldmatrix.x4 A fragment, 64-byte rows: 4-way" "$S" pattern 'a[lane%16][lane/16*8]' --shape 64x32 --op ldmatrix.x4
expect_rc 0; expect_out "1 request, 16 wavefronts (ideal 4): 4-way bank conflict"
expect_out "ldmatrix.x4 (each lane a row address; 2-byte elements)"; expect_out "lanes 24-31"
t "ldmatrix.x4 swizzled: clean" "$S" pattern 'a[lane%16][(lane/16*8) ^ ((lane%16)/2%4*8)]' --shape 64x32 --op ldmatrix.x4.trans --format json
expect_rc 0; expect_out '{"requests":1,"wavefronts":4,"ideal_wavefronts":4,"max_ways":1,'
expect_out '"op":"ldmatrix.x4.trans"'
t "ldmatrix.x1 rows 128 B apart, other lanes anywhere" "$S" pattern 'a[lane*32*(lane/8+1)]' --op ldmatrix.x1 --elem 4 --format csv
expect_rc 0; expect_out "0,8,8,1,8,7"
t "stmatrix.x2 rows 144 B apart: clean" "$S" pattern 'a[lane*72]' --op stmatrix.x2 --format csv
expect_rc 0; expect_out "0,16,2,2,1,0"
t "ldmatrix misaligned row" "$S" pattern 'a[lane*3]' --op ldmatrix.x1
expect_rc 3; expect_err "not a multiple of 16 bytes"
t "ldmatrix needs whole warps" "$S" pattern 'a[lane*8]' --op ldmatrix.x4 --block 48
expect_rc 3; expect_err "whole warp"
t "cp.async.16 consecutive" "$S" pattern 'a[tid]' --op cp.async.16 --format json
expect_rc 0; expect_out '{"requests":1,"wavefronts":4,"ideal_wavefronts":4,'; expect_out '"op":"cp.async.ca.16"'
expect_out '"src":"g[tid]","unestablished_requests":0'
t "cp.async.4 all lanes one word: copies are not merged" "$S" pattern 'a[0]' --op cp.async.4 --format csv
expect_rc 0; expect_out "0,32,32,1,32,31"
t "cp.async.ca sources 32 bytes apart: 2-way on the read side" "$S" pattern 'a[tid]' --op cp.async.16 --src 'g[tid*2]'
expect_rc 0; expect_out "8 wavefronts (ideal 4): 2-way bank conflict"
t "cp.async.cg first halves of 8 sectors: one wavefront a lane (64-byte rotations differ)" "$S" pattern 'a[tid]' --op cp.async.cg.16 --src 'g[tid*2]'
expect_rc 0; expect_out "32 wavefronts (ideal 4): no bank conflict; the copies move their global sectors"
t "cp.async.cg 32 bytes apart: 32, as the H100 (h100-ldsm.csv lane_x2)" "$S" pattern 'a[tid*2]' --op cp.async.cg.16 --format json
expect_rc 0; expect_out '{"requests":1,"wavefronts":32,'; expect_out '"unestablished_requests":0'
t "cp.async.cg eight lanes on one sector: 16 in 4 rounds, as the H100 (h100-ldsm7.csv bcast_sector), established" "$S" pattern 'a[tid]' --op cp.async.cg.16 --src 'g[tid%2]' --format json
expect_rc 0; expect_out '{"requests":1,"wavefronts":16,'; expect_out '"unestablished_requests":0'
t "cp.async.cg 8 bytes" "$S" pattern 'a[tid]' --op cp.async.cg.8
expect_rc 2; expect_err "--op must be"
t "--src without cp.async" "$S" pattern 'a[tid]' --src 'g[tid]'
expect_rc 2; expect_err "--src is for cp.async only"
t "advise an ldmatrix tile of 64-byte rows" "$S" pattern 'a[lane%16][lane/16*8]' --shape 64x32 --op ldmatrix.x4 --advise
expect_rc 0; expect_out "pad: 8 elements a row (shape 64x32 -> 64x40, +16 B a row): 16 -> 4 wavefronts (ideal 4)"
expect_out "swizzle: Swizzle<2,4,3> on byte offsets, o ^ ((o & 0x180) >> 3): 16 -> 4 wavefronts"
expect_out "best: the swizzle (4 wavefronts, no extra memory)"
t "advise an ldmatrix tile of 128-byte rows (json)" "$S" pattern 'a[lane%16][lane/16*8]' --shape 64x64 --op ldmatrix.x4 --advise --format json
expect_rc 0; expect_out '"advice":{"wavefronts":32,"ideal_wavefronts":4,"pad":{"elements":8,"wavefronts":4},"swizzle":{"b":3,"m":4,"s":3,"wavefronts":4}'
t "advise the square's column read" "$S" pattern 'tile[tx][ty]' --shape 32x32 --block 32x32 --advise
expect_rc 0; expect_out "pad: 1 element a row (shape 32x32 -> 32x33, +4 B a row): 1024 -> 32 wavefronts"
t "advise a clean access" "$S" pattern 'a[lane*72]' --op stmatrix.x2 --advise
expect_rc 0; expect_out "nothing to remove"
t "bad op" "$S" pattern 'a[tid]' --op ldmatrix.x3
expect_rc 2; expect_err "--op must be"

# Bad expressions: exit 3, the column in the message.
t "missing bracket" "$S" pattern 'arr[tid*2'
expect_rc 3; expect_err "column 10: expected ']'"
t "unknown variable" "$S" pattern 'arr[tid*foo]'
expect_rc 3; expect_err "column 9: unknown variable 'foo'"
t "division by zero" "$S" pattern 'arr[tid/(lane-4)]'
expect_rc 3; expect_err "column 8: division by zero in thread (4,0,0)"
t "outside the shape" "$S" pattern 'tile[ty][tx+1]' --shape 32x32 --block 32x32
expect_rc 3; expect_err "column 10: column index 32 is outside tile[32][32]"
t "address beyond 32 bits" "$S" pattern 'arr[0xffffffff]'
expect_rc 3; expect_err "does not fit in 32 bits"

# Bad options: exit 2.
t "bad elem" "$S" pattern 'arr[tid]' --elem 3
expect_rc 2; expect_err "--elem must be 1, 2, 4, 8 or 16"
t "huge block" "$S" pattern 'arr[tid]' --block 2048
expect_rc 2; expect_err "1024"
t "block over 1024 threads" "$S" pattern 'arr[tid]' --block 64x32
expect_rc 2; expect_err "at most 1024 threads"
t "2-D without shape" "$S" pattern 'tile[tx][ty]' --block 32x32
expect_rc 2; expect_err "--shape"
t "bad shape" "$S" pattern 'tile[tx][ty]' --shape 32
expect_rc 2
t "unknown option" "$S" pattern 'arr[tid]' --bogus 1
expect_rc 2; expect_err "unknown option '--bogus'"
t "missing value" "$S" pattern 'arr[tid]' --elem
expect_rc 2; expect_err "--elem needs a value"
t "two expressions" "$S" pattern 'arr[tid]' 'arr[0]'
expect_rc 2
t "no expression" "$S" pattern
expect_rc 2
t "bad format" "$S" pattern 'arr[tid]' --format xml
expect_rc 2
t "bad banks" "$S" pattern 'arr[tid]' --banks 65
expect_rc 2
t "bad bank bytes" "$S" pattern 'arr[tid]' --bank-bytes 3
expect_rc 2

# Hopper's swizzle modes (--swizzle): the tile as a TMA copy writes it (model/tensormap.h, the H200's
# placements: tests/test_hopper_layout.c)
t "128B tile picture" "$S" pattern --swizzle 128B --shape 64x64 --elem 2
expect_rc 0; expect_out "swizzle 128B: CU_TENSOR_MAP_SWIZZLE_128B, boxDim {64, 64}; wgmma descriptor: layout type 1 (128B), SBO 1024 B (field 64)"
expect_out "GMMA::Layout_K_SW128_Atom<T>"
expect_out "     1         1.1   1.0   1.3   1.2   1.5   1.4   1.7   1.6"
expect_out "     7         7.7   7.6   7.5   7.4   7.3   7.2   7.1   7.0"
expect_out "rows 8-63: the same every 8 rows"
t "every mode, json" "$S" pattern --swizzle all --shape 8x32 --elem 2 --format json
expect_rc 0; expect_out '{"tile":{"rows":8,"cols":32,"elem":2,"row_bytes":64,"tma_base":0},"modes":[{"swizzle":"none","row_pitch":64,"chunks":[[0,1,2,3],[4,5,6,7]'
expect_out '{"swizzle":"64B","tensor_map_swizzle":"CU_TENSOR_MAP_SWIZZLE_64B","box":[32,8],"boxes":[1,1],"row_pitch":64'
expect_out '"chunks":[[0,1,2,3],[4,5,6,7],[9,8,11,10],[13,12,15,14],[18,19,16,17],[22,23,20,21],[27,26,25,24],[31,30,29,28]]}'
expect_out '{"swizzle":"128B","tensor_map_swizzle":"CU_TENSOR_MAP_SWIZZLE_128B","box":[32,8],"boxes":[1,1],"row_pitch":128,"bytes":1024'
t "off the pattern's boundary" "$S" pattern --swizzle 128B --shape 8x8 --elem 2 --tma-base 384 --format json
expect_rc 0; expect_out '"chunks":[[3],[12],[21],[30],[39],[40],[49],[58]]'
t "tile svg" "$S" pattern --swizzle all --shape 64x64 --elem 2 --svg "$TMPD/tile.svg"
expect_rc 0
[ "$(grep -c "<g class='mode'>" "$TMPD/tile.svg")" -eq 4 ] || fail "tile svg: expected 4 modes"
# rows 0-7 of the first box: 8 x 8 chunks (none, 128B), 8 x 2 (32B: 32-byte boxes), 8 x 4 (64B)
[ "$(grep -c "<g class='chunk'>" "$TMPD/tile.svg")" -eq 176 ] || fail "tile svg: expected 176 chunks"
t "tile page" "$S" pattern --swizzle 128B --shape 64x64 --elem 2 --html "$TMPD/tile.html"
expect_rc 0
grep -qF "CU_TENSOR_MAP_SWIZZLE_128B, boxDim {64, 64}" "$TMPD/tile.html" || fail "tile page: the fields"
[ "$(grep -c "<g class='chunk'>" "$TMPD/tile.html")" -eq 64 ] || fail "tile page: expected 64 chunks"
t "tile picture unwritable" "$S" pattern --swizzle 128B --shape 8x64 --svg /nonexistent/dir/t.svg
expect_rc 3
t "ldmatrix on a 128B tile" "$S" pattern 'a[lane%16][lane/16*8]' --shape 16x64 --op ldmatrix.x4 --swizzle 128B
expect_rc 0; expect_out "the tile as TMA writes it with swizzle 128B"
expect_out "1 request, 4 wavefronts (ideal 4): no bank conflict"
t "ldmatrix under every mode" "$S" pattern 'a[lane%16][lane/16*8]' --shape 16x64 --op ldmatrix.x4 --swizzle all --format json
expect_rc 0; expect_out '"swizzle_modes":[{"swizzle":"none","wavefronts":32,"ideal_wavefronts":4,"max_ways":8},{"swizzle":"32B","wavefronts":4,'
t "advise proposes the mode" "$S" pattern 'a[lane%16][lane/16*8]' --shape 16x64 --op ldmatrix.x4 --advise
expect_rc 0; expect_out "hopper: swizzle 128B, the tile as a TMA copy writes it: 32 -> 4 wavefronts"
expect_out "CU_TENSOR_MAP_SWIZZLE_128B, boxDim {64, 16}"
t "advise json" "$S" pattern 'a[lane%16][lane/16*8]' --shape 16x32 --op ldmatrix.x4 --advise --format json
expect_rc 0; expect_out '"tma":{"swizzle":"64B",'; expect_out '"wavefronts":4},"pads_tried":9,"swizzles_tried":'
t "CuTe's spelling" "$S" pattern 'a[lane%16][lane/16*8]' --shape 16x32 --op ldmatrix.x4 --swizzle 'Swizzle<3,4,3>' --format json
expect_rc 0; expect_out '{"requests":1,"wavefronts":4,'; expect_out '"swizzle":"Swizzle<3,4,3>",'
t "CuTe's picture" "$S" pattern --swizzle 'Swizzle<2,4,3>' --shape 8x32 --elem 2
expect_rc 0; expect_out "Swizzle<2,4,3>: rows of 64 bytes (Swizzle<2,3,3> on element offsets"
expect_out "     1         2.1   2.0   2.3   2.2   3.1   3.0   3.3   3.2"
t "CuTe's picture as svg" "$S" pattern --swizzle 'Swizzle<3,4,3>' --shape 16x32 --elem 2 --svg "$TMPD/cute.svg"
expect_rc 0
grep -qF ">Swizzle&lt;3,4,3&gt;<" "$TMPD/cute.svg" || fail "cute svg: the title escaped"
t "CuTe splitting elements" "$S" pattern 'a[tid]' --shape 8x32 --elem 4 --swizzle 'Swizzle<3,1,3>'
expect_rc 2; expect_err "would split 4-byte elements"
t "a row no box holds" "$S" pattern --swizzle 64B --shape 8x40 --elem 2
expect_rc 2; expect_err "rows are neither a whole number of swizzle spans nor narrower than one"
t "bad mode" "$S" pattern --swizzle 96B --shape 8x64
expect_rc 2; expect_err "--swizzle must be none, 32B, 64B, 128B, all or Swizzle<B,M,S>"
t "mode without a shape" "$S" pattern 'a[tid]' --swizzle 128B
expect_rc 2; expect_err "--swizzle needs the tile's shape"
t "misaligned base" "$S" pattern --swizzle 128B --shape 8x64 --tma-base 64
expect_rc 2; expect_err "--tma-base must be 0, 128, ..., 896"
t "base without a mode" "$S" pattern 'a[tid]' --tma-base 128
expect_rc 2; expect_err "--tma-base goes with --swizzle"
t "picture as csv" "$S" pattern --swizzle 128B --shape 8x64 --format csv
expect_rc 2

finish
