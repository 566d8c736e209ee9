#!/usr/bin/env python3
"""gen_patterns14.py: the fourteenth cp.async run (issue 15), held out for the ROUNDS rule
(fit_ldgsts.cg_rounds), fitted after the thirteenth run on every distinct whole .cg row of the
thirteen runs (1341 of 1341; the nested deferral rule, the model before it, 1330: its 11 misses of
h100-ldsm13.csv). Every prediction is committed before the run (the table at the end; the script
checks that it still computes it).

The rule held out ('rounds'): keep one lane per destination (the lowest); group the kept lanes by
(global 16-byte chunk, 128-byte shared line, 16-byte parity of the destination); round k takes the
k-th HIGHEST lane of every group; each round costs the warp rule over its own lanes (keys and whole
pairs found again within the round), and the rounds add up. It is the deferral rule with two changes:
a lower lane is deferred under the SAME key too, and the lanes deferred at every level go to one
later round (not nested sets). The other hypotheses, priced for every row so that the run can reject
them:
  'nested': the model before this run (the deferral rule, nested; established up to two splits);
  'merge' : the deferral rule ('another key'), the lanes it defers peeled off repeatedly and gathered
            into one later set, priced again by 'merge' (1340 of 1341: c_chain_4 10 where the H100
            says 9);
  'mtop'  : 'merge' with the same-key deferral at the first level only (1341 of 1341);
  'keyed' : one level of the deferral rule; 'warp': the warp rule alone.
'splits' is the number of splits the nested rule makes (smem_cp_async_deferrals before this run),
'nr' the number of rounds (the most lanes of one group: 1 to 4).
Groups (seeded):
  (A) controls of the old class: warps the nested rule splits at most twice (established before this
      run) where 'rounds' and 'nested' differ, 0, 1 and 2 splits: mostly whole pairs of one key
      whose lanes cross (pair a's first half above pair b's, its second below), which the rounds
      break into half items;
  (B) warps split 3 or more times by the nested rule, 3 and 4 rounds, two thirds where 'rounds'
      differs from 'nested', 'merge' or 'mtop', the rest at random (the families of
      gen_patterns13.py: deep, chain, whole pairs, two lines, h_line);
  (E) one global sector copied into all eight chunks of one shared line (whole pairs and halves, in
      random lane orders), and seven of the eight with a filler copy;
  (M) warps where 'rounds' and 'mtop' differ;
  (Z) .cg zmix warps (zero-fill lanes mixed with whole ones; the short-lane rule: the .ca hub rule
      over every lane + the .cg rule over the reading lanes kept) where 'rounds' and 'nested' differ;
  (N) 6 controls where every hypothesis agrees.
Writes patterns14.txt / patterns14.json; run by run14.sh (run_lean.sh 14). Before the run the model
at this commit still implements 'nested' (src/model/matrix.c).

The run (../h100-ldsm14.csv, 2026-11-24 13:42 UTC; ../h100-ldsm14r.csv a second process, equal on
all 78): 'rounds' 78 of 78 (A 24/24, B 28/28, E 10/10, M 6/6, Z 4/4, N 6/6; 2, 3 and 4 rounds: 20,
35, 23 launches), 'nested' 18 (A 0, B 9, E 3, N 6), 'merge' 31, 'mtop' 66 (M 0), 'keyed' 21,
'warp' 7. a_old0_0 lies in the warp rule's class (no chunk into one line under two keys): the warp
rule says 3, the H100 5 (two whole pairs of one key whose lanes cross). The model takes the rounds
rule and every .cg request is established (docs/bank-model.md)."""
import json, os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fit_ldgsts as F  # noqa: E402
import gen_patterns9 as G9  # noqa: E402
import gen_patterns13 as G13  # noqa: E402  (its generators; they draw from G13.rnd, re-seeded below)

rnd = random.Random(1514)
G13.rnd = rnd
txt, js, names = [], [], set()
CG = 'cpasync.cg.16'
HYP = ('rounds', 'nested', 'merge', 'mtop', 'keyed', 'warp')


