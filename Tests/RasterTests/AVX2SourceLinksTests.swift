import Foundation
import XCTest

/// `Sources/RasterKernelsAVX2` is the same code as `Sources/RasterKernels`, built for
/// x86-64-v3: each of its files is a symbolic link to the file of the same name there
/// (docs/compositor.md). A file added to one folder and not linked in the other would leave the
/// AVX2 build silently different (or failing only on x86-64); this test fails instead.
final class AVX2SourceLinksTests: XCTestCase {
    private let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    private func swiftFiles(_ folder: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".swift") })
    }

    func testTheAVX2ModuleLinksEveryKernelSourceAndNothingElse() throws {
        let kernels = try swiftFiles("RasterKernels"), avx2 = try swiftFiles("RasterKernelsAVX2")
        XCTAssertFalse(kernels.isEmpty, "found the kernel sources at \(sources.path)")
        XCTAssertEqual(kernels.subtracting(avx2).sorted(), [],
                       "not linked in Sources/RasterKernelsAVX2: add `ln -s ../RasterKernels/NAME.swift Sources/RasterKernelsAVX2/`")
        XCTAssertEqual(avx2.subtracting(kernels).sorted(), [],
                       "in Sources/RasterKernelsAVX2 only: the AVX2 build must be the same code as the baseline one")
        for name in avx2.intersection(kernels).sorted() {
            let link = sources.appendingPathComponent("RasterKernelsAVX2/\(name)").path
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link)
            XCTAssertEqual(target, "../RasterKernels/\(name)", "\(link) is a symbolic link to ../RasterKernels/\(name)")
        }
    }
}
