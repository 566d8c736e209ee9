#!/usr/bin/env python3
"""gen_patterns9.py: the ninth cp.async run (issue 15), held out for the rule fitted after the eighth
for .cg requests in which some lane reads less than its 16 bytes (src-size 0 on some lanes, as
CUTLASS's predicated copies do: 'zmix'; src-size 4 on every lane: 'src4'). Every prediction is
committed before the run (the table at the end; the script checks that it still computes it).
Fitted on h100-ldsm7.csv (.cg.16.src4, 7 rows) and h100-ldsm8.csv (.cg.16.zmix, 10 rows), 17 of 17:
  'short' (the rule to hold out): the request costs the .ca hub rule over all its active lanes, each
      lane reading the prefix of its copy that it reads (src-size 0: nothing; src-size 4: 4 bytes;
      fit_ldgsts.ca_hub), PLUS the .cg warp rule over the lanes that read something and are kept
      when every active lane, zero-fill or not, is deduplicated by destination (the lowest lane).
      In words: such a request is a .ca-style pass (the short lanes need their zeros written) and
      the bypass copy of the lanes that read.
The other hypotheses, priced for every row so that the run can reject them:
  'sum' (the model before this run, a lower bound for zmix): the warp rule over the whole lanes
      plus the zero-fill lanes as a store; for src4 twice the whole copy's warp rule ('x2');
  'wzall': the warp rule over the whole lanes plus a store of every active lane (8 of 10 zmix rows).
Groups: (G) 48 random .cg zmix warps (random, tiled, permuted, whole-sector pairs; random zero masks,
duplicated destinations, some across zero and whole lanes); (H) 24 random .cg src4 warps (same
families); (J) .ca.16 zmix and .ca.16 src4 controls (the hub rule, established). Writes
patterns9.txt / patterns9.json; run by run7.sh with RUN=9."""
import json, os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fit_ldgsts as F  # noqa: E402

rnd = random.Random(1509)
txt, js, names = [], [], set()


def row(kind, dst, src, mask):
    k = kind.split('.')
    return dict(kind=kind, cg=k[1] == 'cg', size=int(k[2]), zf=False, sb=4 if 'src4' in kind else int(k[2]),
                mask=mask, dst=list(dst), src=list(src), wf=0)


def hub_zero(r, P, zero):
    """the hub rule (fit_ldgsts.ca_hub) with no source words for the lanes of zero"""
    sz, best = r['size'], 1
    sw = lambda l: [] if zero >> l & 1 else F.words(r['src'][l], r['sb'])
    for a in P:
        for wd in F.words(r['dst'][a], sz):
            D = [l for l in P for w in F.words(r['dst'][l], sz) if w % 32 == wd % 32]
            best = max(best, len(D))
            for ws in sw(a):
                readers = [l for l in P if l not in D and any(w % 32 == ws % 32 for w in sw(l))]
                best = max(best, len(D) + len(readers))
    return best


def keep_first(r, mask):
    seen, k = set(), 0
    for l in range(32):
        if mask >> l & 1 and r['dst'][l] not in seen:
            seen.add(r['dst'][l])
            k |= 1 << l
    return k


def warp(r, mask):
    return F.cg_warp(dict(r, mask=mask, sb=16)) if mask else 0


def hub(r, zero):
    q = dict(r, cg=False)
    return sum(hub_zero(q, P, zero) for P in F.passes(q))


def store(r, mask):
    return F.cg_zero_fill(dict(r, mask=mask, zf=True)) if mask else 0


def short_rule(r, zero):
    """the rule held out (see the docstring); zero: the lanes with src-size 0"""
    return hub(r, zero) + warp(r, keep_first(r, r['mask']) & ~zero)


def predict(r, zero):
    if not r['cg']:
        return {'hub': hub(r, zero)}
    a = r['mask']
    if 'src4' in r['kind']:
        return {'short': short_rule(r, 0), 'x2': 2 * warp(r, a)}
    return {'short': short_rule(r, zero), 'sum': warp(r, a & ~zero) + store(r, a & zero),
            'wzall': warp(r, a & ~zero) + store(r, a)}


