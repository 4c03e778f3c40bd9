#!/usr/bin/env python3
"""Compare a kiosk-vm screenshot with a reference frame (standard library only).

    compare.py REFERENCE.png SCREENSHOT.png [--rotate 0|90|180|270] [--max-mean M] [--max-over4 F]
    compare.py A.png B.png --expect-different [--min-mean M]
    compare.py IMAGE.png --color-at X,Y=R,G,B ... [--not-color-at X,Y=R,G,B ...]

--color-at checks that the pixel is within 8 levels of the colour (where a card must be),
--not-color-at that it is not (where the background must show); both repeatable.

--rotate turns the reference clockwise first (the display's software rotation: a scene laid out
in the logical size shows rotated on the panel). Prints one line
    DIFF mean=<mean |difference| per channel> peak=<max> over4=<share of pixels off by more than 4>
and exits 0 when within the limits (default: mean <= 0.5, over4 <= 0.001), 1 otherwise; with
--expect-different it exits 0 only when the images differ (mean >= --min-mean, default 2), which
tests use to show that a comparison can fail.
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise SystemExit(f'{path}: not a PNG')
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or ctype not in (0, 2, 6) or interlace:
                raise SystemExit(f'{path}: only 8-bit grey/RGB/RGBA non-interlaced PNGs')
            ch = {0: 1, 2: 3, 6: 4}[ctype]
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * ch
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - ch] if i >= ch else 0
            b = prev[i]
            c = prev[i - ch] if i >= ch else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    px = [[tuple(r[x * ch:x * ch + 3]) if ch >= 3 else (r[x],) * 3 for x in range(w)] for r in rows]
    return w, h, px


def rotate(w, h, px, degrees):
    """Clockwise, as DisplayRotation maps logical (x, y) to the panel."""
    for _ in range((degrees // 90) % 4):
        # 90° clockwise: new (x', y') = (h - 1 - y, x); new size h x w.
        px = [[px[h - 1 - xn][yn] for xn in range(h)] for yn in range(w)]
        w, h = h, w
    return w, h, px


def main():
    args = sys.argv[1:]
    opts = {'--rotate': '0', '--max-mean': '0.5', '--max-over4': '0.001', '--min-mean': '2'}
    files, different, probes = [], False, []
    while args:
        a = args.pop(0)
        if a == '--expect-different': different = True
        elif a in ('--color-at', '--not-color-at'): probes.append((a == '--color-at', args.pop(0)))
        elif a in opts: opts[a] = args.pop(0)
        else: files.append(a)
    if probes:
        w, h, px = read_png(files[0])
        ok = True
        for want, spec in probes:
            (x, y), rgb = [int(v) for v in spec.split('=')[0].split(',')], [int(v) for v in spec.split('=')[1].split(',')]
            got = px[y][x]
            near = max(abs(a - b) for a, b in zip(got, rgb)) <= 8
            print(f'PIXEL {x},{y} = {got}: {"" if near else "not "}near {tuple(rgb)} (wanted {"near" if want else "not near"})')
            ok = ok and near == want
        sys.exit(0 if ok else 1)
    if len(files) != 2:
        raise SystemExit(__doc__)
    w1, h1, a = rotate(*read_png(files[0]), int(opts['--rotate']))
    w2, h2, b = read_png(files[1])
    if (w1, h1) != (w2, h2):
        print(f'DIFF size {w1}x{h1} vs {w2}x{h2}')
        sys.exit(0 if different else 1)
    total = peak = over = 0
    for ra, rb in zip(a, b):
        for pa, pb in zip(ra, rb):
            d = [abs(x - y) for x, y in zip(pa, pb)]
            total += sum(d)
            m = max(d)
            peak = max(peak, m)
            over += m > 4
    n = w1 * h1
    mean, share = total / (3 * n), over / n
    print(f'DIFF mean={mean:.4f} peak={peak} over4={share:.5f} ({files[0]} vs {files[1]}, rotate {opts["--rotate"]})')
    if different:
        sys.exit(0 if mean >= float(opts['--min-mean']) else 1)
    sys.exit(0 if mean <= float(opts['--max-mean']) and share <= float(opts['--max-over4']) else 1)


if __name__ == '__main__':
    main()
