#!/usr/bin/env python3
"""Compares two PNG frames of the same size, pixel by pixel (standard library only).

    png-compare.py REFERENCE.png CANDIDATE.png [MAX_DIFFERING_PERCENT]

Prints one line:
    pixels=<N> differing=<n> (<p> %) max_delta=<d> mean_delta_of_differing=<m>
where a pixel differs when any colour channel differs at all, and max_delta is the largest
absolute difference of one channel (0..255). With MAX_DIFFERING_PERCENT, exits 1 when more than
that share of the pixels differ (the bound scripts/arm64/check.sh applies; docs/arm64.md).
Reads the 8-bit, non-interlaced grey/RGB/RGBA PNGs the program's PNG encoder writes."""
import struct
import sys
import zlib

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode(path):
    """Returns (width, height, channels, pixel bytes without filter bytes)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"png-compare: {path} is not a PNG")
    pos, chunks, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or interlace or colour not in CHANNELS:
        sys.exit(f"png-compare: {path}: only 8-bit non-interlaced grey/RGB/RGBA PNGs")
    bpp = CHANNELS[colour]
    raw = zlib.decompress(b"".join(chunks))
    stride = width * bpp
    out = bytearray()
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif kind == 2:
            for x in range(stride):
                line[x] = (line[x] + prev[x]) & 255
        elif kind == 3:
            for x in range(stride):
                left = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + ((left + prev[x]) >> 1)) & 255
        elif kind == 4:
            for x in range(stride):
                left = line[x - bpp] if x >= bpp else 0
                upleft = prev[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + paeth(left, prev[x], upleft)) & 255
        out += line
        prev = line
    return width, height, bpp, bytes(out)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    w1, h1, c1, a = decode(sys.argv[1])
    w2, h2, c2, b = decode(sys.argv[2])
    if (w1, h1, c1) != (w2, h2, c2):
        print(f"png-compare: different formats: {w1}x{h1}x{c1} vs {w2}x{h2}x{c2}")
        sys.exit(1)
    pixels = w1 * h1
    differing, max_delta, delta_sum = 0, 0, 0
    if a != b:
        for i in range(0, len(a), c1):
            worst = max(abs(a[i + k] - b[i + k]) for k in range(c1))
            if worst:
                differing += 1
                delta_sum += worst
                max_delta = max(max_delta, worst)
    percent = 100.0 * differing / pixels
    mean = delta_sum / differing if differing else 0.0
    print(f"pixels={pixels} differing={differing} ({percent:.3f} %) max_delta={max_delta} "
          f"mean_delta_of_differing={mean:.1f}")
    if len(sys.argv) == 4 and percent > float(sys.argv[3]):
        print(f"png-compare: {percent:.3f} % of the pixels differ, more than the bound {sys.argv[3]} %")
        sys.exit(1)


if __name__ == "__main__":
    main()
