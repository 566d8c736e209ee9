#!/usr/bin/env python3
"""gen_patterns10.py: the tenth cp.async run (issue 15), held out for the chunk rule fitted after the
ninth for whole .cg copies outside the warp rule's class (a global 16-byte chunk read by two kept
lanes into one 128-byte shared line under different keys). Every prediction is committed before
the run (the table at the end; the script checks that it still computes it).
Fitted on the 304 distinct whole .cg rows outside the class of h100-ldsm{,..,8}.csv, 304 of 304
(the repeats 612 of 612; the estimate before it 605 of 612, missing h_line_3, h_line_10, h_line_16):
  'chunk' (the rule to hold out, fit_ldgsts.cg_outside_chunks): the warp rule plus, over the chunks
      c, the most shared lines in which c has a hit: t the lowest kept lane reading c into the line
      shares its wavefront with another chunk, and a later lane x of another key writes c at the
      same position in a sector (an even number of chunks from t's destination) and is alone in
      its wavefront.
The other hypotheses, priced for every row so that the run can reject them:
  'est' (the model before this run, fit_ldgsts.cg_outside_extra): one more for each wavefront of t
      with a hit, x alone or not (a sum, not a max);
  'sum' (the chunk rule's hits summed over the chunks instead of the most of one chunk);
  'warp': the warp rule alone.
Groups: (K) 48 warps of the h_line family (8 lanes a pass on one or two sectors of one line,
destinations in 512 B or 1 KB), outside the class, chosen at random among those where 'chunk'
differs from 'est' or 'sum' or adds 2 (every such warp drawn, up to the count), the rest at random;
(L) 32 warps of every lane on one or two global lines (destinations in 1 or 2 KB), outside the
class; (M) 12 .cg zmix warps of the K family outside the class (the short-lane rule: the .ca hub
pass of every lane plus the warp rule over the reading lanes kept, with the chunk rule's extra);
(N) 8 warps inside the class (controls). Writes patterns10.txt / patterns10.json; run by run7.sh
with RUN=10."""
import json, os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fit_ldgsts as F  # noqa: E402

rnd = random.Random(1510)
txt, js, names = [], [], set()


def row(kind, dst, src, mask):
    k = kind.split('.')
    return dict(kind=kind, cg=k[1] == 'cg', size=int(k[2]), zf=False, sb=16, mask=mask, dst=list(dst),
                src=list(src), wf=0)


