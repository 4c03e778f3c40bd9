import CLinux
import Glibc
import LinuxSystem

/// `/dev/cecN` through the kernel's CEC API (linux/cec.h, called through CLinux's `kiosk_cec_*`):
/// opened non-blocking, so a transmit returns at once and its result (and the reply asked
/// for) is read back with `receive` when the descriptor is readable. Errors are
/// `SystemCallError`s with the errno and the device's path.
final class LinuxCECDevice: CECDevice {
    let path: String
    private(set) var descriptor: Int32

    /// Opens `path`.
    init(path: String) throws {
        self.path = path
        let fd = path.withCString { kiosk_cec_open($0) }
        guard fd >= 0 else { throw SystemCallError(call: "open", errno: -fd, subject: path) }
        descriptor = fd
    }

    deinit { close() }

    func describe() throws -> CECAdapterInfo {
        var a = kiosk_cec_adapter()
        try check(kiosk_cec_describe(descriptor, &a), "CEC_ADAP_G_CAPS")
        func text<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        return CECAdapterInfo(driver: text(a.driver), name: text(a.name),
                              physicalAddress: PhysicalAddress(a.physical_address),
                              logicalAddressMask: a.logical_address_mask, configuredCount: Int(a.configured_count))
    }

    func claimPlayback(osdName: String) throws {
        try check(osdName.withCString { kiosk_cec_claim_playback(descriptor, $0) }, "CEC_ADAP_S_LOG_ADDRS")
    }

    func transmit(_ message: CECMessage, reply: CECMessage.Opcode?) throws -> UInt32 {
        var sequence: UInt32 = 0
        let bytes = message.bytes
        let rc = bytes.withUnsafeBufferPointer {
            kiosk_cec_transmit(descriptor, $0.baseAddress, UInt8($0.count), reply?.rawValue ?? 0, &sequence)
        }
        try check(rc, "CEC_TRANSMIT")
        return sequence
    }

    func receive() throws -> CECReceived? {
        var m = kiosk_cec_message()
        let rc = kiosk_cec_receive(descriptor, &m)
        if rc == -EAGAIN { return nil }
        try check(rc, "CEC_RECEIVE")
        let bytes = withUnsafeBytes(of: m.bytes) { Array($0.prefix(Int(m.len))) }
        return CECReceived(sequence: m.sequence, txStatus: m.tx_status, rxStatus: m.rx_status,
                           message: CECMessage(bytes: bytes))
    }

    func nextEvent() throws -> CECAdapterEvent? {
        var e = kiosk_cec_event()
        let rc = kiosk_cec_event(descriptor, &e)
        if rc == -EAGAIN { return nil }
        try check(rc, "CEC_DQEVENT")
        switch e.kind {
        case 1: return .stateChanged(physicalAddress: PhysicalAddress(e.physical_address),
                                     logicalAddressMask: e.logical_address_mask)
        case 2: return .lostMessages(Int(e.lost))
        default: return try nextEvent()  // pin events: not asked for, skipped
        }
    }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    private func check(_ rc: Int32, _ call: String) throws {
        if rc < 0 { throw SystemCallError(call: call, errno: -rc, subject: path) }
    }
}
