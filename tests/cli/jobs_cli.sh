#!/bin/sh
# `smemlab analyze --jobs N` gives the same report whatever N; one block stands for all only when
# proven, says so (JSON and table), with the totals of `--all-blocks`. PTX written here: no nvcc.
smemlab="$1"
. "$(dirname "$0")/lib.sh"
cat >"$TMPD/k.ptx" <<'PTX'
.version 8.0
.target sm_90
.address_size 64
.file 1 "k.cu"
.visible .entry clean(.param .u64 clean_p0)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	.reg .f32 %f<4>;
	.shared .align 4 .b8 tile[4224];
	.loc 1 3 5
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.s32 %r4, %r2, %r3, %r1;
	ld.param.u64 %rd1, [clean_p0];
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r4, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.f32 %f1, [%rd4];
	and.b32 %r5, %r1, 31;
	shr.u32 %r6, %r1, 5;
	mov.u32 %r7, tile;
	mad.lo.s32 %r8, %r5, 128, %r7;
	shl.b32 %r9, %r6, 2;
	add.s32 %r10, %r8, %r9;
	.loc 1 5 5
	st.shared.f32 [%r10], %f1;
	bar.sync 0;
	.loc 1 6 5
	st.shared.f32 [tile], %f1;
	st.global.f32 [%rd4], %f1;
	ret;
}
.visible .entry dirty(.param .u64 dirty_p0)
{
	.reg .b32 %r<12>;
	.shared .align 4 .b8 tile[4224];
	.loc 1 9 5
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	add.s32 %r3, %r1, %r2;
	and.b32 %r4, %r3, 31;
	shl.b32 %r5, %r4, 7;
	mov.u32 %r7, tile;
	add.s32 %r8, %r7, %r5;
	.loc 1 10 5
	st.shared.u32 [%r8], %r1;
	ret;
}
PTX
strip() { printf '%s\n' "$1" | sed 's/"emulation_seconds": [0-9.]*//'; }
for k in clean dirty; do
  t "$k --jobs 1" "$smemlab" analyze "$TMPD/k.ptx" --kernel $k --block 128 --grid 37 --all-blocks --jobs 1 --format json
  expect_rc 0
  one=$(strip "$out")
  for j in 2 5; do
    t "$k --jobs $j" "$smemlab" analyze "$TMPD/k.ptx" --kernel $k --block 128 --grid 37 --all-blocks --jobs $j --format json
    expect_rc 0
    [ "$(strip "$out")" = "$one" ] || fail "$k: --jobs $j differs from --jobs 1"
  done
done
# clean: one block for all, the totals of every block
t "clean, all blocks" "$smemlab" analyze "$TMPD/k.ptx" --kernel clean --block 128 --grid 37 --all-blocks --format json
all=$(printf '%s\n' "$out" | grep -o '"shared_st": {[^}]*}\|"thread_instructions": [0-9]*\|"count": [0-9]*\|"requests": [0-9]*')
expect_out '"extrapolated": false'
t "clean, proven" "$smemlab" analyze "$TMPD/k.ptx" --kernel clean --block 128 --grid 37 --format json
expect_rc 0
expect_out '"extrapolated": true'
expect_out '"blocks_emulated": 1'
expect_out '"extrapolation_reason": "shared addresses and control flow depend neither on %ctaid'
expect_out '"blocks_analysed": 37, "blocks": 37'
[ "$(printf '%s\n' "$out" | grep -o '"shared_st": {[^}]*}\|"thread_instructions": [0-9]*\|"count": [0-9]*\|"requests": [0-9]*')" = "$all" ] ||
  fail "clean: the proven run's totals differ from --all-blocks"
t "clean, table" "$smemlab" analyze "$TMPD/k.ptx" --kernel clean --block 128 --grid 37
expect_out 'one block emulated stands for all 37'
# dirty: %ctaid in a shared address: every block runs
t "dirty" "$smemlab" analyze "$TMPD/k.ptx" --kernel dirty --block 128 --grid 37 --format json
expect_rc 0
expect_out '"extrapolated": false'
expect_out '"blocks_analysed": 37'
t "--jobs 0" "$smemlab" analyze "$TMPD/k.ptx" --jobs 0
expect_rc 2
expect_err '--jobs 0'
finish
