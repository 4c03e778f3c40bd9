import LinuxSystem
import XCTest
@testable import Kiosk

extension KioskApp {
    /// Does what the loop does for a reload read off the loop (`ConfigReloader`): waits for the
    /// worker's eventfd and finishes the reload, until none is pending. Fails the test (naming
    /// this step) when a read has not ended within `limit` seconds.
    func finishPendingReloads(limit: Double = 60, file: StaticString = #filePath, line: UInt = #line) {
        while reloader.isBusy {
            guard waitReadable(reloader.fd, timeout: limit) else {
                XCTFail("the reload read off the loop did not end within \(limit) s", file: file, line: line)
                return
            }
            reloader.finish()
        }
    }
}
