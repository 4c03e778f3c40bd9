#!/usr/bin/env python3
"""Extra compositor benchmark scenes beyond the four published ones, in the same format and with
the same maths as ../shared/bench/peers/gen_scenes.py (imported from there).

    python3 docs/compositor/extra_scenes.py OUT_DIR
writes OUT_DIR/{coverflow-b,cylinder,affine}.json:
  coverflow-b  coverflow at another phase (offset k - 0.71), tilt 0.7, spacing 0.3: projective
  cylinder     iCarousel's cylinder (cards turned about y round a drum), far cards at alpha 0.8:
               projective with alpha
  affine       a magnified card (1.5x), a rotated card (25 degrees, alpha 0.85) and a sheared
               minified card: the affine (non axis-aligned) path and magnification
"""
import json, math, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/bench/peers"))
sys.path.insert(0, "/work/shared/bench/peers")
from gen_scenes import W, H, BG, perspective, ca_translate, ca_rotate_y, card_corners  # noqa: E402


def scene(name, items):
    items.sort(key=lambda it: (it[0], it[1]))
    textures, quads = [], []
    for n, (_, _, tid, tex, corners, alpha) in enumerate(items):
        textures.append(dict(tex, id=tid))
        quads.append({"texture": tid, "corners": corners, "alpha": alpha})
    return {"name": name, "width": W, "height": H, "background": BG, "textures": textures, "quads": quads}


def coverflow_b():
    iw, ih, tilt, spacing = 480, 360, 0.7, 0.3
    items = []
    for k in range(-5, 6):
        offset = k - 0.71
        clamped = max(-1.0, min(1.0, offset))
        x = (clamped * 0.5 * tilt + offset * spacing) * iw
        z = -abs(clamped) * iw * 0.5
        t = ca_rotate_y(ca_translate(perspective(-1 / 500), x, 0, z), -clamped * math.pi / 2 * tilt)
        items.append((z, -abs(offset), "card%+d" % k, {"width": iw, "height": ih, "pattern": "card", "variant": k + 5},
                      card_corners(t, iw, ih), 1.0))
    return scene("coverflow-b", items)


def cylinder():
    iw, ih, count = 400, 300, 9
    radius = iw / 2 / math.tan(math.pi / count)
    items = []
    for k in range(-3, 4):
        offset = k - 0.4
        a = offset * 2 * math.pi / count
        t = ca_translate(perspective(-1 / 500), 0, 0, -radius)
        t = ca_rotate_y(t, a)
        t = ca_translate(t, 0, 0, radius)
        alpha = 1.0 if abs(offset) < 1.5 else 0.8
        z = radius * math.cos(a) - radius
        items.append((z, -abs(offset), "card%+d" % k, {"width": iw, "height": ih, "pattern": "card", "variant": k + 3},
                      card_corners(t, iw, ih), alpha))
    return scene("cylinder", items)


def affine():
    items = []
    iw, ih = 480, 360
    # magnified 1.5x, axis-aligned, not at integer positions
    cx, cy, s = 560.3, 540.7, 1.5
    items.append((0, 0, "big", {"width": iw, "height": ih, "pattern": "photo", "variant": 1},
                  [[cx - iw * s / 2, cy - ih * s / 2], [cx + iw * s / 2, cy - ih * s / 2],
                   [cx + iw * s / 2, cy + ih * s / 2], [cx - iw * s / 2, cy + ih * s / 2]], 1.0))
    # rotated 25 degrees, alpha 0.85
    a = math.radians(25)
    c, sn = math.cos(a), math.sin(a)
    cx, cy = 1320.0, 520.0
    pts = []
    for (u, v) in ((0, 0), (iw, 0), (iw, ih), (0, ih)):
        x, y = u - iw / 2, v - ih / 2
        pts.append([round(cx + c * x - sn * y, 6), round(cy + sn * x + c * y, 6)])
    items.append((1, 0, "turned", {"width": iw, "height": ih, "pattern": "card", "variant": 2}, pts, 0.85))
    # sheared and minified to ~0.4
    x0, y0 = 1500.0, 800.0
    pts = [[x0, y0], [x0 + 190, y0 + 20], [x0 + 230, y0 + 160], [x0 + 40, y0 + 140]]
    items.append((2, 0, "sheared", {"width": iw, "height": ih, "pattern": "card", "variant": 4}, pts, 1.0))
    return scene("affine", items)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    for s in (coverflow_b(), cylinder(), affine()):
        with open(os.path.join(out, s["name"] + ".json"), "w") as f:
            json.dump(s, f, indent=1)
        print(os.path.join(out, s["name"] + ".json"))
