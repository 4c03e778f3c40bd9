import Foundation
import XCTest

/// `Sources/RasterKernelsAVX2`, `Sources/RasterKernelsV2` and `Sources/RasterKernelsNEON` are the same code as
/// `Sources/RasterKernels`, built for x86-64-v3, x86-64-v2 and AArch64 NEON: each of their files is a
/// symbolic link to the file of the same name there (docs/compositor.md). A file added to one
/// folder and not linked in another would leave that build silently different (or failing only
/// on x86-64); this test fails instead.
final class KernelSourceLinksTests: XCTestCase {
    private let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// The folders of the other builds of the loops.
    private let builds = ["RasterKernelsAVX2", "RasterKernelsV2", "RasterKernelsNEON"]

    private func swiftFiles(_ folder: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".swift") })
    }

    func testEveryKernelModuleLinksEveryKernelSourceAndNothingElse() throws {
        let kernels = try swiftFiles("RasterKernels")
        XCTAssertFalse(kernels.isEmpty, "found the kernel sources at \(sources.path)")
        for build in builds {
            let linked = try swiftFiles(build)
            XCTAssertEqual(kernels.subtracting(linked).sorted(), [],
                           "not linked in Sources/\(build): add `ln -s ../RasterKernels/NAME.swift Sources/\(build)/`")
            XCTAssertEqual(linked.subtracting(kernels).sorted(), [],
                           "in Sources/\(build) only: every build must be the same code as the baseline one")
            for name in linked.intersection(kernels).sorted() {
                let link = sources.appendingPathComponent("\(build)/\(name)").path
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link)
                XCTAssertEqual(target, "../RasterKernels/\(name)", "\(link) is a symbolic link to ../RasterKernels/\(name)")
            }
        }
    }
}
