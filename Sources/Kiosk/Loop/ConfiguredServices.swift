import Foundation
import KioskConfig
import Logging

/// The services a configuration switches on beside the carousel: the `[metrics]` file, the
/// `[control]` socket and the `[usb]` content folder. The kiosk tells it every configuration it
/// adopts — at start (with a file that does not validate: the defaults and what can be read of
/// it), when a fixed file starts the carousel, and at every reload applied — and each service
/// comes up, goes down or changes to match; each owns its state.
///
/// The rest follows the same configurations elsewhere: `[[schedule]]` in `KioskBehavior.reload`,
/// `[display] pixel_shift` in `CarouselSession.reload`, `[actions]` and `render_scale` in
/// `KioskApp.adopt`, the USB status file's watch in `KioskApp.watchFiles` (after every reload).
final class ConfiguredServices {
    let metrics: MetricsService
    let control: ControlSocketService
    private let logger: Logger

    init(loop: EventLoop, logger: Logger) {
        self.logger = logger
        metrics = MetricsService(logger: Logger(label: "kiosk.metrics"))
        control = ControlSocketService(loop: loop, logger: logger)
    }

    /// Brings every service in line with `config`. At start a control socket that cannot be
    /// opened is an error (`atStart`: thrown, the kiosk does not start); later it is logged and
    /// the socket open before stays.
    func adopt(_ config: KioskConfiguration, atStart: Bool = false) throws {
        metrics.adopt(config.metrics)
        do {
            try control.adopt(config.control.socket)
        } catch {
            if atStart { throw error }
            logger.error("control socket \(config.control.socket ?? ""): \(error); \(control.server.map { "still listening on \($0.path)" } ?? "no control socket")")
        }
        prepareUSBContent(config.usb)
    }

    /// `[usb] import`: makes the content folder when missing (so that it can be watched before
    /// the first stick; `usb-import` writes into it as root). Failure is only logged: the kiosk
    /// runs on without.
    private func prepareUSBContent(_ usb: USBSettings) {
        guard usb.importEnabled, !FileManager.default.fileExists(atPath: usb.content) else { return }
        do {
            try FileManager.default.createDirectory(atPath: usb.content, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        } catch {
            logger.warning("[usb] content \(usb.content) cannot be made (\(error)); USB sticks are read, but the screen will not say so")
        }
    }

    /// At exit: the metrics' last facts written, the control socket closed.
    func stop() {
        control.close()
        metrics.finish()
    }
}
