"""rules.py: candidate wavefront rules for one warp-level shared-memory request.

A request: width (1, 2, 4, 8, 16 bytes), op ('ld' or 'st'), addrs = {lane: byte address} for the
active lanes.  Every function returns the wavefronts of that request."""

BANKS, BANK_BYTES = 32, 4


def worst_bank(addrs, lanes, width):
    """Largest number of distinct 4-byte words any one bank must deliver for these lanes."""
    per_bank = {}
    for l in lanes:
        a = addrs[l]
        w0 = a // BANK_BYTES
        n = max(1, width // BANK_BYTES)
        for k in range(n):
            w = w0 + k
            per_bank.setdefault(w % BANKS, set()).add(w)
    return max((len(s) for s in per_bank.values()), default=0)


def distinct_words(addrs, lanes, width):
    ws = set()
    for l in lanes:
        w0 = addrs[l] // BANK_BYTES
        for k in range(max(1, width // BANK_BYTES)):
            ws.add(w0 + k)
    return len(ws)


# ---- the model in src/model/banks.c (smemlab today) -----------------------------------------
def model_banks_c(width, op, addrs):
    glanes = min(32, 2 * BANKS * BANK_BYTES // width)
    sub = BANKS * BANK_BYTES // width
    total = 0
    for g0 in range(0, 32, glanes):
        g = [l for l in range(g0, g0 + glanes) if l in addrs]
        if not g:
            continue
        worst = worst_bank(addrs, g, width)
        if worst <= 1 or sub >= glanes:
            total += worst
            continue
        for s0 in range(g0, g0 + glanes, sub):
            s = [l for l in range(s0, s0 + sub) if l in addrs]
            if s:
                total += worst_bank(addrs, s, width)
    return total


# ---- the proposed rule (RULE.md) -----------------------------------------------------------
def paired(addrs, width):
    """True when a load can pack two lanes per returned register: every active lane's partner
    lane^1 is inactive or asks for the same address, or every active lane's partner lane^2 is."""
    for x in (1, 2):
        if all((l ^ x) not in addrs or addrs[l ^ x] == addrs[l] for l in addrs):
            return True
    return False


def phases(width, op, addrs):
    """The lane groups (passes) a request is cut into."""
    if width <= 4:
        n = 1
    else:
        regs = width // 4                      # 32-bit registers per lane: 2 or 4
        n = regs // 2 if (op == 'ld' and paired(addrs, width)) else regs
    size = 32 // n
    return [[l for l in range(p0, p0 + size) if l in addrs] for p0 in range(0, 32, size)]


def rule_wide(width, op, addrs):
    return sum(worst_bank(addrs, g, width) for g in phases(width, op, addrs) if g)


def rule_wide_conflicts(width, op, addrs):
    """bank-conflict counter: per non-empty pass, its cost minus one."""
    return sum(worst_bank(addrs, g, width) - 1 for g in phases(width, op, addrs) if g)


# ---- NOT the hardware: Nsight Compute's per-instruction (SASS-patched) wavefront metric -------
# smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum differs from the l1tex hardware
# counter on 57 of the 384 wide loads of h100-wide.csv (never on stores).  This is the closest
# description found of what it reports for loads (exact for 8 bytes; 184 of 197 for 16 bytes,
# the 13 others all partial warps).  Kept only to explain the two metrics apart.
def _paired_lanes(addrs, lanes):
    return any(all((l ^ x) not in addrs or addrs[l ^ x] == addrs[l] for l in lanes) for x in (1, 2))


def sass_metric_ld(width, addrs):
    def sub(lanes, n):
        return [[l for l in range(s, s + n) if l in addrs] for s in range(lanes[0], lanes[0] + len(lanes), n)]
    if width == 8:
        if paired(addrs, 8) and worst_bank(addrs, list(addrs), 8) <= 1:
            return 1
        return sum(worst_bank(addrs, g, 8) for g in sub(list(range(32)), 16) if g)
    t = 0
    for h in (0, 16):
        L = [l for l in range(h, h + 16) if l in addrs]
        if not L:
            continue
        if _paired_lanes(addrs, L) and worst_bank(addrs, L, 16) <= 1:
            t += 1
        else:
            t += sum(worst_bank(addrs, g, 16) for g in sub(list(range(h, h + 16)), 8) if g)
    return t
