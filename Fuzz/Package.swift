// swift-tools-version:5.9
// libFuzzer harnesses for KioskCarousel, kept out of the main package so that `swift build` and
// `swift test` stay fast and need no sanitizer runtimes. Built and run by scripts/fuzz.sh, which
// passes `-sanitize=fuzzer,address -parse-as-library` (docs/reliability.md).
import PackageDescription

/// One libFuzzer executable: `Sources/NAME/main.swift` defines `LLVMFuzzerTestOneInput`.
func harness(_ name: String) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport",
                                                 .product(name: "KioskCarouselModules", package: "KioskCarousel")])
}

let package = Package(
    name: "KioskCarouselFuzz",
    dependencies: [.package(name: "KioskCarousel", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
        harness("FuzzConfig"),
        harness("FuzzInputScript"),
        harness("FuzzControlCommand"),
        harness("FuzzRasterImage"),
        harness("FuzzSVG"),
        harness("FuzzCompositor"),
    ]
)
