#!/usr/bin/env python3
"""fit_ldgsts.py: the offline model-fitter for the cp.async (LDGSTS) wavefronts: every cp.async row of
../h100-ldsm{,2,..,8}.csv, h100-ldsm10.csv, .., h100-ldsm14.csv and the repeats
h100-ldsm7r.csv, h100-ldsm8r.csv, h100-ldsm10r.csv, .., h100-ldsm14r.csv (those present) against
each rule tried, printed as rows exact / rows. The .zmix rows (zero-fill and whole lanes mixed) of
h100-ldsm8.csv are left out here (gen_patterns8.py prices them; test_banks_ldsm checks them).
The rule src/model/matrix.c implements is the hub rule for .ca and cg_rounds for .cg (since the
fourteenth run; cg_deferred(price='nested') before it) (ports); the others are hypotheses kept
with their scores, so that a rejected one is not tried again. Usage: python3 fit_ldgsts.py [-v]
(-v lists the rows each rule misses)."""
import csv, itertools, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = ['h100-ldsm.csv', 'h100-ldsm2.csv', 'h100-ldsm3.csv', 'h100-ldsm4.csv', 'h100-ldsm5.csv', 'h100-ldsm6.csv',
         'h100-ldsm7.csv', 'h100-ldsm7r.csv', 'h100-ldsm8.csv', 'h100-ldsm8r.csv', 'h100-ldsm10.csv', 'h100-ldsm10r.csv',
         'h100-ldsm11.csv', 'h100-ldsm11r.csv', 'h100-ldsm12.csv', 'h100-ldsm12r.csv', 'h100-ldsm13.csv',
         'h100-ldsm13r.csv', 'h100-ldsm14.csv', 'h100-ldsm14r.csv']


def load():
    """every cp.async row but the .zmix ones; the tenth run's (h100-ldsm10.csv) K and L rows are the
    held-out .cg rows outside the class"""
    out = []
    for f in FILES:
        p = os.path.join(HERE, '..', f)
        if not os.path.exists(p):
            continue
        for r in csv.DictReader(open(p)):
            if not r['kind'].startswith('cpasync') or 'zmix' in r['kind']:
                continue
            k = r['kind'].split('.')
            out.append(dict(file=f, kind=r['kind'], name=r['name'], cg=k[1] == 'cg', size=int(k[2]),
                            zf='zfill' in r['kind'], sb=4 if 'src4' in r['kind'] else int(k[2]),
                            mask=int(r['active_mask'], 16),
                            dst=[int(x) for x in r['addresses'].split()],
                            src=[int(x) for x in r['global_addresses'].split()], wf=int(r['wavefronts'])))
    return out


def passes(r):
    lanes = 32 // (r['size'] // 4)
    for p0 in range(0, 32, lanes):
        P = [l for l in range(p0, p0 + lanes) if r['mask'] >> l & 1]
        if P:
            yield P


