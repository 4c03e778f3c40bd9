import Display
import Foundation
import LinuxSystem
import Logging

/// `run --shot SECONDS=FILE.png`: what a headless kiosk's screen shows at those times (seconds
/// since start, as `simulate --shot` counts virtual ones), written as PNG files. Owns its
/// shots still to come; the loop wakes at the next one's time.
///
/// Each shot is the headless screen as last presented: the kiosk draws a frame only when the
/// scene changes, so a still carousel's screen is its last frame. A file that cannot be written
/// is logged (`PATH: reason (errno text)`) and counted in `failures`; the kiosk goes on.
public final class TimedShots: KioskComponent {
    private let display: HeadlessDisplay
    private var pending: ArraySlice<(time: Double, path: String)>
    private let logger: Logger
    /// The files written, in time order.
    public private(set) var written: [String] = []
    /// The shots that could not be written.
    public private(set) var failures: [FileWriteError] = []

    /// Shots of `display` at `shots` (seconds since the loop starts; any order).
    public init(_ shots: [(time: Double, path: String)], display: HeadlessDisplay, logger: Logger) throws {
        self.display = display
        self.logger = logger
        pending = shots.sorted { $0.time < $1.time }[...]
    }

    /// The next shot's time.
    public var nextDeadline: Double? { pending.first?.time }

    /// Writes every shot due at `now`.
    public func deadlineReached(now: Double) {
        while let shot = pending.first, shot.time <= now + 0.0005 {
            pending = pending.dropFirst()
            do {
                try display.writePNG(to: shot.path)
                written.append(shot.path)
                logger.info("shot at \(String(format: "%.3f", now)) s: \(shot.path)")
            } catch {
                failures.append(error)
                logger.error("shot: \(error)")
            }
        }
    }
}
