import Glibc
import LinuxSystem
import Logging

/// The kiosk's side of the HDMI-CEC bus on one adapter: claims a Playback logical address,
/// puts the TV in standby or turns it on (and makes the kiosk its active source), and follows
/// the power status the TV reports. Driven from outside (`CECComponent`): `readable` when the
/// adapter's descriptor is, `deadlineReached` at `nextDeadline`. Nothing waits for the TV: every
/// message is queued and its result read back later. A TV that does not answer costs one log
/// line (until it answers again); a message that cannot be sent is counted in `failed`.
///
/// When the TV is asked for its power status (`<Give Device Power Status>`, answered by
/// `<Report Power Status>`): right after each standby or wake, every `pollInterval` seconds,
/// and `transitionRecheck` seconds after it said it was between two states.
final class CECLink {
    /// Seconds between two power status questions while nothing else happens.
    static let pollInterval = 60.0
    /// Seconds before asking again a TV that reported it was in transition.
    static let transitionRecheck = 2.0
    /// The name the kiosk gives itself on the bus (`<Set OSD Name>`, answered by the kernel).
    static let osdName = "Kiosk"

    let device: CECDevice
    private let logger: Logger
    private let wallClock: () -> Double

    /// The HDMI physical address (from the TV's EDID); nil: none (no hot-plug detect).
    private(set) var physicalAddress: PhysicalAddress?
    /// The logical address the adapter claimed for the kiosk; nil: none yet.
    private(set) var logicalAddress: UInt8?
    /// What the TV last reported, and when (unix seconds); `unknown`/nil before it did.
    private(set) var tvPower = TVPowerStatus.unknown
    private(set) var tvPowerTime: Double?
    /// Messages queued to the adapter, and messages that failed (not queued, not acknowledged,
    /// no reply, refused).
    private(set) var sent = 0
    private(set) var failed = 0
    /// What the kiosk last asked of the TV (true: on); nil: nothing yet.
    private(set) var wantsOn: Bool?
    /// `wantsOn` is still to be sent (the adapter had no logical address yet).
    private(set) var wantOwed = false
    /// The adapter went away (unplugged, driver unbound): nothing more is done.
    private(set) var isGone = false
    /// The messages in flight by sequence number.
    private var pending: [UInt32: CECMessage] = [:]
    private var nextQuery: Double?
    /// Whether the TV answered the last message it was sent (nil: none sent yet): a change is logged.
    private var tvAnswering: Bool?
    /// The "no logical address yet" line was written (once per wait).
    private var toldWaiting = false

    init(device: CECDevice, logger: Logger, wallClock: @escaping () -> Double) {
        self.device = device
        self.logger = logger
        self.wallClock = wallClock
    }

    /// When the link must run next: the next power status question (only with a logical address).
    var nextDeadline: Double? { logicalAddress == nil || isGone ? nil : nextQuery }

    /// Reads the adapter and asks for a Playback logical address (or takes the one configured
    /// already, by an earlier run of the kiosk).
    func start(now: Double) {
        do {
            let info = try device.describe()
            physicalAddress = info.physicalAddress
            let adapter = "\(device.path) (\(info.driver), \(info.name))"
            if info.configuredCount > 0 {
                logger.notice("cec: \(adapter) is configured already; using its logical address")
                adopt(physicalAddress: info.physicalAddress, mask: info.logicalAddressMask, now: now)
            } else {
                try device.claimPlayback(osdName: Self.osdName)
                logger.notice("cec: \(adapter), physical address \(describe(info.physicalAddress)): claiming a Playback logical address")
                waiting()
            }
        } catch {
            lost(error)
        }
    }

    /// The kiosk blanked (`on` false) or woke (`on` true): `<Standby>`, or `<Image View On>` and
    /// `<Active Source>`, then the power status question. Without a logical address yet, sent
    /// once the adapter has one.
    func setPower(on: Bool, now: Double) {
        wantsOn = on
        wantOwed = true
        sendWanted(now: now)
    }

    /// The descriptor is readable: takes every queued event and message.
    func readable(now: Double) {
        do {
            while let event = try device.nextEvent() { handle(event, now: now) }
            while let received = try device.receive() { handle(received, now: now) }
        } catch {
            lost(error)
        }
    }

    func deadlineReached(now: Double) {
        guard let due = nextQuery, now >= due, logicalAddress != nil else { return }
        askPowerStatus(now: now)
    }

    // MARK: - Private

    private func handle(_ event: CECAdapterEvent, now: Double) {
        switch event {
        case .stateChanged(let pa, let mask):
            adopt(physicalAddress: pa, mask: mask, now: now)
        case .lostMessages(let n):
            logger.warning("cec: \(device.path): the adapter dropped \(n) message(s)")
        }
    }

