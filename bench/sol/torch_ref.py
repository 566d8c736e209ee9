#!/usr/bin/env python3
"""torch_ref.py: the PyTorch peer for `smemlab bench transpose|reduce` (issue 7), run as a subprocess.

Builds the same inputs as smemlab's fill kernels (element i is a hash of i and the seed), times
out.copy_(x.t()) (x.t().contiguous() into a preallocated output) and x.sum() with CUDA events
(median of --reps after warm-up) and prints one line per case on stdout:
    transpose DTYPE ROWS COLS MEDIAN_MS MIN_MS MAX_MS VERIFIED   (VERIFIED: 1 if out is bitwise x.t())
    reduce DTYPE N MEDIAN_MS MIN_MS MAX_MS VALUE                 (the caller checks VALUE)
Exit 3 when torch or a CUDA device is missing (the caller then leaves torch out).
"""
import argparse
import sys

try:
    import torch
except Exception:  # noqa: BLE001 - any import failure means "no torch"
    sys.exit(3)

M = 0xFFFFFFFF


def hash32(x):
    x = x ^ (x >> 16)
    x = (x * 0x7FEB352D) & M  # int64 product wraps; its low 32 bits are exact
    x = x ^ (x >> 15)
    x = (x * 0x846CA68B) & M
    return x ^ (x >> 16)


def mix(i, seed):
    return hash32(((i & M) + seed + hash32(i >> 32)) & M)


def fill(n, seed, kind, dev):
    """Element i as smemlab's sol_fill_<kind> writes it, built in chunks to bound temporaries."""
    dtype = {"f32": torch.float32, "f16": torch.float16, "f64": torch.float64,
             "i32": torch.int32, "rf32": torch.float32}[kind]
    out = torch.empty(n, dtype=dtype, device=dev)
    step = 1 << 24
    for a in range(0, n, step):
        b = min(n, a + step)
        h = mix(torch.arange(a, b, dtype=torch.int64, device=dev), seed)
        if kind == "f32":
            v = (h >> 8).to(torch.float32) * (1.0 / 8388608.0) - 1.0
        elif kind == "f64":
            v = h.to(torch.float64) * (1.0 / 2147483648.0) - 1.0
        elif kind == "f16":
            b16 = h & 0xBFFF  # exponent < 16: no Inf or NaN
            v = (b16 - ((b16 & 0x8000) << 1)).to(torch.int16).view(torch.float16)
        elif kind == "i32":
            v = ((h & 0xFF) - 128).to(torch.int32)
        else:
            v = (h >> 8).to(torch.float32) * (1.0 / 16777216.0)
        out[a:b] = v
    return out


def median_ms(fn, warm, reps):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    k = len(times)
    med = times[k // 2] if k % 2 else 0.5 * (times[k // 2 - 1] + times[k // 2])
    return med, times[0], times[-1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--transpose", default="", help="DTYPE:RxC:SEED,... (DTYPE f32|f16|f64)")
    ap.add_argument("--reduce", default="", help="DTYPE:N:SEED,... (DTYPE i32|f32)")
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--warm", type=int, default=10)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit(3)
    dev = torch.device("cuda")
    ints = {"f32": torch.int32, "f16": torch.int16, "f64": torch.int64}
    for spec in filter(None, args.transpose.split(",")):
        dt, shape, seed = spec.split(":")
        r, c = (int(v) for v in shape.split("x"))
        x = fill(r * c, int(seed), dt, dev).view(r, c)
        # Into an output of its own, as every other method writes: out.copy_(x.t()) is what
        # x.t().contiguous() runs, less the allocation; for 1 x n and n x 1, where .contiguous()
        # returns x itself and moves nothing, it is the copy a transpose into new memory is.
        y = torch.empty((c, r), dtype=x.dtype, device=dev)
        med, mn, mx = median_ms(lambda: y.copy_(x.t()), args.warm, args.reps)
        ok = bool(torch.equal(y.view(ints[dt]), x.view(ints[dt]).t()))
        print(f"transpose {dt} {r} {c} {med:.6f} {mn:.6f} {mx:.6f} {int(ok)}", flush=True)
        del x, y
        torch.cuda.empty_cache()
    for spec in filter(None, args.reduce.split(",")):
        dt, n, seed = spec.split(":")
        n = int(n)
        x = fill(n, int(seed), "i32" if dt == "i32" else "rf32", dev)
        s = x.sum()
        med, mn, mx = median_ms(lambda: x.sum(), args.warm, args.reps)
        val = int(s.item()) if dt == "i32" else repr(float(s.item()))
        print(f"reduce {dt} {n} {med:.6f} {mn:.6f} {mx:.6f} {val}", flush=True)
        del x
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
