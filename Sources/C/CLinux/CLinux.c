// The header holds the inline shims (include/CLinux.h); the mount shims are in mount.c.
