#!/usr/bin/python3
"""Writes the placeholder pictures config/example.toml shows, into config/media/.

Pure Python for PNG and SVG; JPEG through libturbojpeg (libturbojpeg0-dev) with ctypes.
Deterministic: running it again writes the same bytes. Usage: scripts/make-example-media.py [OUTDIR]
"""
import ctypes
import math
import os
import struct
import sys
import zlib

W, H = 480, 360


def lerp(a, b, t):
    return tuple(int(round(a[i] + (b[i] - a[i]) * t)) for i in range(len(a)))


def hexrgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))


class Image:
    """An RGB picture with a few drawing helpers (anti-aliased by 4x4 supersampling of edges)."""

    def __init__(self, top, bottom):
        self.px = [[lerp(hexrgb(top), hexrgb(bottom), y / (H - 1)) for _ in range(W)] for y in range(H)]

    def blend(self, x, y, color, a):
        if 0 <= x < W and 0 <= y < H and a > 0:
            self.px[y][x] = lerp(self.px[y][x], color, min(1.0, a))

    def shape(self, inside, color, alpha=1.0, box=(0, 0, W, H)):
        c = hexrgb(color)
        x0, y0, x1, y1 = (max(0, int(box[0])), max(0, int(box[1])), min(W, int(box[2]) + 1), min(H, int(box[3]) + 1))
        for y in range(y0, y1):
            for x in range(x0, x1):
                n = sum(inside(x + (i + 0.5) / 4, y + (j + 0.5) / 4) for i in range(4) for j in range(4))
                if n:
                    self.blend(x, y, c, alpha * n / 16)

    def circle(self, cx, cy, r, color, alpha=1.0):
        self.shape(lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= r * r, color, alpha, (cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1))

    def rect(self, x0, y0, x1, y1, color, alpha=1.0):
        self.shape(lambda x, y: x0 <= x < x1 and y0 <= y < y1, color, alpha, (x0 - 1, y0 - 1, x1 + 1, y1 + 1))

    def polygon(self, pts, color, alpha=1.0):
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]

        def inside(x, y):
            c = False
            for i in range(len(pts)):
                (ax, ay), (bx, by) = pts[i], pts[i - 1]
                if (ay > y) != (by > y) and x < (bx - ax) * (y - ay) / (by - ay) + ax:
                    c = not c
            return c
        self.shape(inside, color, alpha, (min(xs), min(ys), max(xs), max(ys)))

    def waves(self, y0, color, alpha, amp=6, period=60):
        self.shape(lambda x, y: y >= y0 + amp * math.sin(x / period * 2 * math.pi), color, alpha, (0, y0 - amp - 1, W, H))

    def rgb(self):
        return b"".join(bytes(p) for row in self.px for p in row)


def write_png(path, img):
    raw = b"".join(b"\x00" + b"".join(bytes(p) for p in row) for row in img.px)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def write_jpeg(path, img):
    tj = ctypes.CDLL("libturbojpeg.so.0")
    tj.tjInitCompress.restype = ctypes.c_void_p
    handle = tj.tjInitCompress()
    buf, size = ctypes.POINTER(ctypes.c_ubyte)(), ctypes.c_ulong(0)
    src = img.rgb()
    # tjCompress2(handle, src, width, pitch, height, TJPF_RGB=0, &buf, &size, TJSAMP_420=2, quality, flags)
    if tj.tjCompress2(ctypes.c_void_p(handle), src, W, W * 3, H, 0, ctypes.byref(buf), ctypes.byref(size), 2, 88, 0) != 0:
        sys.exit("tjCompress2 failed")
    with open(path, "wb") as f:
        f.write(ctypes.string_at(buf, size.value))
    tj.tjFree(buf)
    tj.tjDestroy(ctypes.c_void_p(handle))


