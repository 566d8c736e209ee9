"""predictions.py: the prediction table a gen_patternsN.py embeds in itself before its device run
(--write-table), and the check that what it predicts now is what was committed then."""
import json
import os

MARK = '# ---- PREDICTIONS' + ', written by --write-table before the run: "kind name": {hypothesis: wavefronts} ----'


def embedded(path):
    """The table embedded at the end of the generator `path`, or None."""
    text = open(os.path.abspath(path)).read()
    if '\n' + MARK + '\n' not in text:
        return None
    out = {}
    for line in text.split('\n' + MARK + '\n', 1)[1].splitlines():
        if line.startswith('# "'):
            out.update(json.loads('{' + line[2:] + '}'))
    return out


def write_or_check(path, table, write):
    """With write, embeds table at the end of `path` (replacing any table there); else asserts that
    table equals the embedded one, if any, and says which."""
    path = os.path.abspath(path)
    if write:
        text = open(path).read().split('\n' + MARK + '\n')[0].rstrip('\n')
        out = ''.join(f'# {json.dumps(k)}: {json.dumps(v, sort_keys=True)}\n' for k, v in sorted(table.items()))
        open(path, 'w').write(text + '\n\n\n' + MARK + '\n' + out)
    else:
        e = embedded(path)
        assert e is None or e == table, 'the predictions differ from the ones committed before the run'
        print('predictions:', 'none embedded' if e is None else 'as committed')
