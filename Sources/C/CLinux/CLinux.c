// Header-only: see include/CLinux.h.
