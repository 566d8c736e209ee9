#!/usr/bin/env python3
"""cu_symbols.py [CUDA_HOME]: writes src/runtime/driver/cu_symbols.inc, the driver API of the
toolkit's headers for smemlab's libcuda.so.1 stand-in:

  CU_SYM(name)                 every function cuda.h and cudaProfiler.h declare, under every name
                               libcuda.so.1 exports it (cuMemAlloc and cuMemAlloc_v2, the _ptds /
                               _ptsz forms): each becomes an export (implemented, or refused by name)
  CU_PROC(api, version, name)  what cuGetProcAddress(api, version) returns: cudaTypedefs.h's
                               PFN_<api>_v<version> typedefs, in version order, are the ABI names
                               api, api_v2, api_v3, ... (those _ptds / _ptsz: CU_PROC_PTDS)

and src/runtime/driver/cu_errors.inc, CU_ERR(value, name, string) for cuGetErrorName / String, from
tests/run/h200-drverrors.txt (what the H200's driver answered for every value; the header has the
names but not the strings).

The names come from the preprocessed headers (cc -E): declarations as programs see them, as the
driver's own build sees them (__CUDA_API_VERSION_INTERNAL: the older ABI names) and with the
per-thread default stream. Where the toolkit has its link stub (lib64/stubs/libcuda.so), the list
is compared with the stub's exports and the differences printed. Run it after a toolkit upgrade
and commit the .inc (CUDA 13.0 made the one in the tree)."""
import os
import re
import subprocess
import sys

cuda = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CUDA_HOME", "/usr/local/cuda")
inc = os.path.join(cuda, "include")
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def declared(defs):
    src = "#include <cuda.h>\n#include <cudaProfiler.h>\n"
    out = subprocess.run(["cc", "-E", "-P", *defs, "-I", inc, "-x", "c", "-"], input=src,
                         capture_output=True, text=True, check=True).stdout
    flat = " ".join(out.split())
    return set(re.findall(r"\bCUresult (cu[A-Za-z0-9_]+) ?\(", flat))


names = set()
for defs in ([], ["-D__CUDA_API_VERSION_INTERNAL"], ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"]):
    names |= declared(defs)

version = "?"
with open(os.path.join(inc, "cuda.h")) as f:
    m = re.search(r"#define CUDA_VERSION (\d+)", f.read())
    if m:
        version = "%d.%d" % (int(m.group(1)) // 1000, int(m.group(1)) % 1000 // 10)

# cuGetProcAddress: PFN_<api>_v<version>[_ptds|_ptsz]
with open(os.path.join(inc, "cudaTypedefs.h")) as f:
    pfn = re.findall(r"\bPFN_(cu[A-Za-z0-9]+(?:_[A-Za-z][A-Za-z0-9]*)*?)_v(\d+)(_ptds|_ptsz)?\)",
                     f.read())
apis = {}
for api, ver, pt in pfn:
    apis.setdefault((api, pt), set()).add(int(ver))
procs, odd = [], []
for (api, pt), vers in sorted(apis.items()):
    vers = sorted(vers)
    abi = [api] + ["%s_v%d" % (api, k) for k in range(2, 10)]
    abi = [a for a in abi if (a + pt) in names]
    if len(abi) != len(vers):
        odd.append("%s%s: versions %s, names %s" % (api, pt, vers, abi))
        abi = abi[-len(vers):] if len(abi) > len(vers) else [abi[0]] * (len(vers) - len(abi)) + abi
    for v, a in zip(vers, abi):
        if a + pt in names:
            procs.append((api, v, a + pt, pt != ""))

stub = os.path.join(cuda, "lib64", "stubs", "libcuda.so")
if os.path.exists(stub):
    nm = subprocess.run(["nm", "-D", "--defined-only", stub], capture_output=True, text=True).stdout
    exported = {l.split()[-1] for l in nm.splitlines() if l.strip()}
    for n in sorted(names - exported):
        print("in the headers, not exported by the stub: " + n)
    for n in sorted(exported - names):
        print("exported by the stub, not in the headers: " + n)
for o in odd:
    print("cudaTypedefs.h versions and names differ: " + o)

out = os.path.join(root, "src", "runtime", "driver", "cu_symbols.inc")
with open(out, "w") as f:
    f.write("/* cu_symbols.inc: the CUDA %s driver API (written by scripts/cu_symbols.py from cuda.h,\n"
            " * cudaProfiler.h and cudaTypedefs.h; do not edit). CU_SYM(name): every name libcuda.so.1\n"
            " * exports; CU_PROC(api, version, name) / CU_PROC_PTDS: what cuGetProcAddress(api, version)\n"
            " * returns (the latest name whose version is <= the one asked). */\n" % version)
    for n in sorted(names):
        f.write("CU_SYM(%s)\n" % n)
    for api, v, a, pt in procs:
        f.write("%s(%s, %d, %s)\n" % ("CU_PROC_PTDS" if pt else "CU_PROC", api, v, a))
print("%s: %d names, %d versioned entries" % (os.path.relpath(out, root), len(names), len(procs)))

errs = os.path.join(root, "tests", "run", "h200-drverrors.txt")
out = os.path.join(root, "src", "runtime", "driver", "cu_errors.inc")
n = 0
with open(errs) as f, open(out, "w") as o:
    o.write("/* cu_errors.inc: cuGetErrorName / cuGetErrorString of every CUresult, as the H200's driver\n"
            " * answered them (tests/run/h200-drverrors.txt; written by scripts/cu_symbols.py). */\n")
    for line in f:
        p = line.rstrip("\n").split("\t")
        if len(p) == 4 and p[0].isdigit():
            o.write('CU_ERR(%s, %s, "%s")\n' % (p[0], p[1], p[2].replace("\\", "\\\\").replace('"', '\\"')))
            n += 1
print("%s: %d errors" % (os.path.relpath(out, root), n))
