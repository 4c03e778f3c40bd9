import Glibc
import Logging
import TestSupport
import XCTest
@testable import Kiosk

/// `CECLink`'s state machine over a fake adapter: what is sent when, what waits for a logical
/// address, the TV's reported power followed, a TV that does not answer logged once.
final class CECLinkTests: XCTestCase {
    private var device: FakeCECDevice!
    private var log: LogCapture!
    private var link: CECLink!
    private var wall = 1000.0

    override func setUp() {
        device = FakeCECDevice()
        log = LogCapture()
        link = CECLink(device: device, logger: log.logger, wallClock: { [unowned self] in self.wall })
    }

    private var warnings: [String] { log.messages(.warning) }

    func testWakeAtStartWaitsForTheClaimThenTurnsTheTVOn() {
        link.start(now: 0)
        XCTAssertEqual(device.claims, 1)
        link.setPower(on: true, now: 0)
        XCTAssertEqual(device.wire, [], "nothing is sent before the adapter has a logical address")
        XCTAssertNil(link.nextDeadline)
        device.claimed(4)
        link.readable(now: 0.4)
        XCTAssertEqual(link.logicalAddress, 4)
        XCTAssertEqual(device.wire, ["4>0 04", "4>f 82 10 00", "4>0 8f"])
        XCTAssertEqual(device.sent.last?.reply, .reportPowerStatus)
        XCTAssertEqual(link.sent, 3)
    }

    func testFollowsTheReportedPowerAndAsksAgainDuringATransition() {
        link.start(now: 0)
        device.claimed(4)
        link.readable(now: 0)
        XCTAssertEqual(device.wire, ["4>0 8f"], "a new address asks the TV how it is")
        device.result(1, rx: 0x01, reply: [0x04, 0x90, 0x02])
        wall = 1005
        link.readable(now: 1)
        XCTAssertEqual(link.tvPower, .standbyToOn)
        XCTAssertEqual(link.tvPowerTime, 1005)
        XCTAssertEqual(link.nextDeadline, 1 + CECLink.transitionRecheck)
        link.deadlineReached(now: 3)
        device.result(2, rx: 0x01, reply: [0x04, 0x90, 0x00])
        link.readable(now: 3.1)
        XCTAssertEqual(link.tvPower, .on)
        XCTAssertEqual(link.nextDeadline, 3.1 + CECLink.pollInterval, "then every poll interval")
        link.deadlineReached(now: 10)
        XCTAssertEqual(device.sent.count, 2, "nothing before the deadline")
    }

    func testBlankSendsStandbyAndWakeMakesTheKioskTheActiveSource() {
        link.start(now: 0)
        device.claimed(8)
        link.readable(now: 0)
        link.setPower(on: false, now: 5)
        XCTAssertEqual(Array(device.wire.suffix(2)), ["8>0 36", "8>0 8f"])
        link.setPower(on: true, now: 9)
        XCTAssertEqual(Array(device.wire.suffix(3)), ["8>0 04", "8>f 82 10 00", "8>0 8f"])
    }

    func testATVThatDoesNotAnswerIsOneLogLine() {
        link.start(now: 0)
        device.claimed(4)
        link.readable(now: 0)
        device.result(1, tx: 0x24)            // <Give Device Power Status>: NACK
        link.readable(now: 1)
        link.setPower(on: false, now: 2)      // <Standby>, <Give Device Power Status>
        device.result(2, tx: 0x24)
        device.result(3, tx: 0x24)
        link.readable(now: 3)
        link.setPower(on: true, now: 4)       // <Image View On>, <Active Source> (broadcast: delivered), ...
        device.result(4, tx: 0x24)
        device.result(5)
        device.result(6, tx: 0x24)
        link.readable(now: 5)
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings[0].contains("did not answer <Give Device Power Status>"), warnings[0])
        XCTAssertEqual(link.failed, 5)
        XCTAssertEqual(link.tvPower, .unknown)
        // It answers again: one line says so.
        link.deadlineReached(now: 70)
        device.result(7, rx: 0x01, reply: [0x04, 0x90, 0x01])
        link.readable(now: 70.5)
        XCTAssertEqual(link.tvPower, .standby)
        XCTAssertTrue(log.messages(.notice).contains { $0.contains("the TV answers again") })
    }

    func testNoPhysicalAddressWaitsWithOneLineAndSendsOnceATVIsPluggedIn() {
        device.info.physicalAddress = nil
        link.start(now: 0)
        XCTAssertEqual(log.messages(.notice).filter { $0.contains("has no physical address") }.count, 1, "said at start")
        device.events.append(.stateChanged(physicalAddress: nil, logicalAddressMask: 0))
        link.readable(now: 0)
        link.setPower(on: false, now: 1)
        link.setPower(on: true, now: 2)
        XCTAssertEqual(device.wire, [])
        XCTAssertEqual(log.messages(.notice).filter { $0.contains("has no physical address") }.count, 1)
        device.events.append(.stateChanged(physicalAddress: PhysicalAddress(0x3000), logicalAddressMask: 1 << 4))
        link.readable(now: 3)
        XCTAssertEqual(device.wire, ["4>0 04", "4>f 82 30 00", "4>0 8f"], "only the last wish, with the new address")
    }

    func testAnAdapterConfiguredAlreadyIsUsedAsItIs() {
        device.info.configuredCount = 1
        device.info.logicalAddressMask = 1 << 11
        link.start(now: 0)
        XCTAssertEqual(device.claims, 0)
        XCTAssertEqual(link.logicalAddress, 11)
        XCTAssertEqual(device.wire, ["b>0 8f"])
    }

    func testTransmitErrorsCarryErrnoAndNeverStopTheLink() {
        link.start(now: 0)
        device.claimed(4)
        link.readable(now: 0)
        device.transmitErrno = EBUSY
        link.setPower(on: false, now: 1)
        XCTAssertEqual(link.failed, 2)
        XCTAssertTrue(warnings.allSatisfy { $0.contains("CEC_TRANSMIT") && $0.contains(String(cString: strerror(EBUSY))) }, "\(warnings)")
        XCTAssertFalse(link.isGone)
        // The address went (TV unplugged): the wish is sent again once the adapter has one.
        device.transmitErrno = ENONET
        link.setPower(on: true, now: 2)
        XCTAssertNil(link.logicalAddress)
        device.transmitErrno = nil
        device.claimed(4)
        link.readable(now: 3)
        XCTAssertEqual(Array(device.wire.suffix(3)), ["4>0 04", "4>f 82 10 00", "4>0 8f"])
        // The adapter went away: one error line, nothing more.
        device.transmitErrno = ENODEV
        link.setPower(on: false, now: 4)
        XCTAssertTrue(link.isGone)
        XCTAssertEqual(log.messages(.error).count, 1)
        XCTAssertNil(link.nextDeadline)
    }
}
