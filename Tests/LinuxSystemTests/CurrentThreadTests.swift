import Foundation
import XCTest
@testable import LinuxSystem

/// `CurrentThread`: a thread lowers its own priority, and only its own (Linux keeps a nice value
/// per thread): the thread that started it keeps its priority.
final class CurrentThreadTests: XCTestCase {
    func testAThreadLowersOnlyItsOwnPriority() throws {
        let before = try CurrentThread.priority()
        let done = DispatchSemaphore(value: 0)
        var seen: (before: Int32, after: Int32)?
        var failure: Error?
        let thread = Thread {
            do {
                let b = try CurrentThread.priority()
                try CurrentThread.lowerPriority(by: CurrentThread.backgroundPriority)
                seen = (b, try CurrentThread.priority())
            } catch {
                failure = error
            }
            done.signal()
        }
        thread.start()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success, "the thread did not end")
        XCTAssertNil(failure)
        let s = try XCTUnwrap(seen)
        XCTAssertEqual(s.after, min(19, s.before + CurrentThread.backgroundPriority))
        XCTAssertEqual(try CurrentThread.priority(), before, "the test's own thread keeps its priority")
    }

    func testLoweringByNothingChangesNothingAndTheNiceValueStopsAtNineteen() throws {
        let done = DispatchSemaphore(value: 0)
        var values: [Int32] = []
        var failure: Error?
        Thread {
            do {
                let start = try CurrentThread.priority()
                try CurrentThread.lowerPriority(by: 0)
                values.append(try CurrentThread.priority() - start)
                try CurrentThread.lowerPriority(by: 15)
                try CurrentThread.lowerPriority(by: 15)
                values.append(try CurrentThread.priority())
            } catch {
                failure = error
            }
            done.signal()
        }.start()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success, "the thread did not end")
        XCTAssertNil(failure)
        XCTAssertEqual(values, [0, 19])
    }
}
