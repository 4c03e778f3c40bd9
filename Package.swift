// swift-tools-version:5.9
// KioskCarousel: a full-screen carousel a Linux kiosk boots into.
// Module map and data flow: docs/ARCHITECTURE.md.
import PackageDescription

/// A C library from a Debian `-dev` package, seen through pkg-config.
func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/C/\(name)", pkgConfig: pkgConfig,
                   providers: [.apt([apt])])
}

/// The compositor's loops (docs/compositor.md): built once for the target's baseline
/// instruction set and, on x86-64, twice more, for x86-64-v3 (AVX2) and x86-64-v2 (SSSE3,
/// SSE4.1/4.2, POPCNT), of which `Compositor` picks the best the CPU has at run time; on AArch64
/// once more with NEON shims. `Sources/RasterKernelsAVX2`, `Sources/RasterKernelsV2` and
/// `Sources/RasterKernelsNEON` link to the same source files.
var rasterKernels: [Target] = [
    .target(name: "RasterKernels", dependencies: ["CarouselCore", "RasterCore", "CRasterSupport"]),
]
var rasterKernelModules: [Target.Dependency] = ["RasterKernels"]

/// The architecture the build is *for*. `#if arch(...)` in a manifest tests the machine that runs
/// the manifest (the build machine), not the target, and the manifest cannot see `--triple` or
/// `--destination`: a cross build from x86-64 to aarch64 would add the AVX2 target with haswell
/// flags and fail. So a cross build names its target in `KIOSK_TARGET_ARCH` (`aarch64`, set by
/// scripts/arm64/cross-build.sh; docs/arm64.md); without it, the build machine's architecture.
let targetArch: String = {
    if let arch = Context.environment["KIOSK_TARGET_ARCH"], !arch.isEmpty { return arch }
    #if arch(x86_64)
    return "x86_64"
    #elseif arch(arm64)
    return "aarch64"
    #else
    return "unknown"
    #endif
}()
if targetArch == "x86_64" {
    rasterKernels.append(.target(
        name: "RasterKernelsAVX2", dependencies: ["CarouselCore", "RasterCore", "CRasterSupport"],
        swiftSettings: [.define("RASTER_KERNELS_AVX2"),
                        .unsafeFlags(["-target-cpu", "haswell", "-Xcc", "-march=haswell"])]))
    rasterKernelModules.append("RasterKernelsAVX2")
    rasterKernels.append(.target(
        name: "RasterKernelsV2", dependencies: ["CarouselCore", "RasterCore", "CRasterSupport"],
        // `-target-cpu` takes LLVM CPU names only: Nehalem's features are x86-64-v2's.
        swiftSettings: [.define("RASTER_KERNELS_V2"),
                        .unsafeFlags(["-target-cpu", "nehalem", "-Xcc", "-march=x86-64-v2"])]))
    rasterKernelModules.append("RasterKernelsV2")
} else if targetArch == "aarch64" {
    // AArch64: the same loops once more with the NEON counterparts of the AVX2 build's byte
    // shuffles and byte multiply-adds (`Sources/C/CRasterSupport/neon/CRasterSupportNEON.h`, `RASTER_KERNELS_NEON`), chosen
    // at run time as `neon`; `RasterKernels` stays the portable build to compare with
    // (docs/arm64.md). NEON is part of the AArch64 baseline: no CPU check is needed.
    rasterKernels.append(.target(
        name: "RasterKernelsNEON", dependencies: ["CarouselCore", "RasterCore", "CRasterSupport"],
        swiftSettings: [.define("RASTER_KERNELS_NEON"), .unsafeFlags(["-Xcc", "-DRASTER_KERNELS_NEON"])]))
    rasterKernelModules.append("RasterKernelsNEON")
}

