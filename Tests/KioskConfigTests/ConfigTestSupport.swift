import Foundation
import XCTest
@testable import KioskConfig

/// A scratch folder holding a config file and the files it refers to; removed by `tearDown`.
final class ConfigFixture {
    let folder: String

    init() {
        folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("kioskconfig-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes `contents` to `relative` inside the folder (creating folders) and returns its path.
    @discardableResult
    func write(_ relative: String, _ contents: String = "x", executable: Bool = false) -> String {
        let path = (folder as NSString).appendingPathComponent(relative)
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
        if executable { chmod(path, 0o755) }
        return path
    }

    /// Writes `text` as `config.toml` and loads it.
    func load(_ text: String, name: String = "config.toml") throws -> KioskConfiguration {
        try ConfigLoader.load(path: write(name, text))
    }

    /// Writes `text` as `config.toml` and returns every problem (empty when it loads).
    func problems(_ text: String, name: String = "config.toml") -> [ConfigDiagnostic] {
        do {
            _ = try load(text, name: name)
            return []
        } catch let e as ConfigErrors {
            return e.diagnostics
        } catch {
            XCTFail("unexpected error \(error)")
            return []
        }
    }

    /// The problems as `LINE:COLUMN: message`, without the folder.
    func report(_ text: String) -> [String] {
        problems(text).map { "\($0.line):\($0.column): \($0.message)" }
    }
}

/// The repository's root, found from this file's place.
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()
