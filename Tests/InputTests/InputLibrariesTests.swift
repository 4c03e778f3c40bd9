import XCTest
@testable import Input

/// libinput and libevdev opened with dlopen before a source's first call (docs/start-up.md, "The
/// drawing libraries behind the start"): the set opens, twice gives the first answer, and a
/// source made after it works as before.
final class InputLibrariesTests: XCTestCase {
    func testTheSetOpensOnceAndASourceStarts() throws {
        try InputLibraries.load()
        try InputLibraries.load()
        var options = InputOptions()
        options.devices = ["/dev/input/kiosk-test-none"]
        let source = try LibInputSource(options: options)
        XCTAssertFalse(source.pollDescriptors.isEmpty, "libinput's descriptor and the udev monitor's")
    }
}
