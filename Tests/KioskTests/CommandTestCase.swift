import TestSupport
import XCTest

/// A test of the `kiosk-carousel` binary as a person runs it: each test gets a scratch folder
/// with `config.toml` written from `configText`.
class CommandTestCase: XCTestCase {
    var scratch: ScratchFolder!
    var folder: String { scratch.path }
    var config = ""

    /// The config file's text.
    var configText: String { "" }

    override func setUpWithError() throws {
        scratch = try ScratchFolder(String(describing: type(of: self)))
        config = try scratch.write("config.toml", configText)
    }

    override func tearDown() { scratch?.remove() }
}
