import Glibc
import LinuxSystem
@testable import Kiosk

/// A CEC adapter in memory for `CECLink`'s tests: what the link transmits is recorded, and the
/// test queues the events and results the kernel would give back.
final class FakeCECDevice: CECDevice {
    let path = "/dev/cec9"
    var descriptor: Int32 = 99
    var info = CECAdapterInfo(driver: "fake", name: "fake-out0", physicalAddress: PhysicalAddress(0x1000),
                              logicalAddressMask: 0, configuredCount: 0)
    /// Messages transmitted, with the reply asked for, by sequence (from 1).
    private(set) var sent: [(sequence: UInt32, message: CECMessage, reply: CECMessage.Opcode?)] = []
    private(set) var claims = 0
    /// errno the next transmits fail with; nil: they are queued.
    var transmitErrno: Int32?
    var events: [CECAdapterEvent] = []
    var received: [CECReceived] = []

    func describe() throws -> CECAdapterInfo { info }
    func claimPlayback(osdName: String) throws { claims += 1 }
    func transmit(_ message: CECMessage, reply: CECMessage.Opcode?) throws -> UInt32 {
        if let e = transmitErrno { throw SystemCallError(call: "CEC_TRANSMIT", errno: e, subject: path) }
        let sequence = UInt32(sent.count + 1)
        sent.append((sequence, message, reply))
        return sequence
    }
    func receive() throws -> CECReceived? { received.isEmpty ? nil : received.removeFirst() }
    func nextEvent() throws -> CECAdapterEvent? { events.isEmpty ? nil : events.removeFirst() }
    func close() { descriptor = -1 }

    /// The opcodes sent, as the bus would show them: `4>0 04`.
    var wire: [String] {
        sent.map { s in
            "\(String(s.message.initiator, radix: 16))>\(String(s.message.destination, radix: 16))"
                + s.message.bytes.dropFirst().map { " " + String(format: "%02x", $0) }.joined()
        }
    }

    /// The adapter claimed `address` (a state change event).
    func claimed(_ address: UInt8) {
        events.append(.stateChanged(physicalAddress: info.physicalAddress, logicalAddressMask: 1 << UInt16(address)))
    }

    /// The result of the transmit `sequence`: acknowledged (tx OK), with a reply, or with the
    /// given status bits.
    func result(_ sequence: UInt32, tx: UInt8 = 0x01, rx: UInt8 = 0, reply: [UInt8]? = nil) {
        received.append(CECReceived(sequence: sequence, txStatus: tx, rxStatus: rx,
                                    message: reply.flatMap { CECMessage(bytes: $0) }))
    }
}
