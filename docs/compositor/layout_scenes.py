#!/usr/bin/env python3
"""Compositor benchmark scenes taken from the program's own layouts, in ../shared/bench's scene
format, so they run beside Qt 5 and pixman with compare.sh.

    python3 docs/compositor/layout_scenes.py BIN OUT_DIR

BIN is a built kiosk-carousel. Each scene is config/example.toml with another [carousel] type
(and size), laid out by `BIN layout --config CFG --scroll-offset X --size WxH` at a scroll offset
between two items (a frame of a drag): the quads are the layout's corners and alphas, back to
front, each card a `card` pattern texture of the config's item_size (rounded corners, as the
kiosk's cards), one texture per item. The output is deterministic (the layout is).

OUT_DIR also gets the four published scenes (../shared/bench/scenes) and the three of
extra_scenes.py, so one compare.sh run with `--scene-dir OUT_DIR` measures every scene:

  wheel              wheel (cards turned about z round a hub below the view), 1920x1080
  inverted-wheel     the same, hub above
  cylinder-layout    cylinder (cards turned about y round a drum), 1920x1080
  time-machine       time machine (a receding stack, faded), 1920x1080
  coverflow-vertical cover flow scrolling along y, portrait 1080x1920
  coverflow-4k       cover flow at 3840x2160 with 800x600 cards
  rotary-layout      rotary (uniformly scaled cards on a ring), 1920x1080
"""
import json, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "../.."))
BG = [24, 26, 38]

# name: (type, WxH, item_size, scroll offset, extra [carousel] lines)
SCENES = {
    "wheel": ("wheel", (1920, 1080), (400, 300), 5.37, ["wrap = true"]),
    "inverted-wheel": ("inverted-wheel", (1920, 1080), (400, 300), 5.37, ["wrap = true"]),
    "cylinder-layout": ("cylinder", (1920, 1080), (400, 300), 5.37, ["wrap = true"]),
    "time-machine": ("time-machine", (1920, 1080), (400, 300), 5.37, []),
    "coverflow-vertical": ("coverflow", (1080, 1920), (400, 300), 5.37, ["vertical = true"]),
    "coverflow-4k": ("coverflow", (3840, 2160), (800, 600), 5.37, []),
    "rotary-layout": ("rotary", (1920, 1080), (400, 300), 5.37, ["wrap = true"]),
}


def config_text(kind, item, extra):
    """config/example.toml with its [carousel] table's type, item_size and wrap replaced."""
    text = open(os.path.join(TOP, "config/example.toml")).read()
    head, rest = text.split("[carousel]\n", 1)
    body, tail = rest.split("\n[", 1)
    keep = [l for l in body.splitlines() if not re.match(r"\s*(type|item_size|wrap|vertical)\s*=", l)]
    lines = ['type = "%s"' % kind, "item_size = [%d, %d]" % item] + extra + keep
    # Relative media paths stay relative to config/ (the config is written there).
    return head + "[carousel]\n" + "\n".join(lines) + "\n\n[" + tail


def layout_scene(binary, name, kind, size, item, offset, extra):
    with tempfile.NamedTemporaryFile("w", suffix=".toml", dir=os.path.join(TOP, "config"), delete=False) as f:
        f.write(config_text(kind, item, extra))
        cfg = f.name
    try:
        out = subprocess.run([binary, "layout", "--config", cfg, "--scroll-offset", repr(offset),
                              "--size", "%dx%d" % size], check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(cfg)
    items = json.loads(out)["items"]
    textures, quads = [], []
    for n, it in enumerate(items):
        tid = "item%d-%d" % (it["index"], n)
        textures.append({"id": tid, "width": item[0], "height": item[1], "pattern": "card",
                         "variant": it["index"] % 9})
        quads.append({"texture": tid, "corners": [[round(x, 6), round(y, 6)] for x, y in it["corners"]],
                      "alpha": round(it["alpha"], 6)})
    return {"name": name, "width": size[0], "height": size[1], "background": BG,
            "textures": textures, "quads": quads}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: layout_scenes.py KIOSK_CAROUSEL_BIN OUT_DIR")
    binary, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    shared = os.path.join(TOP, "../shared/bench/scenes")
    if not os.path.isdir(shared):
        shared = "/work/shared/bench/scenes"
    for f in sorted(os.listdir(shared)):
        if f.endswith(".json"):
            shutil.copyfile(os.path.join(shared, f), os.path.join(out, f))
    subprocess.run([sys.executable, os.path.join(HERE, "extra_scenes.py"), out], check=True, stdout=subprocess.DEVNULL)
    for name, (kind, size, item, offset, extra) in SCENES.items():
        s = layout_scene(binary, name, kind, size, item, offset, extra)
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(s, f, indent=1)
    print(" ".join(sorted(f[:-5] for f in os.listdir(out) if f.endswith(".json"))))


if __name__ == "__main__":
    main()
