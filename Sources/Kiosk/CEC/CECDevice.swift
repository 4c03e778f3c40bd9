/// An HDMI-CEC adapter as the kiosk uses it (`/dev/cecN`: `LinuxCECDevice`; tests give a fake).
/// Nothing here blocks: a transmit is queued and its result read back later, when the
/// descriptor is readable.
protocol CECDevice: AnyObject {
    /// The device's path (for log lines).
    var path: String { get }
    /// The descriptor the loop watches: readable (messages) and priority (events).
    var descriptor: Int32 { get }
    /// The adapter's name, physical address and logical addresses now.
    func describe() throws -> CECAdapterInfo
    /// Asks for one Playback logical address, completed later (a state change event).
    /// Throws `SystemCallError` with `EBUSY` when the adapter is configured already.
    func claimPlayback(osdName: String) throws
    /// Queues `message`; `reply`: wait for that opcode from the destination. Returns the
    /// sequence number its result comes back with (`CECReceived.sequence`).
    func transmit(_ message: CECMessage, reply: CECMessage.Opcode?) throws -> UInt32
    /// The next queued message or transmit result; nil: none queued.
    func receive() throws -> CECReceived?
    /// The next queued adapter event; nil: none queued.
    func nextEvent() throws -> CECAdapterEvent?
    /// Closes the descriptor.
    func close()
}

/// What `CECDevice.describe` reads.
struct CECAdapterInfo: Equatable, Sendable {
    /// The driver and adapter names (`vc4`, `vivid`…).
    var driver: String
    var name: String
    /// nil: no physical address (no hot-plug detect).
    var physicalAddress: PhysicalAddress?
    /// The logical addresses claimed (bit N: address N).
    var logicalAddressMask: UInt16
    /// Logical addresses configured (claimed or being claimed): 0 means nobody configured it.
    var configuredCount: Int
}

/// A message read back from the adapter: the result of one of ours (`sequence` != 0) or one
/// received from the bus.
struct CECReceived: Equatable, Sendable {
    /// 0: received from the bus; else the sequence `transmit` returned.
    var sequence: UInt32
    var txStatus: UInt8
    var rxStatus: UInt8
    /// The message received, or the reply to ours; nil when none came with the result.
    var message: CECMessage?

    /// How a transmit ended (linux/cec.h's `CEC_TX_STATUS_*` and `CEC_RX_STATUS_*`).
    enum Outcome: Equatable, Sendable {
        /// Acknowledged (and the reply, when one was asked for, came: `message`).
        case delivered
        /// Nobody acknowledged it: no device at that address.
        case notAcknowledged
        /// Acknowledged, but the reply asked for did not come within a second.
        case noReply
        /// The destination answered `<Feature Abort>`.
        case refused
        /// Anything else the adapter reported (arbitration lost, low drive, error, aborted…).
        case failed(String)
    }

    var outcome: Outcome {
        if txStatus & 0x01 == 0 {  // not CEC_TX_STATUS_OK
            if txStatus & 0x04 != 0 { return .notAcknowledged }
            let names: [(UInt8, String)] = [(0x02, "arbitration lost"), (0x08, "low drive"), (0x10, "error"),
                                            (0x40, "aborted"), (0x80, "timeout")]
            let said = names.filter { txStatus & $0.0 != 0 }.map(\.1)
            return .failed(said.isEmpty ? "status 0x\(String(txStatus, radix: 16))" : said.joined(separator: ", "))
        }
        if rxStatus & 0x04 != 0 { return .refused }       // CEC_RX_STATUS_FEATURE_ABORT
        if rxStatus & 0x02 != 0 { return .noReply }       // CEC_RX_STATUS_TIMEOUT
        if rxStatus & 0x08 != 0 { return .failed("reply aborted") }
        return .delivered
    }
}

/// An adapter event (`CEC_DQEVENT`).
enum CECAdapterEvent: Equatable, Sendable {
    /// The physical address or the logical addresses changed (a TV plugged in or out, a claim
    /// done); the first event after opening says the state then.
    case stateChanged(physicalAddress: PhysicalAddress?, logicalAddressMask: UInt16)
    /// The adapter's queue overflowed: messages were dropped.
    case lostMessages(Int)
}