def svg(path, top, bottom, body):
    with open(path, "w") as f:
        f.write(f"""<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="{top}"/><stop offset="1" stop-color="{bottom}"/></linearGradient></defs>
<rect width="{W}" height="{H}" fill="url(#bg)"/>
{body}
</svg>
""")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "config", "media")
    os.makedirs(out, exist_ok=True)

    # Photos (JPEG): sunset harbour, tall ship.
    img = Image("#F6A15B", "#3B2B5C")
    img.circle(240, 210, 70, "#FFD98A", 0.95)
    img.waves(230, "#1E3A5F", 1.0, 5, 80)
    for k in range(5):
        img.waves(250 + 22 * k, "#F6C37A", 0.10 + 0.04 * k, 3, 50 + 10 * k)
    img.rect(60, 150, 150, 232, "#2A2238")
    img.polygon([(50, 150), (105, 110), (160, 150)], "#2A2238")
    img.rect(360, 120, 372, 232, "#2A2238")
    img.polygon([(300, 232), (440, 232), (420, 250), (320, 250)], "#1A1426")
    write_jpeg(os.path.join(out, "harbour.jpg"), img)

    img = Image("#9CC9E8", "#E8F1F6")
    img.waves(240, "#2F6D94", 1.0, 6, 70)
    img.polygon([(120, 235), (380, 235), (350, 275), (150, 275)], "#5A3A28")
    for mx, h in ((180, 150), (250, 175), (320, 140)):
        img.rect(mx - 3, 235 - h, mx + 3, 236, "#3B2A20")
        img.polygon([(mx, 235 - h + 10), (mx + 55, 235 - h / 2), (mx, 225)], "#FBF7EE", 0.95)
    write_jpeg(os.path.join(out, "tall-ships.jpg"), img)

    # Pictures (PNG): café, shop, guided tours.
    img = Image("#6B3E2E", "#2B1A15")
    img.circle(240, 190, 95, "#F4EDE4")
    img.circle(240, 190, 72, "#7A4A30")
    img.circle(240, 190, 60, "#A8704C", 0.8)
    img.shape(lambda x, y: 48 ** 2 <= (x - 325) ** 2 + (y - 190) ** 2 <= 68 ** 2 and x > 325, "#F4EDE4", 1.0, (320, 110, 400, 270))
    write_png(os.path.join(out, "cafe.png"), img)

    img = Image("#2E5E4E", "#16302A")
    img.polygon([(150, 150), (330, 150), (350, 300), (130, 300)], "#E9D8A6")
    img.shape(lambda x, y: 40 ** 2 <= (x - 240) ** 2 + (y - 150) ** 2 <= 52 ** 2 and y < 150, "#E9D8A6", 1.0, (180, 90, 300, 152))
    img.circle(240, 220, 26, "#CA6702")
    write_png(os.path.join(out, "shop.png"), img)

    img = Image("#3D5A80", "#1B2A41")
    for k, (x, c) in enumerate(((150, "#EE6C4D"), (240, "#E0FBFC"), (330, "#98C1D9"))):
        img.circle(x, 150 - 10 * (k == 1), 34, c)
        img.polygon([(x - 45, 300), (x - 30, 200), (x + 30, 200), (x + 45, 300)], c)
    img.rect(90, 300, 390, 306, "#E0FBFC", 0.6)
    write_png(os.path.join(out, "tours.png"), img)

    # Drawings (SVG).
    svg(os.path.join(out, "welcome.svg"), "#1D4E89", "#0B1F3A", """<circle cx="240" cy="150" r="78" fill="none" stroke="#F2C14E" stroke-width="10"/>
<path d="M240 90 L240 210 M200 120 L280 120 M190 185 Q240 240 290 185" stroke="#F2C14E" stroke-width="10" fill="none" stroke-linecap="round"/>
<path d="M0 290 Q120 260 240 290 T480 290 V360 H0Z" fill="#F2C14E" opacity="0.25"/>""")
    svg(os.path.join(out, "map.svg"), "#E9E3D5", "#D6CDB8", """<path d="M60 70 L170 40 L300 80 L420 50 L420 300 L300 330 L170 290 L60 320Z" fill="#F7F3EA" stroke="#8C7B5E" stroke-width="4"/>
<path d="M170 40 L170 290 M300 80 L300 330" stroke="#8C7B5E" stroke-width="3" stroke-dasharray="8 6"/>
<path d="M90 250 C150 200 220 240 260 170 S360 120 390 100" stroke="#C8553D" stroke-width="6" fill="none" stroke-dasharray="14 8"/>
<circle cx="390" cy="100" r="14" fill="#C8553D"/>""")
    svg(os.path.join(out, "lighthouse.svg"), "#0F2027", "#2C5364", """<path d="M215 110 L265 110 L285 300 L195 300Z" fill="#F1FAEE"/>
<path d="M208 170 L272 170 L276 205 L204 205Z M200 240 L280 240 L284 275 L196 275Z" fill="#E63946"/>
<rect x="218" y="80" width="44" height="32" fill="#FFE066"/><path d="M210 80 L240 52 L270 80Z" fill="#1D3557"/>
<path d="M262 90 L480 40 L480 140Z" fill="#FFE066" opacity="0.35"/>
<path d="M0 300 Q120 285 240 300 T480 300 V360 H0Z" fill="#1D3557"/>""")
    svg(os.path.join(out, "events.svg"), "#5F0F40", "#310E68", """<rect x="120" y="80" width="240" height="210" rx="18" fill="#FFFFFF"/>
<rect x="120" y="80" width="240" height="56" rx="18" fill="#FB8B24"/><rect x="120" y="118" width="240" height="18" fill="#FB8B24"/>
<g fill="#9A031E">""" + "".join(f'<circle cx="{160 + 40 * (i % 5)}" cy="{170 + 38 * (i // 5)}" r="9"/>' for i in range(15)) + """</g>""")
    svg(os.path.join(out, "kids.svg"), "#FFB703", "#FB8500", """<circle cx="160" cy="170" r="60" fill="#8ECAE6"/><circle cx="320" cy="170" r="60" fill="#219EBC"/>
<circle cx="240" cy="230" r="60" fill="#023047" opacity="0.85"/>
<path d="M60 320 L420 320" stroke="#FFFFFF" stroke-width="8" stroke-linecap="round" stroke-dasharray="2 22"/>""")
    svg(os.path.join(out, "accessibility.svg"), "#2B9348", "#007F5F", """<circle cx="240" cy="180" r="110" fill="none" stroke="#FFFFFF" stroke-width="10"/>
<circle cx="240" cy="112" r="16" fill="#FFFFFF"/>
<path d="M180 145 L300 145 M240 145 L240 205 L205 265 M240 205 L275 265" stroke="#FFFFFF" stroke-width="14" stroke-linecap="round" fill="none"/>""")
    svg(os.path.join(out, "languages.svg"), "#3A0CA3", "#4361EE", """<circle cx="240" cy="180" r="105" fill="none" stroke="#F8F9FA" stroke-width="8"/>
<ellipse cx="240" cy="180" rx="48" ry="105" fill="none" stroke="#F8F9FA" stroke-width="6"/>
<path d="M135 180 H345 M150 125 H330 M150 235 H330" stroke="#F8F9FA" stroke-width="6"/>""")
    svg(os.path.join(out, "film.svg"), "#111111", "#343A40", """<rect x="90" y="90" width="300" height="180" rx="14" fill="#212529" stroke="#ADB5BD" stroke-width="6"/>
<path d="M215 140 L295 180 L215 220Z" fill="#F8F9FA"/>
<g fill="#ADB5BD">""" + "".join(f'<rect x="{100 + 34 * i}" y="60" width="20" height="14" rx="3"/><rect x="{100 + 34 * i}" y="286" width="20" height="14" rx="3"/>' for i in range(9)) + """</g>""")
    svg(os.path.join(out, "contact.svg"), "#264653", "#1B2F38", """<rect x="110" y="100" width="260" height="170" rx="16" fill="#E9C46A"/>
<path d="M110 116 L240 200 L370 116" stroke="#264653" stroke-width="10" fill="none" stroke-linejoin="round"/>""")


if __name__ == "__main__":
    main()
