#!/usr/bin/env python3
"""search_outside.py: the search for a rule outside the warp rule's class (whole .cg copies where a
global 16-byte chunk is read by two kept lanes into one 128-byte shared line under different keys),
run after the ninth cp.async run and again after the tenth (docs/bank-model.md, "Not established").

Each distinct such row of fit_ldgsts.FILES (repeats left out) gives its excess over the warp rule
(H100 - fit_ldgsts.cg_warp_mult) and its candidates: every (chunk c, shared line, t, x) with t the
lowest kept lane reading c into the line and x a later kept lane of another key reading c into it,
each with boolean features. A rule is a conjunction of K feature values (a hit) and a way of
counting the hits (per wavefront of t, of x, per shared line, per key of x, at most one a row, per
wavefront of t and line, the most lines or t-wavefronts of one chunk); the script prints the best
rules as rows exact / rows. After the ninth run (h100-ldsm10.csv absent): 304 rows, and 'even, t
shares its wavefront with another chunk, x alone, the most of one chunk' exact on all 304 (the chunk
rule, fit_ldgsts.cg_outside_chunks); with the tenth run's rows (--before-11): 384, the best 359 (the
estimate, fit_ldgsts.cg_outside_extra). Usage: python3 search_outside.py [K] [--before-10 |
--before-11] (K: 3; a minute or two)."""
import itertools, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fit_ldgsts as F  # noqa: E402


def wavefronts(r, L, key):
    """each kept lane's wavefront: (its key, the occurrence of its source in the key)"""
    s, d = r['src'], r['dst']
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
    return wf


def candidates(r):
    q, L, key = F.cg_lane_keys(r)
    s, d = q['src'], q['dst']
    wf = wavefronts(q, L, key)
    groups, out = {}, []
    for l in L:
        groups.setdefault((s[l] // 16, d[l] // 128), []).append(l)
    for (c, sl), ls in groups.items():
        if len({key[l] for l in ls}) < 2:
            continue
        t = min(ls)
        twf = [m for m in L if wf[m] == wf[t]]
        multi = any(s[m] // 16 != c for m in twf)
        oth = [m for m in twf if m != t and (s[m] // 16 != c or key[m][0] == 'W')]
        for x in ls:
            if x <= t or key[x] == key[t]:
                continue
            pt, px = d[t] % 128 // 16, d[x] % 128 // 16
            f = dict(multi=multi, even=(px - pt) % 2 == 0, xH=key[x][0] == 'H', tW=key[t][0] == 'W',
                     xalone=sum(wf[m] == wf[x] for m in L) == 1, xabove=px > pt, samepass_tx=t // 8 == x // 8,
                     xsamesec_t=px // 2 == pt // 2, c_odd=c % 2 == 1,
                     xfirst=x == min(m for m in L if key[m] == key[x]), kxhalf=key[x][3] == 1)
            for k in range(8):
                f[f'dd{k}'] = (px - pt) % 8 == k
            if key[x][0] == 'H':
                for v in (0, 16, 32, 48):
                    f[f'kxrot{v}'] = key[x][4] == v
            if oth:
                p = min(oth)
                po = d[p] % 128 // 16
                f.update({'p<t': p < t, 'p<x': p < x, 'samepass_tp': p // 8 == t // 8, 'samepass_px': p // 8 == x // 8,
                          'po>px': po > px, 'po>pt': po > pt, 'pdd_even': (po - px) % 2 == 0,
                          'psamesec_x': po // 2 == px // 2, 'psamesec_t': po // 2 == pt // 2})
            out.append(dict(f=f, wft=wf[t], wfx=wf[x], sl=sl, kx=key[x], c=c))
    return out


MODES = {'per wavefront of t': lambda h: len({c['wft'] for c in h}),
         'per wavefront of x': lambda h: len({c['wfx'] for c in h}),
         'per shared line': lambda h: len({c['sl'] for c in h}),
         'per key of x': lambda h: len({c['kx'] for c in h}),
         'at most one a row': lambda h: min(1, len(h)),
         'per wavefront of t and line': lambda h: len({(c['wft'], c['sl']) for c in h}),
         'most lines of one chunk': lambda h: max([len({c['sl'] for c in h if c['c'] == k}) for k in {c['c'] for c in h}] or [0]),
         'most t-wavefronts of one chunk': lambda h: max([len({c['wft'] for c in h if c['c'] == k}) for k in {c['c'] for c in h}] or [0])}


def main():
    K = int(next((a for a in sys.argv[1:] if a.isdigit()), 3))
    drop = {'h100-ldsm10.csv', 'h100-ldsm11.csv'} if '--before-10' in sys.argv else \
        {'h100-ldsm11.csv'} if '--before-11' in sys.argv else set()
    data = []
    for r in F.load():
        if not r['cg'] or r['zf'] or r['sb'] != 16 or F.cg_warp_class(r) or r['file'].endswith('r.csv'):
            continue
        if r['file'] in drop:
            continue
        data.append((r['wf'] - F.cg_warp_mult(r), candidates(r)))
    feats = sorted({k for _, C in data for c in C for k in c['f']})
    lits = [(f, v) for f in feats for v in (True, False)]
    best = []
    for combo in itertools.combinations(lits, K):
        if len({f for f, _ in combo}) < K:
            continue
        hits = [[c for c in C if all(c['f'].get(f) == v for f, v in combo)] for _, C in data]
        for name, count in MODES.items():
            ok = sum(count(h) == ex for h, (ex, _) in zip(hits, data))
            best.append((ok, name, combo))
    best.sort(key=lambda b: -b[0])
    print(f'{len(data)} distinct whole .cg rows outside the class; excess over the warp rule:',
          {e: sum(x == e for x, _ in data) for e in sorted({x for x, _ in data})})
    for ok, name, combo in best[:10]:
        print(f'  {ok:4d} / {len(data)}  {name:32s} ' + ' & '.join(f"{f}={v}" for f, v in combo))


if __name__ == '__main__':
    main()
