import Foundation
import KioskConfig
import Logging

/// `update check` (docs/updates.md): run by `kiosk-carousel-update.timer` every few minutes, it
/// decides from the config whether a check is due (`[update] check_every` since the last one in
/// `check.json`) and allowed now (`[update] window`), and then fetches and installs
/// `[update] url` (through `BundleInstaller`) and `[content] url` (through `ContentBundle`).
public struct UpdateCheck {
    /// What a run did.
    public enum Decision: Equatable, Sendable {
        /// No `[update] url` and no `[content] url`.
        case notConfigured
        /// Outside `[update] window`.
        case outsideWindow(TimeWindow)
        /// The last check was less than `check_every` ago: the next is due at this unix time.
        case notDue(until: Double)
        /// Checked.
        case checked
    }

    /// `check.json`.
    struct Record: Codable { var lastCheck: Double }

    public var paths: UpdatePaths
    public init(paths: UpdatePaths) { self.paths = paths }

    /// Whether to check now (`now`: unix time; `minuteOfDay`: local minutes after midnight).
    public func decide(_ config: KioskConfiguration, now: Double, minuteOfDay: Int) -> Decision {
        guard config.update.url != nil || config.contentSource.url != nil else { return .notConfigured }
        if let window = config.update.window, !window.contains(minute: minuteOfDay) { return .outsideWindow(window) }
        if let every = config.update.checkEvery, let last = ((try? StatusFile.read(Record.self, from: paths.checks)) ?? nil)?.lastCheck,
           last <= now, now < last + every {
            return .notDue(until: last + every)
        }
        return .checked
    }

    /// Notes that a check starts now.
    public func recordCheck(now: Double) throws {
        try FileManager.default.createDirectory(atPath: paths.folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try StatusFile.write(Record(lastCheck: now), to: paths.checks)
    }

    /// Local minutes after midnight of unix time `t`.
    public static func minuteOfDay(_ t: Double) -> Int {
        var seconds = time_t(t)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return Int(parts.tm_hour) * 60 + Int(parts.tm_min)
    }
}