def words(a, size):
    return [a // 4 + k for k in range(size // 4)]


def swords(r, l):
    """the source words lane l reads: none for a zero-fill (src-size 0) copy, the first sb bytes for
    src-size sb ('src4' rows: 4)"""
    return [] if r.get('zf') else words(r['src'][l], r.get('sb', r['size']))


def dstconf(r, L, distinct=False):
    """worst destination bank: lane-word writes (distinct words with distinct=True)"""
    ws = [w for l in L for w in words(r['dst'][l], r['size'])]
    if distinct:
        ws = set(ws)
    c = {}
    for w in ws:
        c[w % 32] = c.get(w % 32, 0) + 1
    return max(c.values()) if c else 0


def srcconf(r, L):
    """worst source bank, distinct 4-byte words, bank = (address / 4) mod 32"""
    if r['zf']:
        return 1 if L else 0
    ws = {w for l in L for w in swords(r, l)}
    c = {}
    for w in ws:
        c[w % 32] = c.get(w % 32, 0) + 1
    return max(c.values()) if c else 0


# ---- .ca (the sources read from L1's 32 banks, the destinations written to shared memory) ----
def ca_max(r, P):
    return max(dstconf(r, P), srcconf(r, P))


def compatible(r, S, l):
    sw = {}
    for m in S:
        for w in swords(r, m):
            sw[w % 32] = w
    if any(w % 32 in sw and sw[w % 32] != w for w in swords(r, l)):
        return False
    db = {w % 32 for m in S for w in words(r['dst'][m], r['size'])}
    return not any(w % 32 in db for w in words(r['dst'][l], r['size']))


def ca_greedy(key):
    def f(r, P):
        left, n = sorted(P, key=lambda l: key(r, l)), 0
        while left:
            S = []
            for l in left:
                if compatible(r, S, l):
                    S.append(l)
            left, n = [l for l in left if l not in S], n + 1
        return n
    return f


def ca_readrank(key):
    """source words ranked in their bank (by key); each rank's lanes then split by destination conflicts"""
    def f(r, P):
        if r['zf']:
            return dstconf(r, P)
        bank = {}
        for l in P:
            w = r['src'][l] // 4
            bank.setdefault(w % 32, {}).setdefault(w, []).append(l)
        rounds = {}
        for ws in bank.values():
            for i, (w, ls) in enumerate(sorted(ws.items(), key=lambda kv: min(key(r, l) for l in kv[1]))):
                rounds.setdefault(i, []).extend(ls)
        return sum(dstconf(r, L) for L in rounds.values())
    return f


def ca_writerank(key):
    """destination writes ranked in their bank (by key); each rank's lanes then split by source conflicts"""
    def f(r, P):
        bank = {}
        for l in P:
            bank.setdefault((r['dst'][l] // 4) % 32, []).append(l)
        rounds = {}
        for ls in bank.values():
            for i, l in enumerate(sorted(ls, key=lambda l: key(r, l))):
                rounds.setdefault(i, []).append(l)
        return sum(srcconf(r, L) for L in rounds.values())
    return f


def ca_cross(r, P):
    """the hub bound: the largest, over lanes a, of the items on a's source bank (distinct words) and
    on a's destination bank (lane-word writes), a's own read and write counting once (a word of the
    source bank read by a lane that writes the destination bank also counts once): for three lanes
    a, b (reading a's source bank, another line) and c (writing a's destination bank) it gives 3,
    as the H100 does (h100-ldsm5.csv T1_*, T2_*), where every schedule of a greedy kind gives 2"""
    if r['zf']:
        return dstconf(r, P)
    sz, best = r['size'], 1
    for a in P:
        for ws in swords(r, a):
            S = {}
            for l in P:
                for w in swords(r, l):
                    if w % 32 == ws % 32:
                        S.setdefault(w, set()).add(l)
            for wd in words(r['dst'][a], sz):
                D = [l for l in P for w in words(r['dst'][l], sz) if w % 32 == wd % 32]
                items = len(D) + sum(1 for ls in S.values() if not ls & set(D))
                best = max(best, items)
    return best


def ca_hub(r, P):
    """the hub rule (src/model/matrix.c): as ca_cross, but every lane reading a's source bank counts,
    each copy on its own (copies are never merged, on either side): the same as ca_cross wherever no
    source word is read by two lanes of a pass, and exact on every .ca row measured"""
    if r['zf']:
        return dstconf(r, P)
    sz, best = r['size'], 1
    for a in P:
        for ws in swords(r, a):
            for wd in words(r['dst'][a], sz):
                D = [l for l in P for w in words(r['dst'][l], sz) if w % 32 == wd % 32]
                readers = [l for l in P if l not in D and any(w % 32 == ws % 32 for w in swords(r, l))]
                best = max(best, len(D) + len(readers))
    return best


def ca_class(r):
    """where the hub rule is established: counting a source word read by several lanes once
    (ca_cross, the rule predicted before the sixth run) or once a copy (ca_hub) gives the same cost"""
    return all(ca_cross(r, P) == ca_hub(r, P) for P in passes(r))


def ca_hubs(r, P):
    """lanes of the pass with a source conflict (another lane reads another word of one of its
    source banks) and a destination conflict (another lane writes one of its destination banks)"""
    sz, n = r['size'], 0
    for a in P:
        s = any(w % 32 == v % 32 and w != v for l in P if l != a for w in swords(r, l) for v in swords(r, a))
        d = any(w % 32 == v % 32 for l in P if l != a for w in words(r['dst'][l], sz) for v in words(r['dst'][a], sz))
        n += s and d
    return n


def ca_hub_class(r):
    return all(ca_hubs(r, P) <= 1 for P in passes(r))


LANE = lambda r, l: l
SRC = lambda r, l: (r['src'][l], l)
DST = lambda r, l: (r['dst'][l], l)


# ---- .cg (from L2 by 32-byte sectors) ----
def cg_units(r, P):
    return len({(r['src'][l] // 32, r['dst'][l] // 32) for l in P})


def cg_keys(r, P):
    """the keys rule: a lane pair on the two halves of one global sector that writes one shared
    sector (either order) is one 'whole' item keyed (global line, shared line, (shared sector -
    global sector) mod 2, halves swapped); every other lane is a 'half' item keyed (global line,
    shared line, its half of the global sector, (dst - src) mod 64). Wavefronts = distinct keys
    (at least the destinations' worst bank). Lanes writing one destination count once."""
    s, d = r['src'], r['dst']
    first = {}
    for l in P:
        first.setdefault(d[l], l)
    L = sorted(first.values())
    u = {}
    for l in L:
        u.setdefault((s[l] // 32, d[l] // 32), []).append(l)
    K = set()
    for (gs, ss), ls in u.items():
        if len(ls) == 2 and s[ls[0]] != s[ls[1]]:
            K.add(('W', gs // 4, ss // 4, (ss - gs) % 2, ((s[ls[0]] ^ d[ls[0]]) // 16) & 1))
        else:
            for l in ls:
                K.add(('H', s[l] // 128, d[l] // 128, (s[l] // 16) % 2, (d[l] - s[l]) % 64))
    return max(dstconf(r, L, True), len(K))


def cg_old(r, P):
    """the rule before run 5 (h100-ldsm4.csv): one sector: shared sectors; else max(w, line groups)"""
    s, d = r['src'], r['dst']
    if len({s[l] // 32 for l in P}) == 1 and len({s[l] for l in P}) == len(P):
        return len({d[l] // 32 for l in P})
    g = {}
    for l in P:
        g.setdefault((s[l] // 128, d[l] // 128), []).append(l)
    t = 0
    for G in g.values():
        def contig(v):
            v = sorted({x // 32 for x in v})
            return v[-1] - v[0] + 1 == len(v)
        t += 1 if contig([s[l] for l in G]) and contig([d[l] for l in G]) else len({d[l] // 32 for l in G})
    return max(dstconf(r, P), t)


def cg_dedup(r, keep='first'):
    """the row with one lane per destination over the whole warp (not per pass): the lowest lane
    writing it ('first') or the highest ('last'); 32 lanes on one destination cost 1 in all
    (h100-ldsm.csv all_same), and rows4_s16 / rows4_s32 (destinations shared across passes) say
    'first'"""
    seen, nm = set(), 0
    for l in (range(32) if keep == 'first' else range(31, -1, -1)):
        if r['mask'] >> l & 1 and r['dst'][l] not in seen:
            seen.add(r['dst'][l])
            nm |= 1 << l
    return dict(r, mask=nm)


def cg_items(r, L):
    """the keys rule's items of lanes L (one lane per destination already): key -> the source of
    each item (a 16-byte chunk, or a whole sector)"""
    s, d = r['src'], r['dst']
    u, K = {}, {}
    for l in L:
        u.setdefault((s[l] // 32, d[l] // 32), []).append(l)
    for (gs, ss), ls in u.items():
        if len(ls) == 2 and s[ls[0]] != s[ls[1]]:
            K.setdefault(('W', gs // 4, ss // 4, (ss - gs) % 2, ((s[ls[0]] ^ d[ls[0]]) // 16) & 1), []).append(gs)
        else:
            for l in ls:
                K.setdefault(('H', s[l] // 128, d[l] // 128, (s[l] // 16) % 2, (d[l] - s[l]) % 64), []).append(s[l])
    return K


def cg_mult_cost(r, L):
    """distinct keys, each counted as often as one source (chunk or sector) of it recurs: one
    source goes to one place a wavefront (h100-ldsm5.csv dupsec_3: chunk 16 to 32 and to 96, one
    key, 2)"""
    t = 0
    for v in cg_items(r, L).values():
        c = {}
        for x in v:
            c[x] = c.get(x, 0) + 1
        t += max(c.values())
    return max(dstconf(r, L, True), t) if L else 0


def cg_pass_mult(r):
    """row rule: warp-wide destination dedup (first lane), then per 8-lane pass the keys with
    multiplicity"""
    q = cg_dedup(r)
    return sum(cg_mult_cost(q, [l for l in P if q['mask'] >> l & 1]) for P in passes(r))


def cg_warp_mult(r):
    """row rule: warp-wide destination dedup (first lane), then the keys with multiplicity over the
    whole warp (no passes: items of two passes share a wavefront)"""
    q = cg_dedup(r)
    return cg_mult_cost(q, [l for l in range(32) if q['mask'] >> l & 1])


def cg_zero_fill(r):
    """a zero-fill (src-size 0) copy, .ca or .cg: the destinations alone, as a store of that size
    (passes of 128 / size lanes), every lane-word write counted (h100-ldsm7.csv zf_*: .ca 21 of
    21, .cg 7 of 7, held out; the sources 1024 bytes apart or all on one word change nothing)"""
    return sum(dstconf(r, P) for P in passes(r))


def cg_lane_keys(r):
    """(the row deduplicated, its lanes, lane -> its key) under the warp rule"""
    q = cg_dedup(r)
    s, d = q['src'], q['dst']
    L = [l for l in range(32) if q['mask'] >> l & 1]
    u, key = {}, {}
    for l in L:
        u.setdefault((s[l] // 32, d[l] // 32), []).append(l)
    for (gs, ss), ls in u.items():
        if len(ls) == 2 and s[ls[0]] != s[ls[1]]:
            for l in ls:
                key[l] = ('W', gs // 4, ss // 4, (ss - gs) % 2, ((s[ls[0]] ^ d[ls[0]]) // 16) & 1)
        else:
            for l in ls:
                key[l] = ('H', s[l] // 128, d[l] // 128, (s[l] // 16) % 2, (d[l] - s[l]) % 64)
    return q, L, key


def cg_warp_class(r):
    """where the warp rule is claimed (.cg, whole copies): no global 16-byte chunk read by two lanes
    (one per destination) that write one shared line under different keys. Outside it the H100
    costs the rule's count or 1 to 2 more (16 of 186 such rows of h100-ldsm{,..,7}.csv)"""
    if r['zf'] or r.get('sb', 16) != 16:
        return bool(r['zf'])
    q, L, key = cg_lane_keys(r)
    s, d = q['src'], q['dst']
    seen = {}
    for l in L:
        k = (s[l] // 16, d[l] // 128)
        if k in seen and key[seen[k]] != key[l]:
            return False
        seen.setdefault(k, l)
    return True


def cg_outside_extra(r):
    """outside cg_warp_class, fitted on the 64 one-line probes of h100-ldsm8.csv (d_*), not held out:
    a chunk read by two kept lanes into one shared line under different keys costs one more when the
    lowest such lane t shares its wavefront with another chunk and a later lane reads the chunk as a
    half item of another key at the same position in a sector; one more for each such wavefront"""
    q, L, key = cg_lane_keys(r)
    s, d = q['src'], q['dst']
    wf, occ, done = {}, {}, set()
    for l in L:  # each lane's wavefront: its key and the occurrence of its source in the key
        if l in done:
            continue
        k = key[l]
        if k[0] == 'W':
            part = [m for m in L if m != l and key[m] == k and s[m] // 32 == s[l] // 32 and d[m] // 32 == d[l] // 32][0]
            n = occ.get((k, s[l] // 32), 0)
            occ[(k, s[l] // 32)] = n + 1
            wf[l] = wf[part] = (k, n)
            done |= {l, part}
        else:
            n = occ.get((k, s[l] // 16), 0)
            occ[(k, s[l] // 16)] = n + 1
            wf[l] = (k, n)
            done.add(l)
    groups, hit = {}, set()
    for l in L:
        groups.setdefault((s[l] // 16, d[l] // 128), []).append(l)
    for (c, sl), ls in groups.items():
        t = min(ls)
        if not any(s[m] // 16 != c for m in L if wf[m] == wf[t]):
            continue
        for x in ls:
            if x > t and key[x] != key[t] and key[x][0] == 'H' and (d[x] // 16 - d[t] // 16) % 2 == 0:
                hit.add(wf[t])
    return len(hit)


def cg_outside_chunks_lines(r):
    """cg_outside_chunks' hits: chunk -> the shared lines in which it has a hit"""
    q, L, key = cg_lane_keys(r)
    s, d = q['src'], q['dst']
    wf, occ, done = {}, {}, set()
    for l in L:
        if l in done:
            continue
        k = key[l]
        if k[0] == 'W':
            part = [m for m in L if m != l and key[m] == k and s[m] // 32 == s[l] // 32 and d[m] // 32 == d[l] // 32][0]
            n = occ.get((k, s[l] // 32), 0)
            occ[(k, s[l] // 32)] = n + 1
            wf[l] = wf[part] = (k, n)
            done |= {l, part}
        else:
            n = occ.get((k, s[l] // 16), 0)
            occ[(k, s[l] // 16)] = n + 1
            wf[l] = (k, n)
            done.add(l)
    size = {}
    for l in L:
        size[wf[l]] = size.get(wf[l], 0) + 1
    groups, lines = {}, {}
    for l in L:
        groups.setdefault((s[l] // 16, d[l] // 128), []).append(l)
    for (c, sl), ls in groups.items():
        t = min(ls)
        if not any(s[m] // 16 != c for m in L if wf[m] == wf[t]):
            continue
        if any(x > t and key[x] != key[t] and size[wf[x]] == 1 and (d[x] // 16 - d[t] // 16) % 2 == 0 for x in ls):
            lines.setdefault(c, set()).add(sl)
    return lines


def cg_outside_chunks(r):
    """outside cg_warp_class, fitted after the ninth run on all 304 distinct whole .cg rows outside the
    class (h100-ldsm{,..,8}.csv); REJECTED by the tenth run (gen_patterns10.py, h100-ldsm10.csv): 40 of
    the 80 whole rows held out outside the class, where the estimate got 60. A hit is a chunk c read
    into one shared line by kept lanes under two keys, whose lowest reader t shares its wavefront
    with another chunk (as cg_outside_extra), and a later lane x of another key that writes c at the
    same position in a sector (an even number of chunks from t's destination) and is ALONE in its
    wavefront (no other item of its key on its occurrence: so a half item); the extra is the most
    shared lines with a hit that one chunk has (max over chunks, not a sum: a chunk's hits in
    several lines serialize, different chunks' overlap): 0, 1 or 2 on every row of the fitting set,
    where the tenth run's rows exceed the warp rule by up to 3"""
    return max((len(v) for v in cg_outside_chunks_lines(r).values()), default=0)


def cg_deferred_lanes(r, L, mode='any'):
    """the kept lanes L deferred by the deferral rule (fitted after the eleventh run): a lane l is
    deferred when a HIGHER kept lane reads the same global 16-byte chunk into the same 128-byte
    shared line at the same 16-byte parity (an even number of chunks from l's destination) under
    another key (keys as the warp rule gives them over L). mode='top': only the lanes whose key
    differs from the highest such lane's (a variant, 1221 of the 1222 distinct rows)"""
    s, d = r['src'], r['dst']
    key = cg_keys_of(r, L)
    g = {}
    for l in L:
        g.setdefault((s[l] // 16, d[l] // 128, (d[l] // 16) % 2), []).append(l)
    out = set()
    for ls in g.values():
        if mode == 'top':
            out |= {l for l in ls if key[l] != key[max(ls)]}
        else:
            out |= {l for l in ls if any(m > l and key[m] != key[l] for m in ls)}
    return out


def cg_keys_of(r, L):
    """lane -> its key under the warp rule, over the lanes L (one per destination already)"""
    s, d = r['src'], r['dst']
    u, key = {}, {}
    for l in L:
        u.setdefault((s[l] // 32, d[l] // 32), []).append(l)
    for (gs, ss), ls in u.items():
        if len(ls) == 2 and s[ls[0]] != s[ls[1]]:
            for l in ls:
                key[l] = ('W', gs // 4, ss // 4, (ss - gs) % 2, ((s[ls[0]] ^ d[ls[0]]) // 16) & 1)
        else:
            for l in ls:
                key[l] = ('H', s[l] // 128, d[l] // 128, (s[l] // 16) % 2, (d[l] - s[l]) % 64)
    return key


def cg_deferred(r, mode='any', price='keyed'):
    """the deferral rule (row function, whole .cg copies; fitted after the eleventh run on every
    distinct whole .cg row of the eleven runs, 1222 of 1222): the kept lanes split into the
    deferred ones (cg_deferred_lanes) and the others; each set costs the warp rule over its own
    lanes (keys and whole pairs found again within the set: a whole pair with one half deferred
    is two half items). Inside the warp class nothing is deferred and it is the warp rule.
    price='keyed' (the default) is that one-level form, whose predictions gen_patterns12.py committed before the
    twelfth run (52 of its 56 rows: every row with at most one split; its 4 misses split again);
    price='nested' (the model since the twelfth run, chosen after it: 56 of 56) prices each of the
    two sets by the whole rule again (they may split again), and equals 'keyed' on every row of
    the eleven runs before; price='rec' splits the deferred set again but not the rest (55 of 56);
    price='each': a deferred lane costs one wavefront on its own (1212 of 1222, 52 of 56)"""
    if r['zf']:
        return cg_zero_fill(r)
    q = cg_dedup(r)
    return cg_deferred_cost(q, [l for l in range(32) if q['mask'] >> l & 1], mode, price)


def cg_nested(r):
    """the model since the twelfth run: cg_deferred(r, price='nested')"""
    return cg_deferred(r, price='nested')


def cg_deferred_cost(q, L, mode='any', price='keyed'):
    """the deferral rule over the kept lanes L (see cg_deferred for price)"""
    D = cg_deferred_lanes(q, L, mode)
    rest = [l for l in L if l not in D]
    if D and price == 'nested':
        return cg_deferred_cost(q, rest, mode, price) + cg_deferred_cost(q, sorted(D), mode, price)
    c = cg_mult_cost(q, rest) if rest else 0
    if D:
        c += {'keyed': lambda: cg_mult_cost(q, sorted(D)), 'each': lambda: len(D),
              'rec': lambda: cg_deferred_cost(q, sorted(D), mode, price)}[price]()
    return c


def cg_round_sets(q, L):
    """the rounds rule's rounds of the kept lanes L (fitted after the thirteenth run): the lanes are
    grouped by (global 16-byte chunk, 128-byte shared line, 16-byte parity of the destination); round
    k holds the k-th HIGHEST lane of every group (round 0 the highest of each, ...). So a round copies
    a chunk at most once into one parity of one line; a group of n lanes spans n rounds (at most 4)"""
    s, d = q['src'], q['dst']
    g = {}
    for l in L:
        g.setdefault((s[l] // 16, d[l] // 128, (d[l] // 16) % 2), []).append(l)
    R = {}
    for ls in g.values():
        for i, l in enumerate(sorted(ls, reverse=True)):
            R.setdefault(i, []).append(l)
    return [sorted(R[i]) for i in sorted(R)]


def cg_rounds_cost(q, L):
    """the rounds rule over the kept lanes L: each round priced by the warp rule over its own lanes
    (keys and whole pairs found again within the round), the rounds added"""
    return sum(cg_mult_cost(q, x) for x in cg_round_sets(q, L))


def cg_rounds(r):
    """the rounds rule (row function, whole .cg copies; zero-fill by cg_zero_fill): fitted after the
    thirteenth run on every distinct whole .cg row of the thirteen runs (1341 of 1341, the nested
    deferral rule 1330: its 11 misses of h100-ldsm13.csv included), held out by the fourteenth
    (gen_patterns14.py, h100-ldsm14.csv: 78 of 78; nested 18, merge 31, mtop 66). It is the
    deferral rule with the 'another key' condition dropped (a lower lane of the SAME key on the
    group's chunk, line and parity goes to a later round too, which the warp rule's multiplicity
    priced the same way on every row before the fourteenth run) and the lanes deferred by every
    level gathered into one later round instead of nested sets; whole pairs of one key whose lanes
    cross are broken into half items, which the warp rule never did (h100-ldsm14.csv a_old*)"""
    if r['zf']:
        return cg_zero_fill(r)
    q = cg_dedup(r)
    return cg_rounds_cost(q, [l for l in range(32) if q['mask'] >> l & 1])


def cg_merge_cost(q, L, same_key_top=False, depth=0):
    """'merge' (tried after the thirteenth run, 1340 of 1341: c_chain_4 of h100-ldsm13.csv 10 where the
    H100 says 9): the deferral rule's lanes peeled off repeatedly (keys found again in what stays)
    and every lane peeled gathered into ONE deferred set, priced again by this rule. same_key_top:
    at the first level the 'another key' condition is dropped ('mtop', 1341 of 1341: equal to the
    rounds rule on every row measured before the fourteenth run)"""
    A, acc = list(L), set()
    while True:
        if same_key_top and depth == 0:
            D = set(l for x in cg_round_sets(q, A)[1:] for l in x)
        else:
            D = cg_deferred_lanes(q, A)
        if not D:
            break
        acc |= D
        A = [l for l in A if l not in D]
    c = cg_mult_cost(q, A) if A else 0
    return c + (cg_merge_cost(q, sorted(acc), same_key_top, depth + 1) if acc else 0)


def cg_merge(r, same_key_top=False):
    if r['zf']:
        return cg_zero_fill(r)
    q = cg_dedup(r)
    return cg_merge_cost(q, [l for l in range(32) if q['mask'] >> l & 1], same_key_top)


def cg_warp(r):
    """the rule src/model/matrix.c implemented before the twelfth run for .cg whole copies and zero-fill (row function):
    zero-fill copies by cg_zero_fill, the others by cg_warp_mult, plus cg_outside_extra (an estimate)
    outside the class"""
    if r['zf']:
        return cg_zero_fill(r)
    return cg_warp_mult(r) + (0 if cg_warp_class(r) else cg_outside_extra(r))


def cg_warp_chunks(r):
    """the chunk rule (rejected by the tenth run): cg_warp with cg_outside_chunks outside the class"""
    if r['zf']:
        return cg_zero_fill(r)
    return cg_warp_mult(r) + (0 if cg_warp_class(r) else cg_outside_chunks(r))


def cg_pass_nomult(r):
    q = cg_dedup(r)
    return sum(cg_keys(q, [l for l in P if q['mask'] >> l & 1]) if any(q['mask'] >> l & 1 for l in P) else 0
               for P in passes(r))


def cg_keys_class(r):
    """where the keys rule is claimed: no global 16-byte chunk read by two lanes of a pass, and no
    destination written by two lanes (except the two halves of one sector onto one destination)"""
    seen = {}
    for P in passes(r):
        if len({r['src'][l] for l in P}) < len(P):
            return False
    for l in range(32):
        if r['mask'] >> l & 1:
            seen.setdefault(r['dst'][l], []).append(l)
    for ls in seen.values():
        if len(ls) > 1:
            if len(ls) > 2 or len({r['src'][l] // 32 for l in ls}) > 1 or len({l // 8 for l in ls}) > 1:
                return False
    return True


def score(rows, f, name, verbose, whole=False):
    """rows exact under f: f(r, P) a pass's cost, or with whole=True f(r) the row's"""
    ok, bad = 0, []
    for r in rows:
        v = f(r) if whole else sum(f(r, P) for P in passes(r))
        if v == r['wf']:
            ok += 1
        else:
            bad.append(f"{r['file']}:{r['name']} {v}/{r['wf']}")
    print(f"  {name:44s} {ok:4d} / {len(rows)}")
    if verbose and bad:
        print('     misses:', ' '.join(bad[:60]))
    return ok


def main():
    v = '-v' in sys.argv
    rows = load()
    ca = [r for r in rows if not r['cg']]
    cg = [r for r in rows if r['cg']]
    two = [r for r in ca if any(dstconf(r, P) > 1 and srcconf(r, P) > 1 for P in passes(r))]
    hub = [r for r in ca if ca_class(r)]
    print(f'.ca: {len(ca)} rows; {len(two)} with a pass whose sources and destinations both conflict; '
          f'{len(hub)} in the class (a shared source word, counted once or per copy, changes nothing)')
    for nm, f in [('max(w, r) (the established rule)', ca_max),
                  ('greedy in lane order', ca_greedy(LANE)), ('greedy by source', ca_greedy(SRC)),
                  ('greedy by destination', ca_greedy(DST)),
                  ('read ranks by lane, then write conflicts', ca_readrank(LANE)),
                  ('read ranks by source address, then write', ca_readrank(SRC)),
                  ('write ranks by lane, then read conflicts', ca_writerank(LANE)),
                  ('write ranks by destination, then read', ca_writerank(DST)),
                  ('hub bound, source words counted once', ca_cross),
                  ('hub rule, every copy counted', ca_hub)]:
        score(ca, f, nm, v)
        score(two, f, '   of them both-side rows', False)
        score(hub, f, '   in the class', v and f is ca_hub)
    inside = [r for r in cg if cg_keys_class(r)]
    print(f'.cg: {len(cg)} rows; {len(inside)} in the keys class')
    for nm, f in [('line groups, one-sector rule (before run 5, simplified port)', cg_old), ('units (global, shared sector pairs)', cg_units),
                  ('keys', cg_keys)]:
        score(cg, f, nm, v)
        score(inside, f, '   in the keys class', v and f is cg_keys)
    for nm, f in [('dedup (first lane, warp-wide), keys a pass', cg_pass_nomult),
                  ('dedup, keys a pass with multiplicity', cg_pass_mult),
                  ('dedup, keys over the warp with multiplicity', cg_warp_mult)]:
        score(cg, f, nm, v, True)
        score(inside, f, '   in the keys class', False, True)
    whole = [r for r in cg if not r['zf'] and r['sb'] == 16]
    cls = [r for r in whole if cg_warp_class(r)]
    print(f'.cg whole copies: {len(whole)} rows; {len(cls)} in the warp class; zero-fill: '
          f'{sum(r["zf"] for r in cg)} rows; src-size 4: {sum(r["sb"] != 16 for r in cg)} rows (outside)')
    for nm, f in [('warp rule', cg_warp_mult), ('warp rule + the estimate outside the class (before run 12)', cg_warp),
                  ('warp rule + the chunk rule (fitted after run 9, rejected by run 10)', cg_warp_chunks),
                  ('the deferral rule, nested (the model since run 12)', cg_nested),
                  ('   one level (fitted after run 11, held out by run 12)', lambda r: cg_deferred(r, price='keyed')),
                  ('   deferred set split again, not the rest', lambda r: cg_deferred(r, price='rec')),
                  ('   only lanes of another key than the highest', lambda r: cg_deferred(r, 'top', 'keyed')),
                  ('   a deferred lane alone', lambda r: cg_deferred(r, price='each')),
                  ('the rounds rule (fitted after run 13)', cg_rounds),
                  ('   merge: deferred lanes of every level in one set', cg_merge),
                  ('   mtop: merge, same key deferred at the first level', lambda r: cg_merge(r, True))]:
        score(whole, f, nm, v and f in (cg_warp, cg_nested, cg_rounds), True)
        score(cls, f, '   in the warp class', False, True)
        score([r for r in whole if not cg_warp_class(r)], f, '   outside it', False, True)
    score([r for r in cg if r['zf']], lambda r: cg_zero_fill(r), 'zero-fill: a store, lane-words (the model)', v, True)
    score([r for r in ca if r['zf']], lambda r: cg_zero_fill(r), '.ca zero-fill: the same', v, True)


if __name__ == '__main__':
    main()
