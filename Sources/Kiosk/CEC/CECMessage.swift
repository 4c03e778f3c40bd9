/// One HDMI-CEC message as it goes on the bus: a header byte (initiator's logical address in the
/// high nibble, destination's in the low; 15 is broadcast), an opcode and its operands (CEC 1.4
/// §CEC 10; linux/cec.h names the same opcodes `CEC_MSG_*`). Only what the kiosk sends and reads.
struct CECMessage: Equatable, Sendable, CustomStringConvertible {
    /// The logical address of the TV.
    static let tv: UInt8 = 0
    /// The destination of a broadcast.
    static let broadcast: UInt8 = 15

    /// The opcodes the kiosk sends or reads.
    enum Opcode: UInt8, Sendable {
        case featureAbort = 0x00
        case imageViewOn = 0x04
        case standby = 0x36
        case activeSource = 0x82
        case giveDevicePowerStatus = 0x8F
        case reportPowerStatus = 0x90

        /// The name the CEC specification gives it, as logs write it: `<Image View On>`.
        var name: String {
            switch self {
            case .featureAbort: return "<Feature Abort>"
            case .imageViewOn: return "<Image View On>"
            case .standby: return "<Standby>"
            case .activeSource: return "<Active Source>"
            case .giveDevicePowerStatus: return "<Give Device Power Status>"
            case .reportPowerStatus: return "<Report Power Status>"
            }
        }
    }

    var initiator: UInt8
    var destination: UInt8
    /// nil: a poll (header only).
    var opcode: UInt8?
    var operands: [UInt8]

    init(from initiator: UInt8, to destination: UInt8, _ opcode: Opcode, _ operands: [UInt8] = []) {
        self.initiator = initiator & 0xF
        self.destination = destination & 0xF
        self.opcode = opcode.rawValue
        self.operands = operands
    }

    /// Parses the bytes read from the bus; nil for none or more than 16.
    init?(bytes: [UInt8]) {
        guard let header = bytes.first, bytes.count <= 16 else { return nil }
        initiator = header >> 4
        destination = header & 0xF
        opcode = bytes.count > 1 ? bytes[1] : nil
        operands = bytes.count > 2 ? Array(bytes[2...]) : []
    }

    /// The bytes on the bus: header, opcode, operands.
    var bytes: [UInt8] { [initiator << 4 | destination] + (opcode.map { [$0] } ?? []) + operands }

    /// The opcode when it is one the kiosk knows.
    var known: Opcode? { opcode.flatMap(Opcode.init(rawValue:)) }

    var description: String {
        known?.name ?? opcode.map { "<opcode 0x\(String($0, radix: 16))>" } ?? "<Poll>"
    }

    /// `<Standby>` to the TV: it goes to standby (the kiosk's blank).
    static func standby(from initiator: UInt8) -> CECMessage { CECMessage(from: initiator, to: tv, .standby) }

    /// `<Image View On>` to the TV: it turns on (and leaves its menu or standby) to show a source.
    static func imageViewOn(from initiator: UInt8) -> CECMessage { CECMessage(from: initiator, to: tv, .imageViewOn) }

    /// `<Active Source>`, broadcast: the TV switches to the input at `physicalAddress`.
    static func activeSource(from initiator: UInt8, physicalAddress: PhysicalAddress) -> CECMessage {
        CECMessage(from: initiator, to: broadcast, .activeSource, physicalAddress.bytes)
    }

    /// `<Give Device Power Status>` to the TV; it answers `<Report Power Status>`.
    static func giveDevicePowerStatus(from initiator: UInt8) -> CECMessage {
        CECMessage(from: initiator, to: tv, .giveDevicePowerStatus)
    }

    /// The power status of a `<Report Power Status>`; nil for any other message, or an operand
    /// outside the specification's four.
    var reportedPowerStatus: TVPowerStatus? {
        guard known == .reportPowerStatus, let operand = operands.first else { return nil }
        return TVPowerStatus(operand: operand)
    }
}

/// An HDMI physical address `a.b.c.d`: where a device is in the HDMI tree (the TV is 0.0.0.0, its
/// first input 1.0.0.0). The sink gives it to the source in its EDID; the kernel's CEC adapter
/// has it from the HDMI driver (or, on adapters with `CEC_CAP_PHYS_ADDR`, from user space).
struct PhysicalAddress: Equatable, Sendable, CustomStringConvertible {
    /// The kernel's "no physical address" (`CEC_PHYS_ADDR_INVALID`): no hot-plug detect.
    static let invalidValue: UInt16 = 0xFFFF

    var value: UInt16

    /// nil for `CEC_PHYS_ADDR_INVALID`.
    init?(_ value: UInt16) {
        guard value != Self.invalidValue else { return nil }
        self.value = value
    }

    /// The TV's own address.
    var isRoot: Bool { value == 0 }
    /// The two operand bytes, high first.
    var bytes: [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    var description: String {
        [12, 8, 4, 0].map { String((value >> UInt16($0)) & 0xF, radix: 16) }.joined(separator: ".")
    }
}

/// What a TV said of its power (`<Report Power Status>`'s operand), or `unknown` before it said
/// anything. Its raw value is what `state` and the metrics write.
enum TVPowerStatus: String, CaseIterable, Sendable {
    case on
    case standby
    case standbyToOn = "standby_to_on"
    case onToStandby = "on_to_standby"
    case unknown

    /// CEC's operand: 0 on, 1 standby, 2 in transition standby to on, 3 on to standby.
    init?(operand: UInt8) {
        switch operand {
        case 0: self = .on
        case 1: self = .standby
        case 2: self = .standbyToOn
        case 3: self = .onToStandby
        default: return nil
        }
    }

    /// The TV is between two states: asked again soon.
    var isTransition: Bool { self == .standbyToOn || self == .onToStandby }
}
