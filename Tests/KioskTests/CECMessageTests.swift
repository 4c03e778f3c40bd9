import XCTest
@testable import Kiosk

/// The HDMI-CEC messages the kiosk sends and reads, byte for byte (CEC 1.4 §CEC 10, 13).
final class CECMessageTests: XCTestCase {
    func testWhatTheKioskSendsOnTheBus() {
        XCTAssertEqual(CECMessage.standby(from: 4).bytes, [0x40, 0x36])
        XCTAssertEqual(CECMessage.imageViewOn(from: 4).bytes, [0x40, 0x04])
        XCTAssertEqual(CECMessage.activeSource(from: 4, physicalAddress: PhysicalAddress(0x1200)!).bytes, [0x4F, 0x82, 0x12, 0x00])
        XCTAssertEqual(CECMessage.giveDevicePowerStatus(from: 8).bytes, [0x80, 0x8F])
    }

    func testParsesAReportPowerStatus() {
        let m = CECMessage(bytes: [0x04, 0x90, 0x02])
        XCTAssertEqual(m?.initiator, 0)
        XCTAssertEqual(m?.destination, 4)
        XCTAssertEqual(m?.reportedPowerStatus, .standbyToOn)
        XCTAssertEqual(CECMessage(bytes: [0x04, 0x90, 0x00])?.reportedPowerStatus, .on)
        XCTAssertEqual(CECMessage(bytes: [0x04, 0x90, 0x01])?.reportedPowerStatus, .standby)
        XCTAssertEqual(CECMessage(bytes: [0x04, 0x90, 0x03])?.reportedPowerStatus, .onToStandby)
        XCTAssertNil(CECMessage(bytes: [0x04, 0x90, 0x07])?.reportedPowerStatus, "an operand outside the four")
        XCTAssertNil(CECMessage(bytes: [0x04, 0x90])?.reportedPowerStatus, "no operand")
        XCTAssertNil(CECMessage(bytes: [0x04, 0x36, 0x00])?.reportedPowerStatus, "another opcode")
    }

    func testRefusesWhatIsNoMessage() {
        XCTAssertNil(CECMessage(bytes: []))
        XCTAssertNil(CECMessage(bytes: [UInt8](repeating: 0, count: 17)))
        XCTAssertEqual(CECMessage(bytes: [0x40])?.description, "<Poll>")
        XCTAssertEqual(CECMessage(bytes: [0x40, 0x9F])?.description, "<opcode 0x9f>")
    }

    func testPhysicalAddresses() {
        XCTAssertNil(PhysicalAddress(0xFFFF), "CEC_PHYS_ADDR_INVALID is no address")
        XCTAssertEqual(PhysicalAddress(0x1000)?.description, "1.0.0.0")
        XCTAssertEqual(PhysicalAddress(0x21A0)?.description, "2.1.a.0")
        XCTAssertEqual(PhysicalAddress(0)?.isRoot, true)
    }

    func testTransmitOutcomesFromTheKernelsStatusBits() {
        func outcome(tx: UInt8, rx: UInt8 = 0) -> CECReceived.Outcome {
            CECReceived(sequence: 1, txStatus: tx, rxStatus: rx, message: nil).outcome
        }
        XCTAssertEqual(outcome(tx: 0x01), .delivered)
        XCTAssertEqual(outcome(tx: 0x01, rx: 0x01), .delivered)
        XCTAssertEqual(outcome(tx: 0x24), .notAcknowledged, "NACK | MAX_RETRIES")
        XCTAssertEqual(outcome(tx: 0x01, rx: 0x02), .noReply)
        XCTAssertEqual(outcome(tx: 0x01, rx: 0x04), .refused)
        XCTAssertEqual(outcome(tx: 0x22), .failed("arbitration lost"))
    }

    func testAdapterChoicePrefersAnHDMISource() {
        func info(_ pa: UInt16) -> CECAdapterInfo {
            CECAdapterInfo(driver: "d", name: "n", physicalAddress: PhysicalAddress(pa), logicalAddressMask: 0, configuredCount: 0)
        }
        // vivid: cec0 is the HDMI input (the TV's own 0.0.0.0), cec1 the output.
        XCTAssertEqual(CECAdapterChoice.choose([("/dev/cec0", info(0)), ("/dev/cec1", info(0x1000))]), "/dev/cec1")
        // A Pi 4 with the TV on its second port: the first port has no address yet.
        XCTAssertEqual(CECAdapterChoice.choose([("/dev/cec0", info(0xFFFF)), ("/dev/cec1", info(0x2000))]), "/dev/cec1")
        // Nothing plugged in: the first without an address (it claims once a TV appears).
        XCTAssertEqual(CECAdapterChoice.choose([("/dev/cec0", nil), ("/dev/cec1", info(0xFFFF))]), "/dev/cec1")
        XCTAssertNil(CECAdapterChoice.choose([("/dev/cec0", info(0))]), "only a TV's adapter")
        XCTAssertNil(CECAdapterChoice.choose([]))
    }
}
