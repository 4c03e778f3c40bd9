import Foundation
@testable import LinuxSystem
import XCTest

/// `ThreadAccounting`: the calling thread's CPU time, run-queue wait and disk page faults, and
/// how a stretch of wall time is split among them.
final class ThreadAccountingTests: XCTestCase {
    func testSchedstatTextGivesTheRunQueueWait() {
        XCTAssertEqual(try XCTUnwrap(ThreadAccounting.runQueueWait(schedstat: "1520330 250000000 12\n")), 0.25, accuracy: 1e-12)
        XCTAssertNil(ThreadAccounting.runQueueWait(schedstat: "0 0 0\n"), "a kernel that does not count writes zeros")
        XCTAssertNil(ThreadAccounting.runQueueWait(schedstat: ""))
        XCTAssertNil(ThreadAccounting.runQueueWait(schedstat: "12 x 3\n"))
        XCTAssertNil(ThreadAccounting.runQueueWait(schedstat: "1 2\n"))
    }

    func testCPUTimeGrowsWithWorkAndNotWithSleep() {
        // Spinning until the reading has grown by 30 ms, within 30 s of wall time: a fixed stretch
        // of wall time is not a fixed amount of CPU on a loaded host (CI's arm64 run under
        // qemu-user at load 8 had 4 ms of CPU in 50 ms of spinning). A reading that does not grow
        // with work fails here; one that grows with wall time fails the sleep below.
        let before = ThreadAccounting.current()
        var x: UInt64 = 1
        let start = MonotonicClock.now()
        var busy = before
        while busy.since(before).cpu < 0.03 && MonotonicClock.now() - start < 30 {
            for i in 0..<10_000 { x = x &* 6364136223846793005 &+ UInt64(i) }
            busy = ThreadAccounting.current()
        }
        usleep(100_000)
        let slept = ThreadAccounting.current().since(busy)
        XCTAssertNotEqual(x, 0)
        XCTAssertGreaterThanOrEqual(busy.since(before).cpu, 0.03, "spinning shows as CPU time (30 ms of it within 30 s)")
        XCTAssertLessThan(slept.cpu, 0.05, "100 ms of sleep is not CPU time")
        XCTAssertGreaterThanOrEqual(slept.majorFaults, 0)
    }

    func testTouchingFreshPagesCountsAsFaultsWithoutTheDisk() throws {
        let pages = 1024, size = pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        let memory = try XCTUnwrap(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        XCTAssertNotEqual(memory, MAP_FAILED)
        defer { munmap(memory, size) }
        let before = ThreadAccounting.current()
        let bytes = memory.assumingMemoryBound(to: UInt8.self)
        for page in 0..<pages { bytes[page * size / pages] = 1 }
        let touched = ThreadAccounting.current().since(before)
        XCTAssertGreaterThanOrEqual(touched.minorFaults, pages / 2, "each fresh page is a fault (or one of a huge page's)")
        XCTAssertEqual(touched.majorFaults, 0, "zeroed pages are not read from a disk")
    }

    func testDifferencesAndTheirDescription() {
        let a = ThreadAccounting(cpu: 0.5, runQueueWait: 0.25, majorFaults: 10, minorFaults: 100)
        let b = ThreadAccounting(cpu: 1.0, runQueueWait: 0.5, majorFaults: 11, minorFaults: 1100)
        XCTAssertEqual(b.since(a), ThreadAccounting(cpu: 0.5, runQueueWait: 0.25, majorFaults: 1, minorFaults: 1000))
        XCTAssertNil(b.since(ThreadAccounting(cpu: 0.1, runQueueWait: nil, majorFaults: 0)).runQueueWait,
                     "a wait is known only when both readings have it")
        XCTAssertEqual(b.since(a).describe(over: 1.0), "0.50 s on a CPU, 0.25 s waiting for one, 0.25 s blocked (1 page read, 1000 other faults)")
        XCTAssertEqual(ThreadAccounting(cpu: 0.41, runQueueWait: nil, majorFaults: 212).describe(over: 1.05),
                       "0.41 s on a CPU, 0.64 s off it (212 page reads, 0 other faults)")
        XCTAssertEqual(ThreadAccounting(cpu: 0.6, runQueueWait: 0.5, majorFaults: 0).describe(over: 1.0),
                       "0.60 s on a CPU, 0.50 s waiting for one, 0.00 s blocked (0 page reads, 0 other faults)",
                       "readings taken apart from the wall clock never make a negative time")
    }
}
