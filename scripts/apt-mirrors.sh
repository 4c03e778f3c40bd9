# Sourced (not run) by the scripts that make Debian roots (scripts/make-image.sh,
# scripts/check-deb.sh, scripts/arm64/lib.sh): the Debian mirrors this machine's apt uses, read
# from apt itself, so that the one-line /etc/apt/sources.list (what Debian's installer,
# debootstrap and mmdebstrap write) and deb822 /etc/apt/sources.list.d/*.sources alike are
# understood. Each function prints the URI without its trailing slash, or nothing; it never fails
# (callers run under set -e and pipefail, where a failing command substitution ends the script
# without a word).

# apt_repositories: "URI SUITE" for every repository apt is configured with.
apt_repositories() {
    { apt-get indextargets --no-release-info --format '$(REPO_URI) $(RELEASE)' 2>/dev/null || true; } | sort -u
}

# apt_mirror_for SUITE: the URI of the repository that serves SUITE (e.g. bookworm,
# bookworm-security); nothing when none does.
apt_mirror_for() {
    apt_repositories | awk -v s="$1" '$2 == s && !found { sub(/\/$/, "", $1); print $1; found = 1 }'
}

# This machine's Debian release (bookworm, trixie, …).
apt_host_codename() { (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") || true; }

# apt_first_mirror AWK-CONDITION: the first repository whose suite ($2) meets the condition.
apt_first_mirror() {
    apt_repositories | awk "$1"' && !found { sub(/\/$/, "", $1); print $1; found = 1 }'
}

# debian_mirror / debian_security_mirror: the archive and the security archive this machine
# uses for its own release (by its code name; else the first that serves a release, or
# security updates, under another name such as "stable").
debian_mirror() {
    local m; m=$(apt_mirror_for "$(apt_host_codename)")
    [ -n "$m" ] || m=$(apt_first_mirror '$2 !~ /-(security|updates|backports|proposed-updates)$/')
    echo "$m"
}
debian_security_mirror() {
    local m; m=$(apt_mirror_for "$(apt_host_codename)-security")
    [ -n "$m" ] || m=$(apt_first_mirror '$2 ~ /-security$/')
    echo "$m"
}