let package = Package(
    name: "KioskCarousel",
    products: [
        .executable(name: "kiosk-carousel", targets: ["kiosk-carousel"]),
        // The modules as a library, for the separate fuzzing package in Fuzz/ (docs/reliability.md).
        .library(name: "KioskCarouselModules", targets: ["CarouselCore", "JSON", "KioskConfig", "Raster", "Video", "Cards",
                                                        "Display", "Input", "Kiosk", "Audio"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // C libraries (Debian -dev packages; scripts/install-deps.sh installs them).
        systemLibrary("CZlib", pkgConfig: "zlib", apt: "zlib1g-dev"),
        systemLibrary("CDRM", pkgConfig: "libdrm", apt: "libdrm-dev"),
        systemLibrary("CUdev", pkgConfig: "libudev", apt: "libudev-dev"),
        systemLibrary("CLibInput", pkgConfig: "libinput", apt: "libinput-dev"),
        systemLibrary("CEvdev", pkgConfig: "libevdev", apt: "libevdev-dev"),
        // cairo, pango, librsvg's declarations, libjpeg-turbo, libpng, libwebp in one module (cairo.h
        // seen once). Their functions are CCardLibsLoader's and CRsvgLoader's (opened with dlopen);
        // pkg-config's link lines remain for a plain `swift build` (the package's build gives
        // headers-only .pc files instead: debian/rules).
        systemLibrary("CCardLibs", pkgConfig: "pangocairo", apt: "libpango1.0-dev"),
        // FFmpeg's headers (libavformat, libavcodec, libswscale, libswresample, libavutil) in one
        // module, found in the default include path (/usr/include/<triplet>, also in a sysroot).
        // No pkg-config and no link lines: the program does not link FFmpeg; CFFmpegLoader opens
        // it when the first video needs it (docs/video.md, "FFmpeg loaded on demand").
        .systemLibrary(name: "CFFmpeg", path: "Sources/C/CFFmpeg", providers: [.apt(["libavformat-dev", "libavcodec-dev",
                                                                                  "libswscale-dev", "libswresample-dev"])]),
        // espeak-ng's header: text to speech, offline (issue 30; docs/accessibility.md). No
        // pkg-config and no link line (<espeak-ng/speak_lib.h> is in the default include path):
        // CESpeakNGLoader opens the library when the kiosk first speaks.
        .systemLibrary(name: "CESpeakNG", path: "Sources/C/CESpeakNG", providers: [.apt(["libespeak-ng-dev"])]),
        // ALSA's PCM API: the kiosk's sound output (Sources/Audio).
        systemLibrary("CALSA", pkgConfig: "alsa", apt: "libasound2-dev"),
        // Non-variadic wrappers for ioctl (fbdev requests, drmHandleEvent) that Swift cannot call.
        .target(name: "CKioskSys", dependencies: ["CDRM"], path: "Sources/C/CKioskSys"),

        // The Linux headers `LinuxSystem` wraps, non-variadic `ioctl`/`open`/`fcntl`, `mount`/`umount2`.
        .target(name: "CLinux", path: "Sources/C/CLinux"),
        // Frees what toml++'s C bridge (TOMLKit's CTOML) cannot: an emptied document (TOMLNode.parse).
        .target(name: "CTOMLShell", path: "Sources/C/CTOMLShell"),
        // The Linux primitives every loop is built on: epoll, timerfd, signalfd, eventfd, inotify,
        // the monotonic clock, `SystemCallError` and the EINTR policy.
        .target(name: "LinuxSystem", dependencies: ["CLinux"]),

        // Pure Swift: geometry, layouts, physics, engine, gestures.
        .target(name: "CarouselCore"),
        // Pure Swift: the strict JSON reader, `JSONValue` and the JSON string encoder, for the
        // input scripts (Input) and the control socket and events stream (Kiosk).
        .target(name: "JSON"),
        .target(name: "KioskConfig", dependencies: [
            "CarouselCore", "LinuxSystem", "CTOMLShell", .product(name: "TOMLKit", package: "TOMLKit"),
        ]),
        // Header-only helpers for Raster's hot loops (prefetch); no library behind it.
        .target(name: "CRasterSupport", path: "Sources/C/CRasterSupport"),
        // Canvas, Texture, Quad, Backdrop: what the compositor and its kernel modules share.
        .target(name: "RasterCore", dependencies: ["CarouselCore", "CRasterSupport"]),
        .target(name: "Raster", dependencies: ["CarouselCore", "RasterCore", "CRasterSupport"] + rasterKernelModules),
        // YUV 4:2:0 to BGRA, scaled down, in one pass (a video frame into a card's picture; docs/video.md).
        .target(name: "CVideoConvert", path: "Sources/C/CVideoConvert"),
        // Libraries opened with dlopen at their first use, not at the program's start: the set, its
        // load and the definitions each loader makes from its list of functions (docs/start-up.md,
        // "Libraries opened on demand").
        .target(name: "CLibraryLoader", path: "Sources/C/CLibraryLoader"),
        // FFmpeg's functions that Video calls, each jumping into the library opened with dlopen at
        // the first use (include/ffmpeg_loader.h).
        .target(name: "CFFmpegLoader", dependencies: ["CLibraryLoader"], path: "Sources/C/CFFmpegLoader"),
        // librsvg's functions that Cards calls (their declarations: CCardLibs' rsvg_api.h), opened
        // when the first SVG is drawn or checked (include/rsvg_loader.h).
        .target(name: "CRsvgLoader", dependencies: ["CLibraryLoader", "CCardLibs"], path: "Sources/C/CRsvgLoader"),
        // espeak-ng's functions that Speech calls, opened when the kiosk first speaks
        // (include/espeak_ng_loader.h).
        .target(name: "CESpeakNGLoader", dependencies: ["CLibraryLoader", "CESpeakNG"], path: "Sources/C/CESpeakNGLoader"),
        // cairo, pango, fontconfig, GLib, GObject, GIO and the picture decoders; libinput and
        // libevdev; libasound: the functions Cards, Input and Audio call, opened by `run`'s
        // libraries' thread or at the first call (docs/start-up.md, "The drawing libraries behind
        // the start"). The package's binary does not link them (debian/rules).
        .target(name: "CCardLibsLoader", dependencies: ["CLibraryLoader", "CCardLibs"], path: "Sources/C/CCardLibsLoader"),
        .target(name: "CInputLibsLoader", dependencies: ["CLibraryLoader", "CLibInput", "CEvdev"], path: "Sources/C/CInputLibsLoader"),
        .target(name: "CALSALoader", dependencies: ["CLibraryLoader", "CALSA"], path: "Sources/C/CALSALoader"),
        // Video files through FFmpeg: probe, poster frame, a decoder scaled to a card, a player thread.
        .target(name: "Video", dependencies: ["CFFmpeg", "CFFmpegLoader", "CVideoConvert", "RasterCore", "LinuxSystem",
                                              .product(name: "Logging", package: "swift-log")]),
        // Sound: the mixer (soundtrack, speech, ducking), the ALSA output thread, the WAV file of
        // `simulate --audio-out` (docs/accessibility.md "Sound").
        .target(name: "Audio", dependencies: ["CALSA", "CALSALoader", "LinuxSystem", .product(name: "Logging", package: "swift-log")]),
        // Text to speech: espeak-ng to PCM in memory, on a thread of its own (docs/accessibility.md).
        .target(name: "Speech", dependencies: ["Audio", "CESpeakNG", "CESpeakNGLoader", "LinuxSystem",
                                               .product(name: "Logging", package: "swift-log")]),
        .target(name: "Cards", dependencies: ["CarouselCore", "Raster", "KioskConfig", "CCardLibs", "CCardLibsLoader", "CRsvgLoader", "LinuxSystem", "Video",
                                              .product(name: "Logging", package: "swift-log")]),
        .target(name: "Display", dependencies: ["CarouselCore", "Raster", "CDRM", "CUdev", "CZlib", "CKioskSys", "LinuxSystem",
                                                .product(name: "Logging", package: "swift-log")]),
        .target(name: "Input", dependencies: ["CarouselCore", "JSON", "CLibInput", "CEvdev", "CInputLibsLoader", "CUdev", "CLinux",
                                              "LinuxSystem", .product(name: "Logging", package: "swift-log")]),
        .target(name: "Kiosk", dependencies: [
            "CarouselCore", "JSON", "KioskConfig", "Raster", "Cards", "Display", "Input", "LinuxSystem", "Video", "CLinux",
            "Audio", "Speech",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "kiosk-carousel", dependencies: [
            "Kiosk", "Cards", "CarouselCore", "KioskConfig", "Raster", "Display", "Input", "LinuxSystem", "Video",
            "CLinux", "CRasterSupport", "Audio", "Speech",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        .testTarget(name: "LinuxSystemTests", dependencies: ["LinuxSystem"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "CarouselCoreTests", dependencies: ["CarouselCore", "TestSupport"]),
        .testTarget(name: "KioskConfigTests", dependencies: ["KioskConfig", "CarouselCore", "LinuxSystem", "TestSupport",
                                                         .product(name: "TOMLKit", package: "TOMLKit")]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "RasterCore", "RasterKernels", "CarouselCore", "CRasterSupport", "TestSupport"]),
        .testTarget(name: "CardsTests", dependencies: ["Cards", "CCardLibs", "CarouselCore", "KioskConfig", "LinuxSystem", "Raster", "TestSupport",
                                                     .product(name: "Logging", package: "swift-log")],
                    resources: [.copy("Golden")],
                    // The tests' own WebP pictures are encoded with libwebp (the program only decodes).
                    linkerSettings: [.linkedLibrary("webp")]),
        .testTarget(name: "VideoTests", dependencies: ["Video", "CFFmpeg", "RasterCore", "LinuxSystem", "TestSupport",
                                                     .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "Audio", "LinuxSystem", "TestSupport"]),
        .testTarget(name: "AudioTests", dependencies: ["Audio", "LinuxSystem", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "DisplayTests", dependencies: ["Display", "CarouselCore", "Raster", "CDRM", "CKioskSys"]),
        .testTarget(name: "InputTests", dependencies: ["Input", "CarouselCore", "LinuxSystem", "CEvdev"]),
        .testTarget(name: "KioskTests", dependencies: ["Kiosk", "Cards", "CarouselCore", "JSON", "KioskConfig", "Raster", "Display",
                                                   "Input", "LinuxSystem", "TestSupport", "Audio", "Speech",
                                                   .product(name: "Logging", package: "swift-log")]),
        // The command line's own code (the executable's module, linked into the tests).
        .testTarget(name: "KioskCarouselTests", dependencies: ["kiosk-carousel", "Kiosk", "KioskConfig", "TestSupport",
                                                           .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // Soak, fault and fuzz-regression tests across modules (docs/reliability.md).
        .testTarget(name: "ReliabilityTests", dependencies: ["Kiosk", "JSON", "KioskConfig", "Input", "CarouselCore",
                                                       "Cards", "Display", "LinuxSystem", "TestSupport",
                                                       .product(name: "Logging", package: "swift-log")]),
        // What several test targets share: a seedable random generator, clips made with ffmpeg, a
        // log capture.
        .target(name: "TestSupport", dependencies: [.product(name: "Logging", package: "swift-log")], path: "Tests/TestSupport"),
    ] + rasterKernels
)
