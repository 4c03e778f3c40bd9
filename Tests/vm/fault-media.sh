#!/usr/bin/env bash
# Media-folder faults against a running kiosk (headless backend, control socket; no VM needed):
# the items come from `[items] directory`; the folder is emptied, refilled, moved away and back,
# deleted and made again, and one picture is replaced by garbage, by a truncated file, then
# restored. Each time the kiosk must stay up and keep showing a carousel (control `state`, and a
# screenshot equal to the one before the fault, cards being cached), say what happened in a log
# line, and pick the files up again when they come back. SIGTERM at the end must exit 0. Last, a
# kiosk started on an empty folder shows 0 items and takes the first picture that comes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/fault.bash"
media_src=$here/../../config/media
sock=$WORK/control.sock
cfg=$WORK/config.toml
media=$WORK/media
files=(01-mountain-dawn.jpg 06-desert-dunes.png icon-info.svg)
fill_media() { mkdir -p "$media"; for f in "${files[@]}"; do cp "$media_src/$f" "$media/$f"; done; }
fill_media
cat >"$cfg" <<TOML
[display]
backend = "headless"
headless_size = [480, 240]

[control]
socket = "$sock"

[carousel]
type = "linear"
item_size = [140, 100]

[items]
directory = "media"
TOML

control() { /usr/bin/python3 "$here/control-client.py" "$sock" "$1"; }
item_count() { control '{"cmd":"state"}' 2>/dev/null | sed -n 's/.*"item_count":\([0-9]*\).*/\1/p'; }
# A screenshot once the screen is still (cards fade in off the loop): two in a row that match.
shot() { # FILE
    local i
    for i in $(seq "$(scaled 40)"); do
        control "{\"cmd\":\"screenshot\",\"path\":\"$1\"}" >/dev/null || return 1
        if [ -f "$1.prev" ] && python3 "$here/display/compare.py" "$1.prev" "$1" --max-mean 0 --max-over4 0 >/dev/null; then
            rm -f "$1.prev"; return 0
        fi
        mv "$1" "$1.prev"; sleep 0.25
    done
    return 1
}
same_as() { python3 "$here/display/compare.py" "$1" "$2" --max-mean 0 --max-over4 0; }
# screen_same NAME / screen_differs NAME: a still screenshot $WORK/NAME.png equals (differs from)
# the one taken at the start.
screen_same() { shot "$WORK/$1.png" && same_as "$WORK/ref.png" "$WORK/$1.png"; }
# screen_becomes same|different NAME: polls (up to 15 s) until the screen is (is not) the first one.
screen_becomes() {
    local i flag=--max-mean
    [ "$1" = different ] && flag=--expect-different
    for i in $(seq "$(scaled 60)"); do
        control "{\"cmd\":\"screenshot\",\"path\":\"$WORK/$2.png\"}" >/dev/null || return 1
        if [ "$1" = same ]; then same_as "$WORK/ref.png" "$WORK/$2.png" >/dev/null && return 0
        else python3 "$here/display/compare.py" "$WORK/ref.png" "$WORK/$2.png" --expect-different --min-mean 0.5 >/dev/null && return 0; fi
        sleep 0.25
    done
    same_as "$WORK/ref.png" "$WORK/$2.png"
    return 1
}
# A picture of a carousel, not a blank screen: many colours (photos, text, shading).
not_blank() {
    python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); from compare import read_png
w, h, px = read_png(sys.argv[2]); n = len({p for r in px for p in r}); print(f"{n} colours"); sys.exit(0 if n > 50 else 1)' "$here/display" "$1"
}
# The new log lines at warning level or above all say the same thing (one line per event).
only_lines_matching() { # REGEX
    ! new_log | grep -E '^<[0-4]>' | grep -vqE "$1"
}
three_items() { alive && [ "$(item_count)" = 3 ]; }
# Each step waits for one of these, with the item count the kiosk reports afterwards.
kept() { wait_for_log "$1" 10 && three_items; } # REGEX-OF-THE-LINE
picked_up() { wait_for_log "reloaded .*: 3 items" 10 && three_items; }

start_kiosk "$cfg"
check "starts with the folder's 3 pictures" wait_for_log 'running: 3 items'
check "first screenshot" shot "$WORK/ref.png"
check "the first screenshot shows the carousel (not blank)" not_blank "$WORK/ref.png"

# 1. Emptied: every file removed. The kiosk keeps the carousel it shows.
mark_log
rm -f "$media"/*
check "emptied: running configuration kept, still 3 items" kept "kept the running configuration: .* has no items"
check "emptied: the log says the folder has no items (and nothing else)" only_lines_matching "has no items"
check "emptied: the screen still shows the carousel as before" screen_same emptied

# 2. Refilled in place (cp): picked up again.
mark_log
fill_media
check "refilled: the 3 pictures are items again" picked_up

# 3. The folder moved away, then back.
mark_log
mv "$media" "$WORK/media.away"
check "moved away: running configuration kept, still 3 items" kept "kept the running configuration"
check "moved away: one log line says the folder does not exist (and nothing else)" only_lines_matching "kept the running configuration: .*config.toml:[0-9]+:[0-9]+: 'directory' folder \"media\" .* does not exist"
check "moved away: the screen still shows the carousel" screen_same away
mark_log
mv "$WORK/media.away" "$media"
check "moved back: picked up again" picked_up

# 4. Deleted with the folder, then a new folder made and filled (a new inode to watch).
mark_log
rm -rf "$media"
check "folder deleted: running configuration kept" kept "kept the running configuration"
mark_log
fill_media
check "folder made again and filled: picked up again" picked_up
check "the screen shows the same carousel as at the start" screen_becomes same again

# 5. One picture replaced by garbage in place, then by a truncated copy (atomic rename), then
#    restored: the card shows its error face and says so once, and the picture comes back.
mark_log
head -c 3000 /dev/urandom >"$media/06-desert-dunes.png"
check "garbage picture: one log line names the file" wait_for_log "cannot show .*06-desert-dunes.png" 10
check "garbage picture: still running with 3 items" three_items
check "garbage picture: the card shows something else (its error face)" screen_becomes different garbage
mark_log
head -c 1500 "$media_src/06-desert-dunes.png" >"$WORK/trunc.png"; mv "$WORK/trunc.png" "$media/06-desert-dunes.png"
check "truncated picture (renamed over): one log line names the file" wait_for_log "cannot show .*06-desert-dunes.png" 10
check "truncated picture: still running" alive
mark_log
cp "$media_src/06-desert-dunes.png" "$WORK/good.png"; mv "$WORK/good.png" "$media/06-desert-dunes.png"
check "restored picture: drawn again (screen equal to the first one)" screen_becomes same restored
check "no crash, no restart: the same process all along" alive

# 6. SIGTERM: clean exit.
mark_log
kill -TERM "$KIOSK_PID"
wait_exit 10
check "SIGTERM: exit status 0 (was $EXIT_RC)" [ "$EXIT_RC" -eq 0 ]

# 7. Started with an empty folder: an empty carousel, filled when the first picture comes.
rm -f "$media"/*
start_kiosk "$cfg"
LOG_MARK=0    # a new log
check "empty folder at start: runs with 0 items" wait_for_log 'running: 0 items'
mark_log
cp "$media_src/icon-info.svg" "$media/"
check "empty folder at start: the first picture becomes an item" wait_for_log "reloaded .*: 1 items" 10
kill -TERM "$KIOSK_PID"
wait_exit 10
check "SIGTERM: exit status 0 (was $EXIT_RC)" [ "$EXIT_RC" -eq 0 ]
finish
