# Sourced (not run) by the scripts that make Debian roots: scripts/make-image.sh, scripts/arm64/lib.sh.
#
# umount_below DIR: undoes every mount below DIR, deepest first (lazily: a busy one goes when its
# last user does). A root with the host's /dev (or a bind-mounted file) still mounted in it must
# never be deleted with rm -rf: call this first.
umount_below() {
    local m
    [ -d "$1" ] || return 0
    for m in $(awk -v d="$(realpath "$1")" '$5 ~ "^"d"/" {print $5}' /proc/self/mountinfo | sort -r); do
        umount -l "$m" 2>/dev/null || true
    done
}