def add(kind, name, dst, src, mask, group, zero=0):
    assert (kind, name) not in names, name
    names.add((kind, name))
    r = row(kind, dst, src, mask)
    for l in range(32):
        if mask >> l & 1:
            assert r['dst'][l] % r['size'] == 0 and r['src'][l] % r['size'] == 0, name
            assert r['dst'][l] + r['size'] <= 48 * 1024 and r['src'][l] + r['size'] <= 65536, name
    enc = [r['src'][l] | (1 if zero >> l & 1 else 0) for l in range(32)]  # ldsm.cu: bit 0 = src-size 0
    txt.append(f"{kind} {name} " + " ".join(map(str, r['dst'])) + " " + " ".join(map(str, enc)) + f" {mask:x}")
    js.append(dict(kind=kind, name=name, off=r['dst'], goff=enc, mask=mask, group=group, zero=zero,
                   predicted=predict(r, zero)))


def families(n, tag):
    """n warps of each of five families: (name, dst, src, mask)"""
    out = []
    for i in range(n):  # random destinations in 1 KB (duplicates), random sources in 2 KB
        out.append((f'{tag}_rand_{i}', [16 * rnd.randrange(64) for _ in range(32)],
                    [24576 + 16 * rnd.randrange(128) for _ in range(32)], 0xffffffff if i % 3 else rnd.getrandbits(32) | 1))
    for i in range(n):  # tiles: rows of R chunks, a shared row stride, XOR swizzle or not
        R = rnd.choice((2, 4, 8))
        stride = 16 * R * rnd.choice((1, 2)) + rnd.choice((0, 0, 16, 32))
        gstride = 16 * R * rnd.choice((1, 2, 4))
        sw = rnd.choice((0, 1))
        base = 16 * rnd.randrange(64)
        dst = [base + (l // R) * stride + 16 * ((l % R) ^ ((l // R) % R) if sw else l % R) for l in range(32)]
        src = [4096 + (l // R) * gstride + 16 * (l % R) for l in range(32)]
        out.append((f'{tag}_tile_{i}', dst, src, 0xffffffff))
    for i in range(n):  # a 512-byte copy in a random lane order to random distinct chunks of 1 KB
        perm, dch = rnd.sample(range(32), 32), rnd.sample(range(64), 32)
        out.append((f'{tag}_perm_{i}', [16 * dch[l] for l in range(32)], [8192 + 16 * perm[l] for l in range(32)], 0xffffffff))
    for i in range(n):  # whole sectors (pairs of lanes) of 4 lines to random shared sectors
        dst, src = [], []
        for j in range(16):
            gs, ss, swp = rnd.randrange(16), rnd.randrange(32), rnd.randrange(2)
            for h in range(2):
                src.append(16384 + 32 * gs + 16 * h)
                dst.append(32 * ss + 16 * (h ^ swp))
        out.append((f'{tag}_whole_{i}', dst, src, 0xffffffff))
    for i in range(n):  # every lane on one or two global lines, destinations in 2 KB
        lines = rnd.sample(range(256), rnd.choice((1, 2)))
        out.append((f'{tag}_line_{i}', [16 * rnd.randrange(128) for _ in range(32)],
                    [128 * rnd.choice(lines) + 16 * rnd.randrange(8) for _ in range(32)], 0xffffffff))
    return out


CG = 'cpasync.cg.16'
# ---- (G) .cg zmix: random zero masks over five families, and structured masks on a contiguous copy ----
for name, dst, src, mask in families(8, 'g'):
    add(CG + '.zmix', name, dst, src, mask, 'G', rnd.getrandbits(32))
for i, zero in enumerate((0xffff0000, 0x00ff00ff, 0x0f0f0f0f, 0x55555555, 0x80000001, 0x000000ff, 0xfffffffe, 0x00000001)):
    add(CG + '.zmix', f'g_contig_{i}', [16 * l for l in range(32)], [28672 + 16 * l for l in range(32)], 0xffffffff, 'G', zero)
# ---- (H) .cg src4 ----
for name, dst, src, mask in families(5, 'h'):
    add(CG + '.src4', name, dst, src, mask, 'H')
# ---- (J) .ca.16 controls: zmix and src4, the hub rule ----
for name, dst, src, mask in families(2, 'j'):
    add('cpasync.ca.16.zmix', name, dst, src, mask, 'J', rnd.getrandbits(32))
    add('cpasync.ca.16.src4', name, dst, src, mask, 'J')

MARK = '# ---- PREDICTIONS' + ', written by --write-table before the run: "kind name": {hypothesis: wavefronts} ----'


def embedded():
    text = open(os.path.abspath(__file__)).read()
    if '\n' + MARK + '\n' not in text:
        return None
    out = {}
    for line in text.split('\n' + MARK + '\n', 1)[1].splitlines():
        if line.startswith('# "'):
            out.update(json.loads('{' + line[2:] + '}'))
    return out


def fitted():
    """the rule on the rows it was fitted on (h100-ldsm7.csv .cg src4, h100-ldsm8.csv .cg zmix)"""
    import csv
    ok = n = 0
    for f in ('h100-ldsm7.csv', 'h100-ldsm8.csv'):
        for r in csv.DictReader(open(os.path.join(HERE, '..', f))):
            k = r['kind']
            if not k.startswith('cpasync.cg') or not ('zmix' in k or 'src4' in k):
                continue
            enc = [int(x) for x in r['global_addresses'].split()]
            zero = sum(1 << l for l in range(32) if enc[l] & 1) if 'zmix' in k else 0
            q = row(k, [int(x) for x in r['addresses'].split()], [x & ~1 for x in enc], int(r['active_mask'], 16))
            n += 1
            ok += (short_rule(q, zero) if (zero or 'src4' in k) else warp(q, q['mask'])) == int(r['wavefronts'])
    return ok, n


if __name__ == '__main__':
    open(os.path.join(HERE, 'patterns9.txt'), 'w').write('\n'.join(txt) + '\n')
    json.dump(js, open(os.path.join(HERE, 'patterns9.json'), 'w'), indent=0)
    table = {f"{p['kind']} {p['name']}": p['predicted'] for p in js}
    print(len(txt), 'launches; the rule on its fitting rows: %d of %d' % fitted())
    if '--write-table' in sys.argv:
        text = open(os.path.abspath(__file__)).read().split('\n' + MARK + '\n')[0].rstrip('\n')
        lines = ''.join(f'# {json.dumps(k)}: {json.dumps(v, sort_keys=True)}\n' for k, v in sorted(table.items()))
        open(os.path.abspath(__file__), 'w').write(text + '\n\n\n' + MARK + '\n' + lines)
    else:
        e = embedded()
        assert e is None or e == table, 'the predictions differ from the ones committed before the run'
        print('predictions:', 'none embedded' if e is None else 'as committed')


# ---- PREDICTIONS, written by --write-table before the run: "kind name": {hypothesis: wavefronts} ----
# "cpasync.ca.16.src4 j_line_0": {"hub": 18}
# "cpasync.ca.16.src4 j_line_1": {"hub": 17}
# "cpasync.ca.16.src4 j_perm_0": {"hub": 15}
# "cpasync.ca.16.src4 j_perm_1": {"hub": 16}
# "cpasync.ca.16.src4 j_rand_0": {"hub": 11}
# "cpasync.ca.16.src4 j_rand_1": {"hub": 14}
# "cpasync.ca.16.src4 j_tile_0": {"hub": 8}
# "cpasync.ca.16.src4 j_tile_1": {"hub": 8}
# "cpasync.ca.16.src4 j_whole_0": {"hub": 13}
# "cpasync.ca.16.src4 j_whole_1": {"hub": 13}
# "cpasync.ca.16.zmix j_line_0": {"hub": 15}
# "cpasync.ca.16.zmix j_line_1": {"hub": 13}
# "cpasync.ca.16.zmix j_perm_0": {"hub": 14}
# "cpasync.ca.16.zmix j_perm_1": {"hub": 14}
# "cpasync.ca.16.zmix j_rand_0": {"hub": 9}
# "cpasync.ca.16.zmix j_rand_1": {"hub": 10}
# "cpasync.ca.16.zmix j_tile_0": {"hub": 8}
# "cpasync.ca.16.zmix j_tile_1": {"hub": 8}
# "cpasync.ca.16.zmix j_whole_0": {"hub": 11}
# "cpasync.ca.16.zmix j_whole_1": {"hub": 11}
# "cpasync.cg.16.src4 h_line_0": {"short": 41, "x2": 54}
# "cpasync.cg.16.src4 h_line_1": {"short": 37, "x2": 44}
# "cpasync.cg.16.src4 h_line_2": {"short": 44, "x2": 54}
# "cpasync.cg.16.src4 h_line_3": {"short": 42, "x2": 52}
# "cpasync.cg.16.src4 h_line_4": {"short": 44, "x2": 56}
# "cpasync.cg.16.src4 h_perm_0": {"short": 42, "x2": 60}
# "cpasync.cg.16.src4 h_perm_1": {"short": 49, "x2": 64}
# "cpasync.cg.16.src4 h_perm_2": {"short": 44, "x2": 62}
# "cpasync.cg.16.src4 h_perm_3": {"short": 46, "x2": 64}
# "cpasync.cg.16.src4 h_perm_4": {"short": 48, "x2": 64}
# "cpasync.cg.16.src4 h_rand_0": {"short": 31, "x2": 36}
# "cpasync.cg.16.src4 h_rand_1": {"short": 36, "x2": 44}
# "cpasync.cg.16.src4 h_rand_2": {"short": 42, "x2": 52}
# "cpasync.cg.16.src4 h_rand_3": {"short": 24, "x2": 32}
# "cpasync.cg.16.src4 h_rand_4": {"short": 35, "x2": 42}
# "cpasync.cg.16.src4 h_tile_0": {"short": 32, "x2": 32}
# "cpasync.cg.16.src4 h_tile_1": {"short": 40, "x2": 64}
# "cpasync.cg.16.src4 h_tile_2": {"short": 14, "x2": 20}
# "cpasync.cg.16.src4 h_tile_3": {"short": 27, "x2": 30}
# "cpasync.cg.16.src4 h_tile_4": {"short": 32, "x2": 32}
# "cpasync.cg.16.src4 h_whole_0": {"short": 23, "x2": 24}
# "cpasync.cg.16.src4 h_whole_1": {"short": 25, "x2": 26}
# "cpasync.cg.16.src4 h_whole_2": {"short": 28, "x2": 26}
# "cpasync.cg.16.src4 h_whole_3": {"short": 22, "x2": 20}
# "cpasync.cg.16.src4 h_whole_4": {"short": 28, "x2": 28}
# "cpasync.cg.16.zmix g_contig_0": {"short": 6, "sum": 4, "wzall": 6}
# "cpasync.cg.16.zmix g_contig_1": {"short": 6, "sum": 4, "wzall": 6}
# "cpasync.cg.16.zmix g_contig_2": {"short": 8, "sum": 8, "wzall": 8}
# "cpasync.cg.16.zmix g_contig_3": {"short": 8, "sum": 8, "wzall": 8}
# "cpasync.cg.16.zmix g_contig_4": {"short": 10, "sum": 8, "wzall": 10}
# "cpasync.cg.16.zmix g_contig_5": {"short": 7, "sum": 4, "wzall": 7}
# "cpasync.cg.16.zmix g_contig_6": {"short": 5, "sum": 5, "wzall": 5}
# "cpasync.cg.16.zmix g_contig_7": {"short": 9, "sum": 6, "wzall": 9}
# "cpasync.cg.16.zmix g_line_0": {"short": 28, "sum": 24, "wzall": 26}
# "cpasync.cg.16.zmix g_line_1": {"short": 27, "sum": 22, "wzall": 24}
# "cpasync.cg.16.zmix g_line_2": {"short": 25, "sum": 20, "wzall": 24}
# "cpasync.cg.16.zmix g_line_3": {"short": 22, "sum": 20, "wzall": 21}
# "cpasync.cg.16.zmix g_line_4": {"short": 28, "sum": 23, "wzall": 27}
# "cpasync.cg.16.zmix g_line_5": {"short": 24, "sum": 19, "wzall": 22}
# "cpasync.cg.16.zmix g_line_6": {"short": 26, "sum": 23, "wzall": 24}
# "cpasync.cg.16.zmix g_line_7": {"short": 26, "sum": 22, "wzall": 26}
# "cpasync.cg.16.zmix g_perm_0": {"short": 24, "sum": 19, "wzall": 22}
# "cpasync.cg.16.zmix g_perm_1": {"short": 24, "sum": 22, "wzall": 24}
# "cpasync.cg.16.zmix g_perm_2": {"short": 30, "sum": 22, "wzall": 27}
# "cpasync.cg.16.zmix g_perm_3": {"short": 23, "sum": 20, "wzall": 23}
# "cpasync.cg.16.zmix g_perm_4": {"short": 26, "sum": 23, "wzall": 25}
# "cpasync.cg.16.zmix g_perm_5": {"short": 36, "sum": 27, "wzall": 33}
# "cpasync.cg.16.zmix g_perm_6": {"short": 25, "sum": 19, "wzall": 23}
# "cpasync.cg.16.zmix g_perm_7": {"short": 29, "sum": 24, "wzall": 28}
# "cpasync.cg.16.zmix g_rand_0": {"short": 10, "sum": 8, "wzall": 10}
# "cpasync.cg.16.zmix g_rand_1": {"short": 26, "sum": 21, "wzall": 25}
# "cpasync.cg.16.zmix g_rand_2": {"short": 25, "sum": 18, "wzall": 23}
# "cpasync.cg.16.zmix g_rand_3": {"short": 12, "sum": 11, "wzall": 13}
# "cpasync.cg.16.zmix g_rand_4": {"short": 29, "sum": 23, "wzall": 27}
# "cpasync.cg.16.zmix g_rand_5": {"short": 24, "sum": 21, "wzall": 24}
# "cpasync.cg.16.zmix g_rand_6": {"short": 11, "sum": 9, "wzall": 10}
# "cpasync.cg.16.zmix g_rand_7": {"short": 23, "sum": 20, "wzall": 22}
# "cpasync.cg.16.zmix g_tile_0": {"short": 15, "sum": 12, "wzall": 13}
# "cpasync.cg.16.zmix g_tile_1": {"short": 26, "sum": 19, "wzall": 24}
# "cpasync.cg.16.zmix g_tile_2": {"short": 12, "sum": 12, "wzall": 12}
# "cpasync.cg.16.zmix g_tile_3": {"short": 14, "sum": 14, "wzall": 14}
# "cpasync.cg.16.zmix g_tile_4": {"short": 30, "sum": 23, "wzall": 24}
# "cpasync.cg.16.zmix g_tile_5": {"short": 13, "sum": 13, "wzall": 13}
# "cpasync.cg.16.zmix g_tile_6": {"short": 22, "sum": 21, "wzall": 22}
# "cpasync.cg.16.zmix g_tile_7": {"short": 36, "sum": 27, "wzall": 28}
# "cpasync.cg.16.zmix g_whole_0": {"short": 20, "sum": 17, "wzall": 19}
# "cpasync.cg.16.zmix g_whole_1": {"short": 19, "sum": 17, "wzall": 20}
# "cpasync.cg.16.zmix g_whole_2": {"short": 15, "sum": 14, "wzall": 15}
# "cpasync.cg.16.zmix g_whole_3": {"short": 22, "sum": 17, "wzall": 20}
# "cpasync.cg.16.zmix g_whole_4": {"short": 17, "sum": 14, "wzall": 18}
# "cpasync.cg.16.zmix g_whole_5": {"short": 20, "sum": 17, "wzall": 20}
# "cpasync.cg.16.zmix g_whole_6": {"short": 21, "sum": 17, "wzall": 20}
# "cpasync.cg.16.zmix g_whole_7": {"short": 14, "sum": 14, "wzall": 14}