def row(kind, dst, src, mask):
    return dict(kind=kind, cg=True, size=16, zf=False, sb=16, mask=mask, dst=list(dst), src=list(src), wf=0)


def whole(r):
    """every hypothesis for a whole .cg row, its splits, rounds and class"""
    q = F.cg_dedup(r)
    L = [l for l in range(32) if q['mask'] >> l & 1]
    p = {'rounds': F.cg_rounds(r), 'nested': F.cg_nested(r), 'merge': F.cg_merge(r), 'mtop': F.cg_merge(r, True),
         'keyed': F.cg_deferred(r), 'warp': F.cg_warp_mult(r)}
    p['splits'] = G13.nsplits(q, L)
    p['nr'] = len(F.cg_round_sets(q, L))
    p['class'] = int(F.cg_warp_class(r))
    return p


def predict(r, zero):
    if not zero:
        return whole(r)
    hub = G9.hub(r, zero)
    kept = G9.keep_first(r, r['mask']) & ~zero
    p = whole(dict(r, mask=kept))
    return {k: (v if k in ('class', 'splits', 'nr') else hub + v) for k, v in p.items()}


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


def eight(i):
    """one global sector into all eight chunks of one shared line (i % 3 == 2: seven of them and a
    copy of another sector of the line into the eighth), lanes at random"""
    G, S = 128 * rnd.randrange(64, 256), 128 * rnd.randrange(0, 64)
    sec = rnd.randrange(4)
    pos = list(range(8))
    halves = [0, 1] * 4
    rnd.shuffle(halves)
    copies = [(G + 32 * sec + 16 * h, S + 16 * p) for h, p in zip(halves, pos)]
    if i % 3 == 2:
        k = rnd.randrange(8)
        copies[k] = (G + 32 * ((sec + rnd.randrange(1, 4)) % 4) + 16 * rnd.randrange(2), S + 16 * k)
    return G13.place(copies)


def crossed(i):
    """two to four whole pairs of one or two global sectors into one shared line (straight or swapped),
    some of them of one key, in random lane orders, and 0 to 2 half copies: where the rounds break
    crossing pairs"""
    G, S = 128 * rnd.randrange(64, 256), 128 * rnd.randrange(0, 64)
    secs = rnd.sample(range(4), rnd.choice((1, 1, 2)))
    copies = []
    for ss in rnd.sample(range(4), rnd.randrange(2, 5)):
        sec, swp = rnd.choice(secs), rnd.randrange(2)
        copies += [(G + 32 * sec, S + 32 * ss + 16 * swp), (G + 32 * sec + 16, S + 32 * ss + 16 * (1 - swp))]
    for _ in range(rnd.randrange(0, 3)):
        copies.append((G + 32 * rnd.choice(secs) + 16 * rnd.randrange(2), rnd.choice((S, S + 1024)) + 16 * rnd.randrange(8)))
    seen, out = set(), []
    for a, b in copies:
        if b not in seen:
            seen.add(b)
            out.append((a, b))
    return G13.place(out)


GENS = {'deep': G13.deep, 'chain': G13.chain, 'wpairs': G13.wpairs, 'two': G13.two, 'hline': G13.hline,
        'crossed': crossed, 'eight': eight}


def pool(gens, tries, ok):
    """candidates (p, dst, src, mask) from the generators named, tries each, where ok(p)"""
    out = []
    for g in gens:
        for i in range(tries):
            dst, src, mask = GENS[g](i)
            p = whole(row(CG, dst, src, mask))
            if ok(p):
                out.append((p, dst, src, mask))
    return out


