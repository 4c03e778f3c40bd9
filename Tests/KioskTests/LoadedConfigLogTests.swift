import Foundation
import KioskConfig
import TestSupport
import XCTest
@testable import Kiosk

/// What `run` says of a config it loads (at start and on each reload): check-config's warnings
/// reach the journal too, at their place.
final class LoadedConfigLogTests: XCTestCase {
    func testAWarningIsLoggedWithItsPlace() throws {
        let scratch = try ScratchFolder("LoadedConfigLog")
        defer { scratch.remove() }
        let path = try scratch.write("config.toml", """
            [update]
            url = "https://updates.example.com/kiosk.raucb"

            [[item]]
            id = "one"
            title = "One"
            """)
        let capture = LogCapture()
        KioskBehavior.logLoaded(try ConfigLoader.loadForRun(path: path), logger: capture.logger)
        let warnings = capture.messages(.warning)
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.hasPrefix("\(path):2:1: [update] url is set but there is no [control] socket") == true, "\(warnings)")

        let quiet = LogCapture()
        let fine = try scratch.write("fine.toml", "[[item]]\nid = \"one\"\ntitle = \"One\"\n")
        KioskBehavior.logLoaded(try ConfigLoader.loadForRun(path: fine), logger: quiet.logger)
        XCTAssertEqual(quiet.messages(.warning), [])
    }
}