    /// The adapter's physical and logical addresses now.
    private func adopt(physicalAddress pa: PhysicalAddress?, mask: UInt16, now: Double) {
        let la = (0..<16).first { mask & (1 << $0) != 0 }.map(UInt8.init)
        let changed = la != logicalAddress || pa != physicalAddress
        physicalAddress = pa
        logicalAddress = la
        guard changed else { return }
        if let la {
            toldWaiting = false
            logger.notice("cec: \(device.path) is logical address \(la), physical address \(describe(pa))")
            if wantOwed { sendWanted(now: now) } else { askPowerStatus(now: now) }
        } else {
            waiting()
        }
    }

    private func sendWanted(now: Double) {
        guard let on = wantsOn, wantOwed else { return }
        guard let la = logicalAddress else { return waiting() }
        wantOwed = false
        if on {
            let activeSource = physicalAddress.map { CECMessage.activeSource(from: la, physicalAddress: $0) }
            let messages = [CECMessage.imageViewOn(from: la)] + (activeSource.map { [$0] } ?? [])
            let names = messages.map(\.description).joined(separator: ", ")
            logger.notice("cec: turning the TV on: \(names)\(physicalAddress.map { " \($0)" } ?? "")")
            for m in messages { send(m, now: now) }
        } else {
            logger.notice("cec: putting the TV in standby: <Standby>")
            send(.standby(from: la), now: now)
        }
        askPowerStatus(now: now)
    }

    private func askPowerStatus(now: Double) {
        guard let la = logicalAddress else { return }
        nextQuery = now + Self.pollInterval
        send(.giveDevicePowerStatus(from: la), reply: .reportPowerStatus, now: now)
    }

    private func send(_ message: CECMessage, reply: CECMessage.Opcode? = nil, now: Double) {
        do {
            let sequence = try device.transmit(message, reply: reply)
            pending[sequence] = message
            sent += 1
        } catch let e as SystemCallError where e.errno == ENONET {
            // The adapter lost its logical address (TV unplugged): sent again once it has one.
            failed += 1
            logicalAddress = nil
            wantOwed = wantsOn != nil
            waiting()
        } catch let e as SystemCallError where e.errno == ENODEV {
            failed += 1
            lost(e)
        } catch {
            failed += 1
            logger.warning("cec: \(message) not sent: \(error)")
        }
    }

    private func handle(_ received: CECReceived, now: Double) {
        guard received.sequence != 0 else {
            // Received from the bus (the kiosk is no follower: only what the kernel passes on).
            if let m = received.message, m.initiator == CECMessage.tv, let status = m.reportedPowerStatus {
                record(status, now: now)
            }
            return
        }
        guard let message = pending.removeValue(forKey: received.sequence) else { return }
        switch received.outcome {
        case .delivered:
            answered(message, nil)
            if let status = received.message?.reportedPowerStatus { record(status, now: now) }
        case .notAcknowledged:
            failed += 1
            answered(message, "not acknowledged: no TV on the bus, or it does not do CEC")
        case .noReply:
            failed += 1
            answered(message, "no <Report Power Status> within a second")
        case .refused:
            failed += 1
            answered(message, "<Feature Abort>")
        case .failed(let why):
            failed += 1
            answered(message, why)
        }
    }

    /// One line when the TV stops answering (`problem` non-nil) and one when it answers again.
    /// Broadcasts say nothing of the TV (they are delivered with nobody listening).
    private func answered(_ message: CECMessage, _ problem: String?) {
        guard message.destination != CECMessage.broadcast else { return }
        let now = problem == nil
        defer { tvAnswering = now }
        if let problem, tvAnswering != false {
            logger.warning("cec: the TV did not answer \(message) (\(problem)); the kiosk goes on without it")
        } else if problem == nil, tvAnswering == false {
            logger.notice("cec: the TV answers again (\(message))")
        }
    }

    private func record(_ status: TVPowerStatus, now: Double) {
        if status != tvPower { logger.notice("cec: the TV reports power \(status.rawValue)") }
        tvPower = status
        tvPowerTime = wallClock()
        nextQuery = now + (status.isTransition ? Self.transitionRecheck : Self.pollInterval)
    }

    /// Says once why messages wait: without a physical address the adapter cannot claim a
    /// logical address (with one, the claim is under way and its end is logged).
    private func waiting() {
        guard !toldWaiting, physicalAddress == nil else { return }
        toldWaiting = true
        logger.notice("cec: \(device.path) has no physical address: no TV plugged in, or a TV that is off on hardware that needs hot-plug detect; messages wait until it has one")
    }

    private func lost(_ error: Error) {
        guard !isGone else { return }
        isGone = true
        logger.error("cec: \(error); HDMI-CEC is off until the configuration is reloaded")
    }

    private func describe(_ pa: PhysicalAddress?) -> String { pa?.description ?? "none" }
}
