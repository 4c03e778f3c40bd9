import Foundation
import XCTest

/// A test case with a folder of its own for each test: a config file (`path`) and whatever it
/// names go there, and the folder is removed after the test.
class ConfigFolderTestCase: XCTestCase {
    /// The folder, new for each test (`PREFIX-UUID` in the temporary folder).
    var folder: String!
    /// `config.toml` in `folder`.
    var path: String { folder + "/config.toml" }
    /// The start of the folder's name, so that a folder left behind says which tests made it.
    var folderPrefix: String { "kiosk-test" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = NSTemporaryDirectory() + "\(folderPrefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
        super.tearDown()
    }
}
