#!/usr/bin/env python3
"""own_ncu.py EXE IN.ncu.csv > OUT.ncu.csv: Nsight Compute's per-launch CSV of a program that calls
cuBLAS (run_blas_device.sh) with only the program's own kernels' rows kept: those whose function
name is one of EXE's kernels (the host stubs nvcc writes for them: nm);
cuBLAS's kernels (sm90_xmma_gemm_..., gemv2T_kernel_val, ...) live in libcublas, not in EXE, and
smemlab run does not emulate them (its report lists the call as a library step instead). Header and
other lines are kept. The launch IDs stay as ncu numbered them: pack_ncu.py packs the rows left."""
import csv, re, subprocess, sys

def base(name):
    """a kernel's function name without return type, template arguments and parameters"""
    name = re.sub(r'^void ', '', name.strip())
    m = re.match(r'[A-Za-z_][A-Za-z0-9_:]*', name)
    return m.group(0) if m else name

def own(exe):
    """the names of EXE's kernels: nvcc gives each __global__ function a host stub,
    __device_stub__<its mangled name without the leading _> (nm lists them; no CUDA tool needed)"""
    syms = subprocess.run(['nm', exe], capture_output=True, text=True).stdout
    names = set()
    for m in re.finditer(r'__device_stub__Z(N?)((?:\d+[A-Za-z_][A-Za-z0-9_]*)+)', syms):
        parts, rest = [], m.group(2)
        while rest[:1].isdigit():
            n = int(re.match(r'\d+', rest).group(0))
            digits = len(str(n))
            parts.append(rest[digits:digits + n])
            rest = rest[digits + n:]
            if not m.group(1):
                break
        names.add('::'.join(parts))
    if not names:
        sys.exit(f'own_ncu.py: {exe}: no kernel stubs found by nm')
    return names

def main():
    if len(sys.argv) != 3:
        sys.exit('usage: own_ncu.py EXE IN.ncu.csv > OUT.ncu.csv')
    names = own(sys.argv[1])
    for line in open(sys.argv[2], errors='replace'):
        if line.startswith('"') and not line.startswith('"ID"'):
            row = next(csv.reader([line]))
            if len(row) > 4 and base(row[4]) not in names:
                continue
        sys.stdout.write(line)

main()