def pick(cands, n, tag, group, prefer=None):
    """n of cands (two thirds where prefer(p) when given, the rest at random), added in draw order"""
    idx = list(range(len(cands)))
    chosen = []
    if prefer:
        good = [i for i in idx if prefer(cands[i][0])]
        chosen = rnd.sample(good, min(len(good), n * 2 // 3))
    rest = [i for i in idx if i not in chosen]
    chosen += rnd.sample(rest, min(len(rest), n - len(chosen)))
    for k, i in enumerate(sorted(chosen)):
        p, dst, src, mask = cands[i]
        add(CG, f'{tag}_{k}', dst, src, mask, group)


def differ(p, hs=('nested', 'merge', 'mtop')):
    return any(p[h] != p['rounds'] for h in hs)


# (A) the old class (splits <= 2) where rounds and nested differ: 10 at 0 splits, 8 at 1, 6 at 2
for s, n in ((0, 10), (1, 8), (2, 6)):
    c = pool(('crossed', 'wpairs', 'deep', 'two', 'hline'), 500,
             lambda p, s=s: p['splits'] == s and p['rounds'] != p['nested'])
    pick(c, n, f'a_old{s}', 'A')
# (B) split 3 or more times: 14 at 3 rounds, 14 at 4
for nr, n in ((3, 14), (4, 14)):
    c = pool(('deep', 'chain', 'wpairs', 'crossed', 'hline', 'two'), 700,
             lambda p, nr=nr: p['splits'] >= 3 and p['nr'] == nr)
    pick(c, n, f'b_deep{nr}', 'B', differ)
# (E) one sector into all eight chunks of a line (and seven of eight)
c = pool(('eight',), 600, lambda p: True)
pick(c, 10, 'e_eight', 'E', lambda p: differ(p, ('nested',)))
# (M) rounds and mtop differ
c = pool(('crossed', 'wpairs', 'deep'), 1500, lambda p: p['rounds'] != p['mtop'])
pick(c, 6, 'm_mtop', 'M')
# (Z) zmix: zero-fill lanes on free lanes (some on kept destinations), the reading lanes where rounds and nested differ
m, tries = 0, 0
while m < 4 and tries < 20000:
    tries += 1
    dst, src, mask = (crossed, G13.deep, G13.chain, G13.wpairs)[m % 4](m)
    free = [l for l in range(32) if not mask >> l & 1]
    zl = rnd.sample(free, rnd.randrange(2, 7))
    used = [dst[l] for l in range(32) if mask >> l & 1]
    for l in zl:
        dst[l] = rnd.choice(used) if rnd.random() < 0.4 else 16 * rnd.randrange(16, 48)
        src[l] = 16 * rnd.randrange(4096)
        mask |= 1 << l
    zero = sum(1 << l for l in zl)
    r = row(CG + '.zmix', dst, src, mask)
    kept = G9.keep_first(r, mask) & ~zero
    if not kept:
        continue
    p = whole(dict(r, mask=kept))
    if p['rounds'] == p['nested']:
        continue
    add(CG + '.zmix', f'z_zmix_{m}', dst, src, mask, 'Z', zero)
    m += 1
# (N) controls: every hypothesis agrees (crowded, 2 to 4 rounds)
c = pool(('deep', 'chain', 'two', 'hline'), 150, lambda p: p['nr'] >= 2 and not differ(p, HYP[1:4]))
pick(c, 6, 'n_ctl', 'N')

import predictions as P  # noqa: E402


if __name__ == '__main__':
    open(os.path.join(HERE, 'patterns14.txt'), 'w').write('\n'.join(txt) + '\n')
    json.dump(js, open(os.path.join(HERE, 'patterns14.json'), 'w'), indent=0)
    table = {f"{p['kind']} {p['name']}": p['predicted'] for p in js}
    print(len(txt), 'launches; splits:', sorted(v['splits'] for v in table.values()))
    print('rounds:', sorted(v['nr'] for v in table.values()))
    for h in HYP[1:]:
        print(f"  {h:6s} differs from rounds on {sum(v[h] != v['rounds'] for v in table.values())}")
    P.write_or_check(__file__, table, '--write-table' in sys.argv)


# ---- PREDICTIONS, written by --write-table before the run: "kind name": {hypothesis: wavefronts} ----
# "cpasync.cg.16 a_old0_0": {"class": 1, "keyed": 3, "merge": 3, "mtop": 5, "nested": 3, "nr": 2, "rounds": 5, "splits": 0, "warp": 3}
# "cpasync.cg.16 a_old0_1": {"class": 0, "keyed": 4, "merge": 4, "mtop": 6, "nested": 4, "nr": 2, "rounds": 6, "splits": 0, "warp": 4}
# "cpasync.cg.16 a_old0_2": {"class": 0, "keyed": 4, "merge": 4, "mtop": 6, "nested": 4, "nr": 2, "rounds": 6, "splits": 0, "warp": 4}
# "cpasync.cg.16 a_old0_3": {"class": 0, "keyed": 3, "merge": 3, "mtop": 5, "nested": 3, "nr": 2, "rounds": 5, "splits": 0, "warp": 3}
# "cpasync.cg.16 a_old0_4": {"class": 0, "keyed": 3, "merge": 3, "mtop": 5, "nested": 3, "nr": 2, "rounds": 5, "splits": 0, "warp": 3}
# "cpasync.cg.16 a_old0_5": {"class": 0, "keyed": 4, "merge": 4, "mtop": 6, "nested": 4, "nr": 2, "rounds": 6, "splits": 0, "warp": 4}
# "cpasync.cg.16 a_old0_6": {"class": 0, "keyed": 4, "merge": 4, "mtop": 6, "nested": 4, "nr": 2, "rounds": 6, "splits": 0, "warp": 4}
# "cpasync.cg.16 a_old0_7": {"class": 0, "keyed": 3, "merge": 3, "mtop": 6, "nested": 3, "nr": 2, "rounds": 6, "splits": 0, "warp": 3}
# "cpasync.cg.16 a_old0_8": {"class": 0, "keyed": 4, "merge": 4, "mtop": 6, "nested": 4, "nr": 2, "rounds": 6, "splits": 0, "warp": 4}
# "cpasync.cg.16 a_old0_9": {"class": 0, "keyed": 3, "merge": 3, "mtop": 5, "nested": 3, "nr": 2, "rounds": 5, "splits": 0, "warp": 3}
# "cpasync.cg.16 a_old1_0": {"class": 0, "keyed": 4, "merge": 4, "mtop": 6, "nested": 4, "nr": 3, "rounds": 6, "splits": 1, "warp": 4}
# "cpasync.cg.16 a_old1_1": {"class": 0, "keyed": 4, "merge": 4, "mtop": 4, "nested": 4, "nr": 3, "rounds": 6, "splits": 1, "warp": 4}
# "cpasync.cg.16 a_old1_2": {"class": 0, "keyed": 5, "merge": 5, "mtop": 4, "nested": 5, "nr": 3, "rounds": 4, "splits": 1, "warp": 3}
# "cpasync.cg.16 a_old1_3": {"class": 0, "keyed": 7, "merge": 7, "mtop": 6, "nested": 7, "nr": 3, "rounds": 6, "splits": 1, "warp": 4}
# "cpasync.cg.16 a_old1_4": {"class": 0, "keyed": 7, "merge": 7, "mtop": 6, "nested": 7, "nr": 3, "rounds": 6, "splits": 1, "warp": 3}
# "cpasync.cg.16 a_old1_5": {"class": 0, "keyed": 7, "merge": 7, "mtop": 6, "nested": 7, "nr": 3, "rounds": 6, "splits": 1, "warp": 4}
# "cpasync.cg.16 a_old1_6": {"class": 0, "keyed": 4, "merge": 4, "mtop": 6, "nested": 4, "nr": 3, "rounds": 6, "splits": 1, "warp": 4}
# "cpasync.cg.16 a_old1_7": {"class": 0, "keyed": 3, "merge": 3, "mtop": 5, "nested": 3, "nr": 3, "rounds": 5, "splits": 1, "warp": 3}
# "cpasync.cg.16 a_old2_0": {"class": 0, "keyed": 8, "merge": 9, "mtop": 8, "nested": 9, "nr": 4, "rounds": 8, "splits": 2, "warp": 5}
# "cpasync.cg.16 a_old2_1": {"class": 0, "keyed": 6, "merge": 6, "mtop": 6, "nested": 6, "nr": 4, "rounds": 8, "splits": 2, "warp": 4}
# "cpasync.cg.16 a_old2_2": {"class": 0, "keyed": 7, "merge": 8, "mtop": 7, "nested": 8, "nr": 4, "rounds": 7, "splits": 2, "warp": 4}
# "cpasync.cg.16 a_old2_3": {"class": 0, "keyed": 4, "merge": 5, "mtop": 7, "nested": 5, "nr": 4, "rounds": 7, "splits": 2, "warp": 4}
# "cpasync.cg.16 a_old2_4": {"class": 0, "keyed": 7, "merge": 8, "mtop": 7, "nested": 8, "nr": 4, "rounds": 7, "splits": 2, "warp": 4}
# "cpasync.cg.16 a_old2_5": {"class": 0, "keyed": 5, "merge": 5, "mtop": 5, "nested": 5, "nr": 4, "rounds": 7, "splits": 2, "warp": 5}
# "cpasync.cg.16 b_deep3_0": {"class": 0, "keyed": 5, "merge": 5, "mtop": 5, "nested": 5, "nr": 3, "rounds": 5, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep3_1": {"class": 0, "keyed": 6, "merge": 6, "mtop": 6, "nested": 6, "nr": 3, "rounds": 6, "splits": 3, "warp": 5}
# "cpasync.cg.16 b_deep3_10": {"class": 0, "keyed": 5, "merge": 7, "mtop": 7, "nested": 6, "nr": 3, "rounds": 7, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep3_11": {"class": 0, "keyed": 4, "merge": 5, "mtop": 5, "nested": 4, "nr": 3, "rounds": 5, "splits": 3, "warp": 3}
# "cpasync.cg.16 b_deep3_12": {"class": 0, "keyed": 4, "merge": 5, "mtop": 5, "nested": 4, "nr": 3, "rounds": 5, "splits": 3, "warp": 3}
# "cpasync.cg.16 b_deep3_13": {"class": 0, "keyed": 5, "merge": 7, "mtop": 7, "nested": 6, "nr": 3, "rounds": 7, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep3_2": {"class": 0, "keyed": 7, "merge": 8, "mtop": 8, "nested": 8, "nr": 3, "rounds": 8, "splits": 3, "warp": 5}
# "cpasync.cg.16 b_deep3_3": {"class": 0, "keyed": 6, "merge": 6, "mtop": 6, "nested": 6, "nr": 3, "rounds": 6, "splits": 3, "warp": 5}
# "cpasync.cg.16 b_deep3_4": {"class": 0, "keyed": 5, "merge": 7, "mtop": 7, "nested": 6, "nr": 3, "rounds": 7, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep3_5": {"class": 0, "keyed": 5, "merge": 6, "mtop": 6, "nested": 5, "nr": 3, "rounds": 6, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep3_6": {"class": 0, "keyed": 4, "merge": 5, "mtop": 5, "nested": 4, "nr": 3, "rounds": 5, "splits": 3, "warp": 3}
# "cpasync.cg.16 b_deep3_7": {"class": 0, "keyed": 5, "merge": 7, "mtop": 7, "nested": 6, "nr": 3, "rounds": 7, "splits": 3, "warp": 3}
# "cpasync.cg.16 b_deep3_8": {"class": 0, "keyed": 4, "merge": 5, "mtop": 5, "nested": 4, "nr": 3, "rounds": 5, "splits": 3, "warp": 3}
# "cpasync.cg.16 b_deep3_9": {"class": 0, "keyed": 5, "merge": 7, "mtop": 7, "nested": 6, "nr": 3, "rounds": 7, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep4_0": {"class": 0, "keyed": 7, "merge": 7, "mtop": 7, "nested": 7, "nr": 4, "rounds": 7, "splits": 3, "warp": 7}
# "cpasync.cg.16 b_deep4_1": {"class": 0, "keyed": 5, "merge": 5, "mtop": 5, "nested": 5, "nr": 4, "rounds": 5, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep4_10": {"class": 0, "keyed": 7, "merge": 9, "mtop": 9, "nested": 9, "nr": 4, "rounds": 9, "splits": 3, "warp": 5}
# "cpasync.cg.16 b_deep4_11": {"class": 0, "keyed": 6, "merge": 9, "mtop": 9, "nested": 7, "nr": 4, "rounds": 8, "splits": 3, "warp": 5}
# "cpasync.cg.16 b_deep4_12": {"class": 0, "keyed": 8, "merge": 8, "mtop": 8, "nested": 8, "nr": 4, "rounds": 8, "splits": 3, "warp": 6}
# "cpasync.cg.16 b_deep4_13": {"class": 0, "keyed": 7, "merge": 8, "mtop": 7, "nested": 8, "nr": 4, "rounds": 7, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep4_2": {"class": 0, "keyed": 5, "merge": 7, "mtop": 7, "nested": 5, "nr": 4, "rounds": 7, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep4_3": {"class": 0, "keyed": 6, "merge": 8, "mtop": 8, "nested": 8, "nr": 4, "rounds": 8, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep4_4": {"class": 0, "keyed": 5, "merge": 8, "mtop": 8, "nested": 6, "nr": 4, "rounds": 7, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep4_5": {"class": 0, "keyed": 7, "merge": 8, "mtop": 7, "nested": 8, "nr": 4, "rounds": 7, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep4_6": {"class": 0, "keyed": 7, "merge": 7, "mtop": 8, "nested": 7, "nr": 4, "rounds": 8, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep4_7": {"class": 0, "keyed": 7, "merge": 8, "mtop": 6, "nested": 8, "nr": 4, "rounds": 6, "splits": 3, "warp": 4}
# "cpasync.cg.16 b_deep4_8": {"class": 0, "keyed": 4, "merge": 6, "mtop": 6, "nested": 5, "nr": 4, "rounds": 6, "splits": 4, "warp": 4}
# "cpasync.cg.16 b_deep4_9": {"class": 0, "keyed": 7, "merge": 8, "mtop": 7, "nested": 8, "nr": 4, "rounds": 7, "splits": 3, "warp": 4}
# "cpasync.cg.16 e_eight_0": {"class": 0, "keyed": 5, "merge": 5, "mtop": 6, "nested": 5, "nr": 2, "rounds": 6, "splits": 1, "warp": 5}
# "cpasync.cg.16 e_eight_1": {"class": 0, "keyed": 5, "merge": 6, "mtop": 6, "nested": 5, "nr": 3, "rounds": 6, "splits": 3, "warp": 4}
# "cpasync.cg.16 e_eight_2": {"class": 0, "keyed": 7, "merge": 7, "mtop": 7, "nested": 7, "nr": 3, "rounds": 7, "splits": 2, "warp": 6}
# "cpasync.cg.16 e_eight_3": {"class": 0, "keyed": 8, "merge": 8, "mtop": 8, "nested": 8, "nr": 2, "rounds": 8, "splits": 0, "warp": 8}
# "cpasync.cg.16 e_eight_4": {"class": 0, "keyed": 4, "merge": 4, "mtop": 6, "nested": 4, "nr": 2, "rounds": 6, "splits": 0, "warp": 4}
# "cpasync.cg.16 e_eight_5": {"class": 0, "keyed": 7, "merge": 7, "mtop": 6, "nested": 7, "nr": 3, "rounds": 6, "splits": 1, "warp": 4}
# "cpasync.cg.16 e_eight_6": {"class": 0, "keyed": 7, "merge": 7, "mtop": 6, "nested": 7, "nr": 3, "rounds": 6, "splits": 1, "warp": 6}
# "cpasync.cg.16 e_eight_7": {"class": 0, "keyed": 4, "merge": 4, "mtop": 4, "nested": 4, "nr": 3, "rounds": 6, "splits": 1, "warp": 4}
# "cpasync.cg.16 e_eight_8": {"class": 0, "keyed": 7, "merge": 7, "mtop": 7, "nested": 7, "nr": 3, "rounds": 7, "splits": 3, "warp": 6}
# "cpasync.cg.16 e_eight_9": {"class": 0, "keyed": 8, "merge": 8, "mtop": 7, "nested": 8, "nr": 3, "rounds": 7, "splits": 1, "warp": 6}
# "cpasync.cg.16 m_mtop_0": {"class": 0, "keyed": 3, "merge": 3, "mtop": 3, "nested": 3, "nr": 3, "rounds": 5, "splits": 1, "warp": 3}
# "cpasync.cg.16 m_mtop_1": {"class": 0, "keyed": 6, "merge": 9, "mtop": 9, "nested": 7, "nr": 4, "rounds": 8, "splits": 3, "warp": 5}
# "cpasync.cg.16 m_mtop_2": {"class": 0, "keyed": 5, "merge": 8, "mtop": 8, "nested": 6, "nr": 4, "rounds": 7, "splits": 3, "warp": 4}
# "cpasync.cg.16 m_mtop_3": {"class": 0, "keyed": 4, "merge": 4, "mtop": 4, "nested": 4, "nr": 3, "rounds": 6, "splits": 1, "warp": 4}
# "cpasync.cg.16 m_mtop_4": {"class": 0, "keyed": 4, "merge": 4, "mtop": 4, "nested": 4, "nr": 3, "rounds": 6, "splits": 1, "warp": 4}
# "cpasync.cg.16 m_mtop_5": {"class": 0, "keyed": 5, "merge": 7, "mtop": 7, "nested": 5, "nr": 4, "rounds": 6, "splits": 3, "warp": 4}
# "cpasync.cg.16 n_ctl_0": {"class": 0, "keyed": 7, "merge": 7, "mtop": 7, "nested": 7, "nr": 2, "rounds": 7, "splits": 1, "warp": 6}
# "cpasync.cg.16 n_ctl_1": {"class": 0, "keyed": 6, "merge": 6, "mtop": 6, "nested": 6, "nr": 3, "rounds": 6, "splits": 2, "warp": 6}
# "cpasync.cg.16 n_ctl_2": {"class": 0, "keyed": 9, "merge": 9, "mtop": 9, "nested": 9, "nr": 2, "rounds": 9, "splits": 1, "warp": 9}
# "cpasync.cg.16 n_ctl_3": {"class": 1, "keyed": 9, "merge": 9, "mtop": 9, "nested": 9, "nr": 2, "rounds": 9, "splits": 0, "warp": 9}
# "cpasync.cg.16 n_ctl_4": {"class": 0, "keyed": 19, "merge": 19, "mtop": 19, "nested": 19, "nr": 2, "rounds": 19, "splits": 1, "warp": 17}
# "cpasync.cg.16 n_ctl_5": {"class": 0, "keyed": 23, "merge": 23, "mtop": 23, "nested": 23, "nr": 2, "rounds": 23, "splits": 1, "warp": 23}
# "cpasync.cg.16.zmix z_zmix_0": {"class": 0, "keyed": 13, "merge": 13, "mtop": 15, "nested": 13, "nr": 2, "rounds": 15, "splits": 1, "warp": 13}
# "cpasync.cg.16.zmix z_zmix_1": {"class": 0, "keyed": 22, "merge": 22, "mtop": 21, "nested": 22, "nr": 3, "rounds": 21, "splits": 1, "warp": 19}
# "cpasync.cg.16.zmix z_zmix_2": {"class": 0, "keyed": 13, "merge": 13, "mtop": 12, "nested": 13, "nr": 3, "rounds": 12, "splits": 1, "warp": 10}
# "cpasync.cg.16.zmix z_zmix_3": {"class": 0, "keyed": 12, "merge": 12, "mtop": 14, "nested": 12, "nr": 2, "rounds": 14, "splits": 1, "warp": 12}
