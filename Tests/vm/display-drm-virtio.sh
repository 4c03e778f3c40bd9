#!/usr/bin/env bash
# DRM backend on virtio-gpu (shows nothing without a flip or DirtyFB) at 1024x768 and 800x480.
source "$(dirname "$0")/display/lib.sh"
source "$here/drm-frames.sh"
drm_frames virtio
finish
