@testable import Audio
import XCTest

/// libasound opened with dlopen at the first sound device (docs/start-up.md, "The drawing
/// libraries behind the start"): it opens once, and a device that cannot be opened is still an
/// error naming it, libasound open or not.
final class SoundLibraryTests: XCTestCase {
    func testItOpensOnceAndADeviceErrorNamesTheDevice() throws {
        try SoundLibrary.load(for: "default")
        try SoundLibrary.load(for: "default")
        XCTAssertThrowsError(try PCM(device: "kiosk_test_no_such_pcm")) { error in
            XCTAssertTrue("\(error)".contains("kiosk_test_no_such_pcm"), "\(error)")
        }
    }

    func testAMissingLibrarySaysWhichDeviceWentWithoutSound() {
        let missing = SoundLibraryMissing(device: "hw:1,0", reason: "libasound.so.2 could not be loaded: libasound.so.2: cannot open shared object file")
        XCTAssertEqual(missing.description,
                       "ALSA device \"hw:1,0\": libasound.so.2 could not be loaded: libasound.so.2: cannot open shared object file")
    }
}
