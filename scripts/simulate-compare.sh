#!/bin/bash
# Compares what two builds of kiosk-carousel `simulate` write — PNG shots and the event log — on
# the example config and a set of scenes that exercise every layout, input (keys, a drag and a
# flick), the idle stages, a schedule, a reload and the demo. A refactor that must not change
# behaviour (issue 28) shows byte-identical output.
#
#   scripts/simulate-compare.sh OLD_BINARY NEW_BINARY [WORK_FOLDER]
#
# Prints one line per scene and "identical: N of N"; exits 1 when any file differs.
set -euo pipefail
old=$(realpath "$1"); new=$(realpath "$2")
work=${3:-$(mktemp -d /tmp/simulate-compare.XXXXXX)}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
cd "$work"

# Scenes: NAME|CONFIG|extra simulate arguments.
media="$repo/config/media"
layouts="linear rotary inverted-rotary cylinder inverted-cylinder wheel inverted-wheel coverflow coverflow2 time-machine inverted-time-machine conveyor-belt scaling"
for layout in $layouts; do
    {
        printf '[carousel]\ntype = "%s"\nitem_size = [240, 180]\n[idle]\nattract_after = 3\nattract_interval = 1\nblank_after = 6\n' "$layout"
        i=0
        for f in "$media"/0*.jpg "$media"/0*.png; do
            printf '[[item]]\nid = "i%d"\ntitle = "Item %d"\nimage = "%s"\n' $i $i "$f"
            i=$((i + 1))
        done
    } > "layout-$layout.toml"
done
# A flick (the fuzz corpus's swipe), then a key and a select.
{
    cat "$repo/Fuzz/corpus/FuzzInputScript/swipe.jsonl"
    for k in right enter; do
        printf '{"t":%s,"type":"key_down","key":"%s"}\n{"t":%s,"type":"key_up","key":"%s"}\n' \
            "$([ $k = right ] && echo 2.00 || echo 2.40)" $k "$([ $k = right ] && echo 2.05 || echo 2.45)" $k
    done
} > drag.jsonl
{
    printf '[carousel]\ntype = "linear"\nitem_size = [240, 180]\n'
    for id in A B C; do printf '[[item]]\nid = "%s"\ntitle = "%s"\n' "${id,,}" "$id"; done
    printf '[[schedule]]\nfrom = "10:00"\nto = "10:01"\nitems = ["b", "c"]\n'
    printf '[schedule_defaults]\noutside = "blank"\nclock_grace = 0\n'
} > schedule.toml
sed 's/title = "B"/title = "B again"/' schedule.toml > schedule-reloaded.toml

run() {  # NAME BINARY ARGS...
    local name=$1 bin=$2 side=$3; shift 3
    mkdir -p "$side"
    "$bin" simulate "$@" --events "$side/$name.events" \
        --shot 0.5="$side/$name-0.5.png" --shot 1.2="$side/$name-1.2.png" --shot 2.5="$side/$name-2.5.png" \
        --shot 4="$side/$name-4.png" --shot 7="$side/$name-7.png" --shot 9.5="$side/$name-9.5.png" --until 10 2>"$side/$name.stderr" \
        || echo "exit $?" > "$side/$name.exit"
}
scenes=()
scene() { scenes+=("$1"); local n=$1; shift; run "$n" "$old" old "$@"; run "$n" "$new" new "$@"; }
scene example --config "$repo/config/example.toml" --input "$repo/Tests/vm/display/scroll.jsonl"
scene example-demo --config "$repo/config/example.toml" --demo
for layout in $layouts; do scene "$layout" --config "layout-$layout.toml" --input drag.jsonl --size 1280x720; done
# The window opens 2 s in; a reload at 3 s; the other run starts 3 s before it closes.
scene schedule-open --config schedule.toml --wall-clock 2026-03-30T09:59:58 --time-zone Europe/London \
    --reload 3=schedule-reloaded.toml
scene schedule-close --config schedule.toml --wall-clock 2026-03-30T10:00:57 --time-zone Europe/London
same=0
for n in "${scenes[@]}"; do
    d=0
    for f in old/"$n"[.-]*; do
        b=new/${f#old/}
        case "$f" in *.stderr) continue ;; esac  # log lines carry times of the host
        cmp -s "$f" "$b" || { echo "DIFFERS: $f $b"; d=1; }
    done
    [ -e "new/$n.exit" ] && ! [ -e "old/$n.exit" ] && { echo "DIFFERS: $n exit"; d=1; }
    if [ $d = 0 ]; then same=$((same + 1)); echo "identical: $n ($(ls old/"$n"[.-]* | grep -vc stderr) files)"; fi
done
echo "identical: $same of ${#scenes[@]} scenes ($work)"
[ "$same" = "${#scenes[@]}" ]
