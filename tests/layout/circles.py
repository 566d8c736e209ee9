#!/usr/bin/env python3
"""circles.py [--src=ROOT] [--rel=DIR] OBJDIR...: the files of each folder as a stack, from the symbols their objects define
and use; fails (exit 1) on a circle of files that call each other inside one folder.

Each OBJDIR is searched for *.o (CMake writes one per source, src/emu/cta.c -> .../src/emu/cta.c.o);
objects in the same directory are one folder. --src=ROOT: only objects whose source is still in ROOT
(a build folder keeps the objects of files since moved); --rel=DIR: folders named relative to DIR. File A uses file B when A's object leaves undefined a
global symbol that B's object defines (`nm`): a call or a reference to B's data. Header-only code
(static inline functions, macros) makes no edge, as it makes no link-time dependency.

Prints, per folder, its floors from the bottom (a file stands above every file it uses) and, when
there is a circle, each strongly connected set of files with the symbols that tie them.
"""
import collections
import os
import subprocess
import sys


def symbols(obj):
    """(defined, undefined) global symbol names of one object file."""
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper():  # global: T, D, B, R, C, W, V ...
            defined.add(name)
    return defined, undefined


def source_name(obj):
    """cta.c.o -> cta.c"""
    base = os.path.basename(obj)
    return base[:-2] if base.endswith(".o") else base


def source_of(obj):
    """.../smemlab_lib.dir/src/emu/cta.c.o -> src/emu/cta.c (the path after CMake's target folder)."""
    parts = obj.split(os.sep)
    for i, part in enumerate(parts):
        if part.endswith(".dir"):
            return os.path.join(*parts[i + 1:])[:-2]
    return None


def folders(roots, src):
    """Objects by folder; with src (the source tree), only those whose source is still there: a
    build folder keeps the objects of files since moved or deleted."""
    groups = collections.defaultdict(list)
    for root in roots:
        for d, _, files in os.walk(root):
            for f in files:
                if not f.endswith(".o"):
                    continue
                obj = os.path.join(d, f)
                rel = source_of(obj)
                if src and rel and not os.path.exists(os.path.join(src, rel)):
                    continue
                groups[d].append(obj)
    return groups


def scc(nodes, edges):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def floors(nodes, edges):
    """Floor 1: uses nothing of the folder; floor n: uses files up to floor n-1 (acyclic graph)."""
    floor = {}

    def f(v):
        if v not in floor:
            floor[v] = 1 + max((f(w) for w in edges[v]), default=0)
        return floor[v]

    for v in nodes:
        f(v)
    return floor


def check(roots, rel, src):
    bad = 0
    nfiles = 0
    groups = folders(roots, src)
    if not groups:
        print("circles: no object file under " + ", ".join(roots))
        return 1
    for d in sorted(groups):
        objs = sorted(groups[d])
        names = [source_name(o) for o in objs]
        nfiles += len(objs)
        defs, uses = {}, {}
        owner = {}
        for o, n in zip(objs, names):
            defs[n], uses[n] = symbols(o)
            for s in defs[n]:
                owner.setdefault(s, n)
        edges = {n: set() for n in names}
        ties = collections.defaultdict(set)
        for n in names:
            for s in uses[n]:
                m = owner.get(s)
                if m and m != n:
                    edges[n].add(m)
                    ties[(n, m)].add(s)
        label = os.path.relpath(d, rel) if rel else d
        circles = [c for c in scc(names, edges) if len(c) > 1]
        if circles:
            bad = 1
            for c in circles:
                print(f"{label}: a circle of {len(c)} files: {', '.join(c)}")
                for a in c:
                    for b in sorted(edges[a]):
                        if b in c:
                            tie = sorted(ties[(a, b)])
                            more = f" and {len(tie) - 4} more" if len(tie) > 4 else ""
                            print(f"  {a} -> {b}: {', '.join(tie[:4])}{more}")
            continue
        fl = floors(names, edges)
        top = max(fl.values())
        rows = []
        for k in range(top, 0, -1):
            rows.append(f"{k}: " + " ".join(sorted(n for n in names if fl[n] == k)))
        print(f"{label}: {len(names)} files, {top} floors (top first) | " + " | ".join(rows))
    if not bad:
        print(f"circles: {nfiles} files in {len(groups)} folders, no circle")
    return bad


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    rel = next((a[6:] for a in sys.argv[1:] if a.startswith("--rel=")), None)
    src = next((a[6:] for a in sys.argv[1:] if a.startswith("--src=")), None)
    if not args:
        print(__doc__.strip())
        sys.exit(2)
    sys.exit(check(args, rel, src))
