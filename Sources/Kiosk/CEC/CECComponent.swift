import KioskConfig
import LinuxSystem

/// HDMI-CEC for TVs (`[display] power = "cec"`/`"both"`, `cec_on_start`; docs/cec.md): owns
/// the adapter's descriptor and its `CECLink`. `ScreenBlanker` tells it of each blank and wake;
/// it watches the descriptor (messages and events) and wakes for the power status questions.
/// Opens nothing with `power = "dpms"` and `cec_on_start = false` (the default). A missing or
/// unusable adapter is one log line; the kiosk goes on.
final class CECComponent: KioskComponent {
    /// Opens the adapter at a path, or the one `CECAdapterChoice` picks when nil (tests give a fake).
    typealias Opener = (String?) throws -> CECDevice

    private unowned let context: KioskContext
    private var settings: DisplaySettings
    private let open: Opener
    private weak var reactor: Reactor?
    private(set) var link: CECLink?

    init(settings: DisplaySettings, context: KioskContext, open: @escaping Opener = CECComponent.openAdapter) {
        self.settings = settings
        self.context = context
        self.open = open
    }

    /// Whether the settings ask for CEC at all.
    private static func wanted(_ s: DisplaySettings) -> Bool { s.power.usesCEC || s.cecOnStart }

    func attach(to reactor: Reactor) throws {
        self.reactor = reactor
        start(wakeTV: settings.cecOnStart)
    }

    var nextDeadline: Double? { link?.nextDeadline }

    func deadlineReached(now: Double) { link?.deadlineReached(now: now) }

    /// The screen was blanked (`on` false) or woke: the TV follows with `power = "cec"`/`"both"`.
    func screenPower(on: Bool) {
        guard settings.power.usesCEC, let link else { return }
        link.setPower(on: on, now: context.now)
    }

    func configAdopted(_ config: KioskConfiguration) {
        let old = settings
        settings = config.display
        let same = Self.wanted(old) == Self.wanted(settings) && old.cecDevice == settings.cecDevice
        if same && link?.isGone != true { return }
        close()
        start(wakeTV: false)
    }

    func report(into health: inout KioskHealth) {
        guard let link else { return }
        health.tv = TVHealth(power: link.tvPower.rawValue, reportedAt: link.tvPowerTime,
                             messagesSent: link.sent, messagesFailed: link.failed)
    }

    func stop(now: Double) { close() }

    private func start(wakeTV: Bool) {
        guard Self.wanted(settings), let reactor else { return }
        let device: CECDevice
        do {
            device = try open(settings.cecDevice)
        } catch {
            context.logger.warning("cec: \(error); the kiosk goes on without HDMI-CEC")
            return
        }
        let link = CECLink(device: device, logger: context.logger, wallClock: context.wallClock)
        self.link = link
        do {
            // Readable: messages; priority: the adapter's events.
            try reactor.watch(device.descriptor, events: [.readable, .priority]) { [unowned self] _ in
                self.readable()
            }
        } catch {
            context.logger.warning("cec: \(device.path): \(error); the kiosk goes on without HDMI-CEC")
            close()
            return
        }
        link.start(now: context.now)
        if wakeTV { link.setPower(on: true, now: context.now) }
        if link.isGone { unwatch() }
    }

    private func readable() {
        guard let link else { return }
        link.readable(now: context.now)
        if link.isGone { unwatch() }
    }

    /// Stops watching a gone adapter (its descriptor stays readable with an error) but keeps
    /// its counters for `state` until a reload.
    private func unwatch() {
        guard let link, link.device.descriptor >= 0 else { return }
        reactor?.unwatch(link.device.descriptor)
        link.device.close()
    }

    private func close() {
        unwatch()
        link = nil
    }

    /// The adapter at `path`, or the one `CECAdapterChoice` picks.
    static func openAdapter(_ path: String?) throws -> CECDevice {
        if let path { return try LinuxCECDevice(path: path) }
        var seen: [(path: String, info: CECAdapterInfo?)] = []
        for p in CECAdapterChoice.candidates() {
            let info = (try? LinuxCECDevice(path: p)).flatMap { try? $0.describe() }
            seen.append((p, info))
        }
        guard let chosen = CECAdapterChoice.choose(seen) else { throw CECAdapterMissing(seen: seen.map(\.path)) }
        return try LinuxCECDevice(path: chosen)
    }
}

/// No `/dev/cecN` fits (`CECAdapterChoice`).
struct CECAdapterMissing: Error, CustomStringConvertible {
    var seen: [String]
    var description: String {
        seen.isEmpty ? "no HDMI-CEC adapter (/dev/cec*)"
            : "no HDMI-CEC adapter of an HDMI source among \(seen.joined(separator: ", ")) (set [display] cec_device)"
    }
}