def hits_sum(r):
    """the chunk rule's hits summed over the chunks (the hypothesis 'sum')"""
    q, L, key = F.cg_lane_keys(r)
    n = 0
    for c in {q['src'][l] // 16 for l in L}:
        # the lines of chunk c with a hit: the chunk rule restricted to c's lanes' hits
        one = F.cg_outside_chunks_lines(r).get(c, set())
        n += len(one)
    return n


def whole(r, mask):
    q = dict(r, mask=mask, zf=False, sb=16)
    if not mask:
        return {'chunk': 0, 'est': 0, 'sum': 0, 'warp': 0}
    w = F.cg_warp_mult(q)
    if F.cg_warp_class(q):
        return {'chunk': w, 'est': w, 'sum': w, 'warp': w}
    return {'chunk': w + F.cg_outside_chunks(q), 'est': w + F.cg_outside_extra(q), 'sum': w + hits_sum(q), 'warp': w}


def keep_first(r, mask):
    seen, k = set(), 0
    for l in range(32):
        if mask >> l & 1 and r['dst'][l] not in seen:
            seen.add(r['dst'][l])
            k |= 1 << l
    return k


def predict(r, zero):
    if not zero:
        return whole(r, r['mask'])
    import gen_patterns9 as G9
    hub = G9.hub(r, zero)
    return {k: hub + v for k, v in whole(r, keep_first(r, r['mask']) & ~zero).items()}


def add(kind, name, dst, src, mask, group, zero=0):
    assert (kind, name) not in names, name
    names.add((kind, name))
    r = row(kind, dst, src, mask)
    for l in range(32):
        if mask >> l & 1:
            assert r['dst'][l] % 16 == 0 and r['src'][l] % 16 == 0, name
            assert r['dst'][l] + 16 <= 48 * 1024 and r['src'][l] + 16 <= 65536, name
    enc = [r['src'][l] | (1 if zero >> l & 1 else 0) for l in range(32)]  # ldsm.cu: bit 0 = src-size 0
    txt.append(f"{kind} {name} " + " ".join(map(str, r['dst'])) + " " + " ".join(map(str, enc)) + f" {mask:x}")
    js.append(dict(kind=kind, name=name, off=r['dst'], goff=enc, mask=mask, group=group, zero=zero,
                   predicted=predict(r, zero)))


def hline(i):
    """as gen_patterns7.py h_line_*: every pass one or two sectors of line L, destinations in 512 B or 1 KB"""
    dst, src = [], []
    line = rnd.randrange(128)
    for p in range(4):
        secs = rnd.sample(range(4), rnd.choice((1, 2)))
        for l in range(8):
            src.append(line * 128 + 32 * rnd.choice(secs) + 16 * rnd.randrange(2))
            dst.append(16 * rnd.randrange(32 if i % 2 else 64))
    return dst, src


def lines(i):
    """every lane on one or two global lines, destinations in 1 or 2 KB"""
    ls = rnd.sample(range(256), rnd.choice((1, 2)))
    return ([16 * rnd.randrange(128 if i % 2 else 64) for _ in range(32)],
            [128 * rnd.choice(ls) + 16 * rnd.randrange(8) for _ in range(32)])


def outside(dst, src, mask=0xffffffff):
    return not F.cg_warp_class(row(CG, dst, src, mask))


def draw(gen, n, tag, group):
    """n warps outside the class: first those where the hypotheses differ or the rule adds 2"""
    pool = []
    for i in range(4000):
        dst, src = gen(i)
        if not outside(dst, src):
            continue
        p = whole(row(CG, dst, src, 0xffffffff), 0xffffffff)
        inter = p['chunk'] != p['est'] or p['chunk'] != p['sum'] or p['chunk'] - p['warp'] >= 2
        pool.append((not inter, i, dst, src))
    pool.sort(key=lambda x: x[0])
    picked = [x for x in pool if not x[0]][:n * 2 // 3]
    rest = [x for x in pool if x not in picked]
    picked += rnd.sample(rest, n - len(picked))
    for j, (_, i, dst, src) in enumerate(picked):
        add(CG, f'{tag}_{j}', dst, src, 0xffffffff, group)
    return picked


CG = 'cpasync.cg.16'
# ---- (K) the h_line family outside the class ----
draw(hline, 48, 'k_line', 'K')
# ---- (L) one or two global lines, destinations in 1 or 2 KB, outside the class ----
draw(lines, 32, 'l_lines', 'L')
# ---- (M) zmix over the h_line family, the reading lanes kept outside the class ----
m = 0
while m < 12:
    dst, src = hline(m)
    zero = rnd.getrandbits(32) & rnd.getrandbits(32)  # about a quarter of the lanes zero-fill
    r = row(CG + '.zmix', dst, src, 0xffffffff)
    kept = keep_first(r, 0xffffffff) & ~zero
    if not kept or F.cg_warp_class(dict(r, mask=kept)):
        continue
    add(CG + '.zmix', f'm_zmix_{m}', dst, src, 0xffffffff, 'M', zero)
    m += 1
# ---- (N) controls inside the class ----
n = 0
while n < 8:
    dst, src = hline(n) if n % 2 else lines(n)
    if outside(dst, src):
        continue
    add(CG, f'n_in_{n}', dst, src, 0xffffffff, 'N')
    n += 1

import predictions as P  # noqa: E402


if __name__ == '__main__':
    open(os.path.join(HERE, 'patterns10.txt'), 'w').write('\n'.join(txt) + '\n')
    json.dump(js, open(os.path.join(HERE, 'patterns10.json'), 'w'), indent=0)
    table = {f"{p['kind']} {p['name']}": p['predicted'] for p in js}
    diff = {h: sum(p['predicted'][h] != p['predicted']['chunk'] for p in js) for h in ('est', 'sum', 'warp')}
    print(len(txt), 'launches; rows where a hypothesis differs from the chunk rule:', diff,
          '; chunk rule adds 2:', sum(p['predicted']['chunk'] - p['predicted']['warp'] >= 2 for p in js))
    P.write_or_check(__file__, table, '--write-table' in sys.argv)


# ---- PREDICTIONS, written by --write-table before the run: "kind name": {hypothesis: wavefronts} ----
# "cpasync.cg.16 k_line_0": {"chunk": 20, "est": 21, "sum": 21, "warp": 19}
# "cpasync.cg.16 k_line_1": {"chunk": 22, "est": 22, "sum": 22, "warp": 20}
# "cpasync.cg.16 k_line_10": {"chunk": 20, "est": 21, "sum": 21, "warp": 19}
# "cpasync.cg.16 k_line_11": {"chunk": 26, "est": 26, "sum": 26, "warp": 24}
# "cpasync.cg.16 k_line_12": {"chunk": 17, "est": 17, "sum": 18, "warp": 16}
# "cpasync.cg.16 k_line_13": {"chunk": 19, "est": 20, "sum": 20, "warp": 18}
# "cpasync.cg.16 k_line_14": {"chunk": 22, "est": 23, "sum": 23, "warp": 21}
# "cpasync.cg.16 k_line_15": {"chunk": 23, "est": 24, "sum": 23, "warp": 23}
# "cpasync.cg.16 k_line_16": {"chunk": 17, "est": 17, "sum": 18, "warp": 16}
# "cpasync.cg.16 k_line_17": {"chunk": 22, "est": 23, "sum": 23, "warp": 21}
# "cpasync.cg.16 k_line_18": {"chunk": 17, "est": 18, "sum": 18, "warp": 16}
# "cpasync.cg.16 k_line_19": {"chunk": 20, "est": 21, "sum": 20, "warp": 20}
# "cpasync.cg.16 k_line_2": {"chunk": 15, "est": 16, "sum": 15, "warp": 14}
# "cpasync.cg.16 k_line_20": {"chunk": 14, "est": 15, "sum": 15, "warp": 13}
# "cpasync.cg.16 k_line_21": {"chunk": 17, "est": 18, "sum": 17, "warp": 17}
# "cpasync.cg.16 k_line_22": {"chunk": 13, "est": 14, "sum": 13, "warp": 13}
# "cpasync.cg.16 k_line_23": {"chunk": 16, "est": 17, "sum": 16, "warp": 16}
# "cpasync.cg.16 k_line_24": {"chunk": 19, "est": 19, "sum": 19, "warp": 17}
# "cpasync.cg.16 k_line_25": {"chunk": 18, "est": 19, "sum": 18, "warp": 17}
# "cpasync.cg.16 k_line_26": {"chunk": 22, "est": 23, "sum": 23, "warp": 21}
# "cpasync.cg.16 k_line_27": {"chunk": 13, "est": 14, "sum": 13, "warp": 13}
# "cpasync.cg.16 k_line_28": {"chunk": 17, "est": 18, "sum": 18, "warp": 16}
# "cpasync.cg.16 k_line_29": {"chunk": 20, "est": 20, "sum": 20, "warp": 17}
# "cpasync.cg.16 k_line_3": {"chunk": 19, "est": 20, "sum": 20, "warp": 18}
# "cpasync.cg.16 k_line_30": {"chunk": 16, "est": 17, "sum": 17, "warp": 15}
# "cpasync.cg.16 k_line_31": {"chunk": 23, "est": 24, "sum": 24, "warp": 22}
# "cpasync.cg.16 k_line_32": {"chunk": 22, "est": 22, "sum": 22, "warp": 22}
# "cpasync.cg.16 k_line_33": {"chunk": 20, "est": 20, "sum": 20, "warp": 20}
# "cpasync.cg.16 k_line_34": {"chunk": 25, "est": 25, "sum": 25, "warp": 25}
# "cpasync.cg.16 k_line_35": {"chunk": 21, "est": 21, "sum": 21, "warp": 21}
# "cpasync.cg.16 k_line_36": {"chunk": 20, "est": 20, "sum": 20, "warp": 20}
# "cpasync.cg.16 k_line_37": {"chunk": 12, "est": 12, "sum": 12, "warp": 12}
# "cpasync.cg.16 k_line_38": {"chunk": 22, "est": 22, "sum": 22, "warp": 22}
# "cpasync.cg.16 k_line_39": {"chunk": 19, "est": 19, "sum": 19, "warp": 19}
# "cpasync.cg.16 k_line_4": {"chunk": 18, "est": 20, "sum": 18, "warp": 18}
# "cpasync.cg.16 k_line_40": {"chunk": 19, "est": 19, "sum": 19, "warp": 19}
# "cpasync.cg.16 k_line_41": {"chunk": 23, "est": 23, "sum": 23, "warp": 23}
# "cpasync.cg.16 k_line_42": {"chunk": 23, "est": 23, "sum": 23, "warp": 22}
# "cpasync.cg.16 k_line_43": {"chunk": 16, "est": 16, "sum": 16, "warp": 16}
# "cpasync.cg.16 k_line_44": {"chunk": 18, "est": 18, "sum": 18, "warp": 18}
# "cpasync.cg.16 k_line_45": {"chunk": 23, "est": 23, "sum": 23, "warp": 23}
# "cpasync.cg.16 k_line_46": {"chunk": 25, "est": 25, "sum": 25, "warp": 25}
# "cpasync.cg.16 k_line_47": {"chunk": 22, "est": 22, "sum": 22, "warp": 22}
# "cpasync.cg.16 k_line_5": {"chunk": 16, "est": 17, "sum": 16, "warp": 16}
# "cpasync.cg.16 k_line_6": {"chunk": 16, "est": 17, "sum": 16, "warp": 16}
# "cpasync.cg.16 k_line_7": {"chunk": 18, "est": 18, "sum": 19, "warp": 16}
# "cpasync.cg.16 k_line_8": {"chunk": 18, "est": 19, "sum": 18, "warp": 18}
# "cpasync.cg.16 k_line_9": {"chunk": 20, "est": 21, "sum": 20, "warp": 20}
# "cpasync.cg.16 l_lines_0": {"chunk": 22, "est": 23, "sum": 23, "warp": 21}
# "cpasync.cg.16 l_lines_1": {"chunk": 27, "est": 28, "sum": 27, "warp": 27}
# "cpasync.cg.16 l_lines_10": {"chunk": 23, "est": 25, "sum": 25, "warp": 22}
# "cpasync.cg.16 l_lines_11": {"chunk": 23, "est": 24, "sum": 24, "warp": 22}
# "cpasync.cg.16 l_lines_12": {"chunk": 27, "est": 28, "sum": 28, "warp": 26}
# "cpasync.cg.16 l_lines_13": {"chunk": 25, "est": 26, "sum": 26, "warp": 24}
# "cpasync.cg.16 l_lines_14": {"chunk": 24, "est": 25, "sum": 24, "warp": 24}
# "cpasync.cg.16 l_lines_15": {"chunk": 23, "est": 24, "sum": 24, "warp": 22}
# "cpasync.cg.16 l_lines_16": {"chunk": 23, "est": 24, "sum": 24, "warp": 22}
# "cpasync.cg.16 l_lines_17": {"chunk": 22, "est": 23, "sum": 22, "warp": 22}
# "cpasync.cg.16 l_lines_18": {"chunk": 25, "est": 26, "sum": 25, "warp": 25}
# "cpasync.cg.16 l_lines_19": {"chunk": 21, "est": 22, "sum": 22, "warp": 20}
# "cpasync.cg.16 l_lines_2": {"chunk": 27, "est": 27, "sum": 27, "warp": 25}
# "cpasync.cg.16 l_lines_20": {"chunk": 24, "est": 25, "sum": 25, "warp": 23}
# "cpasync.cg.16 l_lines_21": {"chunk": 25, "est": 25, "sum": 25, "warp": 25}
# "cpasync.cg.16 l_lines_22": {"chunk": 22, "est": 22, "sum": 22, "warp": 22}
# "cpasync.cg.16 l_lines_23": {"chunk": 28, "est": 28, "sum": 28, "warp": 28}
# "cpasync.cg.16 l_lines_24": {"chunk": 29, "est": 29, "sum": 29, "warp": 29}
# "cpasync.cg.16 l_lines_25": {"chunk": 29, "est": 29, "sum": 29, "warp": 29}
# "cpasync.cg.16 l_lines_26": {"chunk": 26, "est": 26, "sum": 26, "warp": 26}
# "cpasync.cg.16 l_lines_27": {"chunk": 26, "est": 26, "sum": 26, "warp": 26}
# "cpasync.cg.16 l_lines_28": {"chunk": 25, "est": 25, "sum": 25, "warp": 24}
# "cpasync.cg.16 l_lines_29": {"chunk": 29, "est": 29, "sum": 29, "warp": 29}
# "cpasync.cg.16 l_lines_3": {"chunk": 22, "est": 23, "sum": 22, "warp": 22}
# "cpasync.cg.16 l_lines_30": {"chunk": 23, "est": 23, "sum": 23, "warp": 23}
# "cpasync.cg.16 l_lines_31": {"chunk": 22, "est": 22, "sum": 22, "warp": 22}
# "cpasync.cg.16 l_lines_4": {"chunk": 21, "est": 22, "sum": 21, "warp": 21}
# "cpasync.cg.16 l_lines_5": {"chunk": 22, "est": 23, "sum": 23, "warp": 21}
# "cpasync.cg.16 l_lines_6": {"chunk": 17, "est": 18, "sum": 17, "warp": 17}
# "cpasync.cg.16 l_lines_7": {"chunk": 23, "est": 25, "sum": 23, "warp": 23}
# "cpasync.cg.16 l_lines_8": {"chunk": 25, "est": 26, "sum": 25, "warp": 25}
# "cpasync.cg.16 l_lines_9": {"chunk": 21, "est": 22, "sum": 22, "warp": 20}
# "cpasync.cg.16 n_in_0": {"chunk": 24, "est": 24, "sum": 24, "warp": 24}
# "cpasync.cg.16 n_in_1": {"chunk": 15, "est": 15, "sum": 15, "warp": 15}
# "cpasync.cg.16 n_in_2": {"chunk": 22, "est": 22, "sum": 22, "warp": 22}
# "cpasync.cg.16 n_in_3": {"chunk": 12, "est": 12, "sum": 12, "warp": 12}
# "cpasync.cg.16 n_in_4": {"chunk": 24, "est": 24, "sum": 24, "warp": 24}
# "cpasync.cg.16 n_in_5": {"chunk": 18, "est": 18, "sum": 18, "warp": 18}
# "cpasync.cg.16 n_in_6": {"chunk": 20, "est": 20, "sum": 20, "warp": 20}
# "cpasync.cg.16 n_in_7": {"chunk": 11, "est": 11, "sum": 11, "warp": 11}
# "cpasync.cg.16.zmix m_zmix_0": {"chunk": 44, "est": 44, "sum": 44, "warp": 44}
# "cpasync.cg.16.zmix m_zmix_1": {"chunk": 30, "est": 30, "sum": 30, "warp": 30}
# "cpasync.cg.16.zmix m_zmix_10": {"chunk": 37, "est": 37, "sum": 37, "warp": 37}
# "cpasync.cg.16.zmix m_zmix_11": {"chunk": 31, "est": 31, "sum": 31, "warp": 31}
# "cpasync.cg.16.zmix m_zmix_2": {"chunk": 38, "est": 38, "sum": 38, "warp": 37}
# "cpasync.cg.16.zmix m_zmix_3": {"chunk": 31, "est": 31, "sum": 31, "warp": 31}
# "cpasync.cg.16.zmix m_zmix_4": {"chunk": 37, "est": 37, "sum": 37, "warp": 37}
# "cpasync.cg.16.zmix m_zmix_5": {"chunk": 30, "est": 30, "sum": 30, "warp": 30}
# "cpasync.cg.16.zmix m_zmix_6": {"chunk": 40, "est": 40, "sum": 40, "warp": 39}
# "cpasync.cg.16.zmix m_zmix_7": {"chunk": 28, "est": 28, "sum": 28, "warp": 28}
# "cpasync.cg.16.zmix m_zmix_8": {"chunk": 32, "est": 32, "sum": 32, "warp": 32}
# "cpasync.cg.16.zmix m_zmix_9": {"chunk": 25, "est": 25, "sum": 25, "warp": 25}
