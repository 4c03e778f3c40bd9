#!/usr/bin/env bash
# DRM backend on bochs-drm (scans out VRAM directly; no DirtyFB needed) at 1024x768 and 800x480.
source "$(dirname "$0")/display/lib.sh"
source "$here/drm-frames.sh"
drm_frames bochs
finish
