"""Reading and checking recorded input scripts (JSON lines) for the input VM tests."""
import json
import sys

failures = []


def load(path):
    events = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            try:
                events.append(json.loads(line))
            except ValueError as err:
                failures.append('%s:%d: not JSON: %s' % (path, n, err))
    return events


def check(cond, what):
    print(('  ok   ' if cond else '  FAIL ') + what)
    if not cond:
        failures.append(what)


def of(events, kind, **fields):
    return [e for e in events if e['type'] == kind and all(e.get(k) == v for k, v in fields.items())]


def near(e, x, y, tol=0.6):
    return abs(e['x'] - x) <= tol and abs(e['y'] - y) <= tol


def touch_sequence(events, x, y):
    """The events of the finger that went down near (x, y): [down, motion..., end]."""
    downs = [i for i, e in enumerate(events) if e['type'] == 'touch_down' and near(e, x, y)]
    if not downs:
        return []
    i = downs[0]
    slot = events[i]['slot']
    seq = [events[i]]
    for e in events[i + 1:]:
        if e.get('slot') == slot and e['type'].startswith('touch_'):
            seq.append(e)
            if e['type'] in ('touch_up', 'touch_cancel'):
                break
    return seq


def finish():
    if failures:
        print('%d check(s) failed' % len(failures))
        sys.exit(1)
    print('all checks passed')


def png_pixel(path, x, y):
    """(r, g, b) of pixel (x, y) of an 8-bit RGB/RGBA non-interlaced PNG (what QEMU writes)."""
    import struct
    import zlib
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', path + ' is not a PNG'
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b'IHDR':
            width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
    assert depth == 8 and colour in (2, 6) and interlace == 0, path + ': unsupported PNG'
    bpp = 3 if colour == 2 else 4
    stride = width * bpp
    raw = zlib.decompress(idat)
    prev = bytearray(stride)
    for row in range(y + 1):
        f = raw[row * (stride + 1)]
        line = bytearray(raw[row * (stride + 1) + 1:(row + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
    return tuple(prev[x * bpp:x * bpp + 3])


def item_colour(i):
    """The card colour the e2e test gives item i (distinct for 0…47: the red steps by 13)."""
    return ((40 + i * 13) % 256, (200 - i * 9) % 256, (i * 57) % 256)
