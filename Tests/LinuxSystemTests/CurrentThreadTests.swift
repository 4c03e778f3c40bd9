import Foundation
import XCTest
@testable import LinuxSystem

/// `CurrentThread`: a thread lowers its own priority, and only its own (Linux keeps a nice value
/// per thread): the thread that started it keeps its priority.
final class CurrentThreadTests: XCTestCase {
    func testAThreadLowersOnlyItsOwnPriority() throws {
        let before = try CurrentThread.priority()
        let seen = try onANewThread { () throws -> (before: Int32, after: Int32) in
            let b = try CurrentThread.priority()
            try CurrentThread.lowerPriority(by: CurrentThread.backgroundPriority)
            return (b, try CurrentThread.priority())
        }
        XCTAssertEqual(seen.after, min(19, seen.before + CurrentThread.backgroundPriority))
        XCTAssertEqual(try CurrentThread.priority(), before, "the test's own thread keeps its priority")
    }

    func testLoweringByNothingChangesNothingAndTheNiceValueStopsAtNineteen() throws {
        let values = try onANewThread { () throws -> [Int32] in
            let start = try CurrentThread.priority()
            try CurrentThread.lowerPriority(by: 0)
            let unchanged = try CurrentThread.priority() - start
            try CurrentThread.lowerPriority(by: 15)
            try CurrentThread.lowerPriority(by: 15)
            return [unchanged, try CurrentThread.priority()]
        }
        XCTAssertEqual(values, [0, 19])
    }

    /// What `body` returns or throws on a thread of its own (waited for; the thread ends with it).
    private func onANewThread<T>(_ body: @escaping () throws -> T) throws -> T {
        let outcome = ThreadOutcome<T>()
        let done = DispatchSemaphore(value: 0)
        Thread {
            outcome.result = Result { try body() }
            done.signal()
        }.start()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success, "the thread did not end")
        return try XCTUnwrap(outcome.result).get()
    }
}

/// What a test's thread returned or threw, read after it signalled its end.
private final class ThreadOutcome<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
