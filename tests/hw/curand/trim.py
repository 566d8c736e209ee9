#!/usr/bin/env python3
"""trim.py IN_DIR OUT_DIR: the H200's dumps of curand_dump.c, cut down to the golden files kept in
tests/hw/curand/golden/: every record's status; of its numbers the first 256 and, for longer
records, 64 at 4096, 65536 and the end (layout evidence), and every hash record whole. The
records keep curand_dump.c's format (README.md)."""
import os, struct, sys

HEAD = 72

def records(data):
    i = 0
    while i < len(data):
        es, = struct.unpack_from('<I', data, i + 44)
        n, first, count = struct.unpack_from('<QQQ', data, i + 48)
        yield data[i:i + 48], es, n, first, data[i + HEAD:i + HEAD + count * es]
        i += HEAD + count * es

def main(src, dst):
    for name in sorted(os.listdir(src)):
        if not name.endswith('.bin'):
            continue
        out = bytearray()
        for head, es, n, first, body in records(open(os.path.join(src, name), 'rb').read()):
            count = len(body) // es if es else 0
            slices = [(0, min(count, 256))]
            if count > 1024:
                slices += [(s, 64) for s in (4096, 65536) if s + 64 <= count] + [(count - 64, 64)]
            if not count:
                slices = [(0, 0)]
            for s, c in slices:
                out += head + struct.pack('<QQQ', n, first + s, c) + body[s * es:(s + c) * es]
        open(os.path.join(dst, name), 'wb').write(out)

if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
