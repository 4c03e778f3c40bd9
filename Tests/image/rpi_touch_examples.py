#!/usr/bin/env python3
"""The Raspberry Pi touch display examples of docs/raspberry-pi.md, checked by the program itself
(make rpi-image-test; no board needed).

  rpi_touch_examples.py BIN        BIN: a kiosk-carousel for this machine (.build/debug/kiosk-carousel)

Each ```toml block in docs/raspberry-pi.md whose first line is "# Example: <panel> WxH" (the
panel's own size, as the kernel reports its touches) holds a [display] and an [input] table. For
each: config/example.toml (what the image's KIOSK partition starts with) with its [display] and
[input] tables replaced by the block's must pass `check-config`; then a finger swipe along the
panel, given in the panel's own coordinates (the direction written after "swipe:" in the block:
the way a finger moves across the mounted screen to go forward), is turned into screen
coordinates by docs/display.md's rotation table (what the kiosk does to a touch) and fed to
`simulate` at the rotated screen size: the carousel must move forward (from item 0). The same
panel swipe turned by the opposite rotation must not step forward, so the check can fail.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(top, "docs", "raspberry-pi.md")
EXAMPLE = os.path.join(top, "config", "example.toml")


def blocks():
    text = open(DOC, encoding="utf-8").read()
    for body in re.findall(r"```toml\n(.*?)```", text, re.S):
        m = re.match(r"# Example: (.+?) (\d+)x(\d+)\n", body)
        if m:
            yield m.group(1), int(m.group(2)), int(m.group(3)), body


def tables(toml):
    """{header: body lines} of the top-level tables the block has."""
    out, header = {}, None
    for line in toml.splitlines():
        h = re.match(r"^\[([a-z_.]+)\]\s*$", line)
        if h:
            header = h.group(1)
            out[header] = []
        elif header:
            out[header].append(line)
    return out


def merged(block):
    """config/example.toml with [display] and [input] replaced by the block's."""
    mine = tables(block)
    out, skipping = [], False
    for line in open(EXAMPLE, encoding="utf-8").read().splitlines():
        h = re.match(r"^\[\[?([a-z_.]+)\]?\]\s*$", line)
        if h:
            skipping = h.group(1) in mine and not line.startswith("[[")
            if skipping:
                out.append(line)
                out.extend(mine[h.group(1)])
                continue
        if not skipping:
            out.append(line)
    return "\n".join(out) + "\n", mine


def logical(rotation, px, py, pw, ph):
    """A panel pixel in screen coordinates: the inverse of docs/display.md's rotation table."""
    if rotation == 0:
        return px, py
    if rotation == 90:       # panel (LH-1-y, x), LH = pw
        return py, pw - 1 - px
    if rotation == 180:
        return pw - 1 - px, ph - 1 - py
    if rotation == 270:      # panel (y, LW-1-x), LW = ph
        return ph - 1 - py, px
    raise ValueError(rotation)


def swipe(direction, pw, ph):
    """A swipe across the middle of the panel, in panel pixels: 'panel x+' = towards larger x."""
    axis, sign = direction[-2], direction[-1]
    a, b = (0.8, 0.2) if sign == "-" else (0.2, 0.8)
    if axis == "x":
        return [(pw * (a + (b - a) * i / 6), ph / 2) for i in range(7)]
    return [(pw / 2, ph * (a + (b - a) * i / 6)) for i in range(7)]


def run_swipe(binary, config, rotation, points, pw, ph, work):
    lw, lh = (ph, pw) if rotation in (90, 270) else (pw, ph)
    lines = []
    for i, (px, py) in enumerate(points):
        x, y = logical(rotation, px, py, pw, ph)
        kind = "touch_down" if i == 0 else "touch_motion"
        lines.append(json.dumps({"t": round(1.0 + 0.03 * i, 3), "type": kind, "slot": 0, "x": round(x, 1), "y": round(y, 1)}))
    lines.append(json.dumps({"t": round(1.0 + 0.03 * len(points), 3), "type": "touch_up", "slot": 0}))
    script = os.path.join(work, "swipe.jsonl")
    with open(script, "w") as f:
        f.write("\n".join(lines) + "\n")
    r = subprocess.run([binary, "simulate", "--config", config, "--size", f"{lw}x{lh}", "--input", script,
                        "--until", "4", "--events", "-"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"simulate failed: {r.stderr.strip()}")
    indices = [json.loads(l).get("index") for l in r.stdout.splitlines()
               if l.strip().startswith("{") and json.loads(l).get("event") == "current_index_changed"]
    return lw, lh, indices


def main(argv):
    if len(argv) != 1 or not os.access(argv[0], os.X_OK):
        raise SystemExit("usage: rpi_touch_examples.py BIN (a kiosk-carousel for this machine)")
    binary = argv[0]
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        print(("ok: " if ok else "FAIL: ") + what)
        passed += ok
        failed += not ok

    found = list(blocks())
    check(len(found) >= 2, f"docs/raspberry-pi.md has the touch display examples ({[f[0] for f in found]})")
    with tempfile.TemporaryDirectory() as work:
        for name, pw, ph, block in found:
            text, mine = merged(block)
            config = os.path.join(os.path.dirname(EXAMPLE), f".rpi-example-{os.getpid()}.toml")
            try:
                with open(config, "w", encoding="utf-8") as f:
                    f.write(text)
                r = subprocess.run([binary, "check-config", config], capture_output=True, text=True)
                check(r.returncode == 0 and r.stdout.startswith("OK"),
                      f"{name}: config/example.toml with the example's [display] and [input] passes check-config ({(r.stdout + r.stderr).strip()[:300]})")
                rot = [l for l in mine.get("display", []) if l.startswith("rotation")]
                rotation = int(rot[0].split("=")[1].split("#")[0]) if rot else 0
                direction = re.search(r"swipe: (panel [xy][+-])", block).group(1)
                points = swipe(direction, pw, ph)
                lw, lh, indices = run_swipe(binary, config, rotation, points, pw, ph, work)
                check(indices[:1] != [] and indices[0] > 0, f"{name}: rotation {rotation}, a swipe along {direction} of the {pw}x{ph} panel is a forward swipe on the {lw}x{lh} screen (simulate: current_index_changed {indices})")
                wrong = (rotation + 180) % 360
                _, _, indices = run_swipe(binary, config, wrong, points, pw, ph, work)
                check(indices[:1] == [] or indices[0] <= 0, f"{name}: the same panel swipe turned by the opposite rotation ({wrong}) does not step forward ({indices})")
            finally:
                os.unlink(config)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
