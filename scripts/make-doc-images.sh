#!/usr/bin/env bash
# Regenerates the pictures in docs/images/ with the tool itself: the example carousel
# (config/example.toml, real cards) in every layout type, turned three items by the knob and
# shot after it settles; and the example in large text and high contrast (docs/accessibility.md).
# Usage: scripts/make-doc-images.sh [BIN]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$top/.build/debug/kiosk-carousel}
out=$top/docs/images/layouts
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
printf '{"t":0.0,"type":"rotary","delta":3}\n' > "$work/turn.jsonl"
shoot() { # NAME TYPE [extra [carousel] lines...]
    local name=$1 type=$2; shift 2
    local cfg=$top/config/$name.doc.toml
    {
        sed -n '/^\[carousel\]/q;p' "$top/config/example.toml"
        printf '[carousel]\ntype = "%s"\nitem_size = %s\nwrap = %s\n' "$type" "${SIZE:-[400, 300]}" "${WRAP:-false}"
        for line in "$@"; do printf '%s\n' "$line"; done
        sed -n '/^\[input\]/,$p' "$top/config/example.toml"
    } > "$cfg"
    "$bin" simulate --config "$cfg" --size 1280x720 --input "$work/turn.jsonl" --until 2 --shot "2=$out/$name.png" >/dev/null
    rm -f "$cfg"
}
for t in linear rotary inverted-rotary cylinder inverted-cylinder wheel inverted-wheel coverflow coverflow2 time-machine inverted-time-machine; do
    case $t in *rotary|*cylinder|*wheel) WRAP=true shoot "$t" "$t" ;; *) shoot "$t" "$t" ;; esac
done
SIZE='[480, 200]' shoot conveyor-belt conveyor-belt 'vertical = true' 'focus_point = [0.5, 0.7]'
shoot scaling scaling 'inset = 200'
shoot custom custom \
    'keyframes = [' \
    '  { offset = -2, translate = [-620, 0, -300], rotate = [0, 50, 0], scale = 0.7, alpha = 0.5 },' \
    '  { offset = -1, translate = [-380, 0, -120], rotate = [0, 35, 0], scale = 0.85, alpha = 0.9 },' \
    '  { offset = 0 },' \
    '  { offset = 1, translate = [380, 0, -120], rotate = [0, -35, 0], scale = 0.85, alpha = 0.9 },' \
    '  { offset = 2, translate = [620, 0, -300], rotate = [0, -50, 0], scale = 0.7, alpha = 0.5 },' \
    ']'
cfg=$top/config/accessibility.doc.toml
{ cat "$top/config/example.toml"; printf '\n[accessibility]\nlarge_text = true\nhigh_contrast = true\n'; } > "$cfg"
"$bin" simulate --config "$cfg" --size 1280x720 --input "$work/turn.jsonl" --until 2 \
    --shot "2=$top/docs/images/accessibility-example.png" >/dev/null
rm -f "$cfg"
echo "wrote $(ls "$out" | wc -l) frames to $out and docs/images/accessibility-example.png"
