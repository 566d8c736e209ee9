#!/bin/sh
# layers.sh [ROOT]: fails (exit 1, one line per offence) when a file of the library includes a layer
# it may not, or anything of the CLI. The rule, lowest layer first (src/README.md explains it):
#
#   base      -
#   model     base                        pure: no I/O, no emulator
#   ptx       base
#   sass      base ptx
#   emu       base model ptx sass
#   analysis  base model ptx emu sass
#   report    base model ptx emu analysis sass
#   gpu       base
#   lab       base model ptx emu analysis gpu
#   runtime   base model ptx emu analysis report sass
#
# Every folder of src/ and include/smemlab/ must be one of these (a new subsystem gets a line here
# first). Files of src/L/ and include/smemlab/L/ may include "smemlab/M/x.h" or "M/x.h" (a private
# header of src/M/) for M in L's line or L itself, and "x.h" of their own folder; nothing else.
set -u
ROOT=${1:-.}
allowed() {
    case $1 in
    base) echo "base" ;;
    model) echo "base model" ;;
    ptx) echo "base ptx" ;;
    sass) echo "base ptx sass" ;;
    emu) echo "base model ptx sass emu" ;;
    analysis) echo "base model ptx emu sass analysis" ;;
    report) echo "base model ptx emu sass analysis report" ;;
    gpu) echo "base gpu" ;;
    lab) echo "base model ptx emu sass analysis gpu lab" ;;
    runtime) echo "base model ptx emu sass analysis report runtime" ;;
    *) return 1 ;;
    esac
}
bad=0
checked=0
for top in "$ROOT/src" "$ROOT/include/smemlab"; do
    [ -d "$top" ] || { echo "layers: $top is missing"; exit 1; }
    for f in "$top"/*; do
        [ -f "$f" ] && case $f in *.md) ;; *) echo "$f: a file outside every subsystem folder"; bad=1 ;; esac
    done
    for dir in "$top"/*/; do
        layer=$(basename "$dir")
        if ! ok=$(allowed "$layer"); then
            echo "$dir: '$layer' is no layer (add it to tests/layout/layers.sh and src/README.md)"
            bad=1
            continue
        fi
        for f in "$dir"*; do
            [ -f "$f" ] || continue
            case $f in *.c|*.h|*.cu|*.cuh) ;; *) continue ;; esac
            checked=$((checked + 1))
            # every quoted include: #include "x"
            sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
            while IFS= read -r inc; do
                case $inc in
                smemlab/*/*) target=${inc#smemlab/}; target=${target%%/*} ;;
                */*) target=${inc%%/*} ;;
                *)
                    if [ -f "$dir$inc" ]; then continue; fi
                    echo "$f: includes \"$inc\", which is not in its folder (the CLI's? a moved file?)"
                    exit 1 ;;
                esac
                found=0
                for a in $ok; do [ "$a" = "$target" ] && found=1; done
                if [ $found = 0 ]; then
                    echo "$f: layer '$layer' includes \"$inc\" of layer '$target' (allowed: $ok)"
                    exit 1
                fi
            done || bad=1
        done
    done
done
[ $checked -gt 0 ] || { echo "layers: no file checked under $ROOT"; exit 1; }
[ $bad = 0 ] && echo "layers: $checked files keep to the layering"
exit $bad
