// FFmpeg's libraries opened when the first video needs them, not at the program's start
// (docs/video.md, "FFmpeg loaded on demand"; docs/start-up.md). The program does not link
// libavformat, libavcodec, libavutil, libswscale and libswresample: ffmpeg_loader.c defines the
// FFmpeg functions the program calls, each of which jumps to the library's own, found with
// dlopen/dlsym by the libraries' sonames (from the headers the program was built with).
#ifndef KIOSK_FFMPEG_LOADER_H
#define KIOSK_FFMPEG_LOADER_H
#include <stddef.h>

/// Opens the five libraries and finds every function (once; later calls return the first
/// answer). 0 on success; -1 with the loader's words (the library or function that is missing)
/// in `error`.
int kc_ffmpeg_load(char *error, size_t size);

/// The sonames opened, in order, `libavutil.so.57 libswresample.so.4 …`, for messages.
const char *kc_ffmpeg_sonames(void);

#endif
