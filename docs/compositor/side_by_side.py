#!/usr/bin/env python3
"""Side-by-side 4x crop of two frames of the same scene (ours left, reference right), as in
docs/compositor-coverflow-ours-vs-reference.png:

    python3 docs/compositor/side_by_side.py ours.png ref.png out.png [X Y W H ZOOM]

Defaults: the 200 x 120 pixels from (960, 390) of the coverflow scene, zoomed 4x, with an 8-px
black separator. Reads and writes 8-bit RGB or RGBA PNGs with the standard library only."""
import struct
import sys
import zlib


def read_png(path):
    """(width, height, bytes per pixel, rows of raw pixel bytes) of an 8-bit RGB/RGBA PNG."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: not a PNG file')
    pos, idat, width, height, bpp = 8, b'', 0, 0, 0
    while pos < len(data):
        size = struct.unpack('>I', data[pos:pos + 4])[0]
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + size]
        pos += 12 + size
        if kind == b'IHDR':
            width, height, depth, color = struct.unpack('>IIBB', body[:10])
            if depth != 8 or color not in (2, 6):
                sys.exit(f'{path}: only 8-bit RGB or RGBA PNGs are read')
            bpp = 3 if color == 2 else 4
        elif kind == b'IDAT':
            idat += body
    raw, stride, rows, prev, at = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif kind == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def write_png(path, width, height, rows):
    """An 8-bit RGB PNG from rows of RGB bytes."""
    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body) & 0xFFFFFFFF)
    header = struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b''.join(b'\x00' + row for row in rows), 9)
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', pixels) + chunk(b'IEND', b''))


def main():
    if len(sys.argv) not in (4, 9):
        sys.exit(__doc__)
    ours, ref = read_png(sys.argv[1]), read_png(sys.argv[2])
    x0, y0, w, h, zoom = map(int, sys.argv[4:9]) if len(sys.argv) == 9 else (960, 390, 200, 120, 4)
    for image, name in ((ours, sys.argv[1]), (ref, sys.argv[2])):
        if x0 < 0 or y0 < 0 or x0 + w > image[0] or y0 + h > image[1]:
            sys.exit(f'{name}: the crop {w}x{h} at {x0},{y0} does not fit its {image[0]}x{image[1]} pixels')
    rows = []
    for y in range(h * zoom):
        line = bytearray()
        for image, gap in ((ours, b'\x00\x00\x00' * 8), (ref, b'')):
            bpp, src = image[2], image[3][y0 + y // zoom]
            for x in range(w * zoom):
                at = (x0 + x // zoom) * bpp
                line += src[at:at + 3]
            line += gap
        rows.append(bytes(line))
    write_png(sys.argv[3], 2 * w * zoom + 8, h * zoom, rows)


if __name__ == '__main__':
    main()
