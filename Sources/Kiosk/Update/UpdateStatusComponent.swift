import Cards
import Foundation
import JSON
import KioskConfig
import LinuxSystem

/// System updates in the loop (docs/updates.md): `kiosk-carousel update` (root) writes its
/// progress and result to `update/status.json`, and the image writes `update/boot.json` after
/// each boot; this component watches both, shows a card for what is news ("Updating…", "Update
/// installed…", "Update refused: …", "Rolled back…"), and puts the running version, the slot,
/// the last update's result (also one written before this start) and the rollbacks into `state`
/// and the metrics. A broken file is
/// logged with its name and what is wrong, once, and otherwise ignored.
final class UpdateStatusComponent: KioskComponent {
    private unowned let context: KioskContext
    /// Where the files are (tests point it at a folder of their own).
    var paths = UpdatePaths()
    let version: String
    let slot: String
    /// The last status and boot report acted on: the same file seen again is not news.
    private var lastStatus: UpdateStatus?
    /// The last status read, news or not (an update done before this start is still the last
    /// update's result for `state` and the metrics).
    private var knownStatus: UpdateStatus?
    private var lastBoot: BootReport?
    /// The last message about a broken file, so that it is logged once.
    private var lastProblem: String?
    /// Rollbacks seen by this process (a boot report that says so counts once).
    private(set) var rollbacks = 0

    init(context: KioskContext, identity: SystemIdentity = SystemIdentity()) {
        self.context = context
        version = identity.version
        slot = identity.slot
    }

    var watchedFiles: [String] { [paths.status, paths.boot] }

    func filesChanged(_ paths: Set<String>) {
        if paths.contains(self.paths.status) { statusChanged() }
        if paths.contains(self.paths.boot) { bootChanged() }
    }

    func attach(to reactor: Reactor) throws {
        knownStatus = load({ try UpdateStatus.read(from: paths.status) })
        bootChanged()
    }

    /// Reads `file` with `read`; a broken one is logged (once per message).
    private func load<T>(_ read: () throws -> T?) -> T? {
        do {
            return try read()
        } catch {
            let message = "\(error)"
            if message != lastProblem {
                lastProblem = message
                context.logger.warning("\(message); ignored")
            }
            return nil
        }
    }

    /// The boot report changed (or the kiosk started): a rollback is shown and counted. The image
    /// writes this boot's report while the kiosk starts (kiosk-boot-state.service does not hold
    /// the kiosk's start back: docs/start-up.md), so the file found at the start can be an earlier
    /// boot's: one that names another version than the one running is left alone (neither shown
    /// nor taken for the slot) until this boot's is written.
    func bootChanged() {
        guard let report = load({ try BootReport.read(from: paths.boot) }), report != lastBoot,
              report.version == version else { return }
        lastBoot = report
        guard report.rolledBack else { return }
        rollbacks += 1
        let failed = report.failedVersion.map { "the new version \($0)" } ?? "the new version"
        context.logger.error("rolled back to \(report.version) (slot \(report.slot)): \(failed) did not start")
        let behavior = context.behavior
        behavior.sceneCards.showNotice(until: context.now + 2 * behavior.loadedConfig.usb.noticeSeconds) { l in
            MessageCard(tone: .problem, title: KioskStrings.text(.rolledBack, l, report.version),
                        lines: [report.failedVersion.map { KioskStrings.text(.newVersionDidNotStart, l, $0) } ?? KioskStrings.text(.aNewVersionDidNotStart, l)],
                        footer: KioskStrings.text(.runsVersionBefore, l))
        }
        behavior.line(time: context.now, name: "update_rolled_back",
                      fields: [("version", JSONString.quoted(report.version)), ("slot", JSONString.quoted(report.slot)),
                               ("failed_version", report.failedVersion.map(JSONString.quoted) ?? "null")])
    }

    /// The updater's status changed: show what it says.
    func statusChanged() {
        guard let status = load({ try UpdateStatus.read(from: paths.status) }) else { return }
        knownStatus = status
        // A status older than this kiosk (an update long done) is not news, nor the same again.
        guard status.time >= context.startWallTime - 1, status != lastStatus else { return }
        let previous = lastStatus
        lastStatus = status
        let behavior = context.behavior, now = context.now
        let seconds = behavior.loadedConfig.usb.noticeSeconds
        switch status.state {
        case .checking:
            return
        case .downloading, .installing:
            // One card for the whole install; its progress is not news.
            if previous?.state == .downloading || previous?.state == .installing { break }
            behavior.sceneCards.showNotice(until: now + seconds) { l in
                MessageCard(tone: .notice, title: KioskStrings.text(.updating, l), lines: [KioskStrings.text(.keepsRunningDuringUpdate, l)])
            }
        case .installed:
            behavior.sceneCards.showNotice(until: now + seconds) { l in
                MessageCard(tone: .notice, title: KioskStrings.text(.updateInstalled, l), lines: [KioskStrings.text(.restartsWhenUnused, l)])
            }
        case .failed:
            behavior.sceneCards.showNotice(until: now + 2 * seconds) { l in
                MessageCard(tone: .problem, title: KioskStrings.text(.updateNotInstalled, l), lines: [Self.reason(status.message)],
                            footer: KioskStrings.text(.keepsVersion, l))
            }
        }
        behavior.line(time: now, name: "update", fields: [("state", JSONString.quoted(status.state.rawValue)),
                                                           ("version", status.version.map(JSONString.quoted) ?? "null"),
                                                           ("message", JSONString.quoted(status.message))])
    }

    /// "The update was refused: unsigned." → "Refused: unsigned."
    static func reason(_ message: String) -> String {
        if message.hasPrefix("The update was refused: ") { return "Refused: " + message.dropFirst("The update was refused: ".count) }
        return message
    }

    func report(into health: inout KioskHealth) {
        health.version = version
        // The kiosk's unit has ProcSubset=pid (no /proc/cmdline): the image's boot report names
        // the slot that booted; the command line is the fallback (a kiosk run by hand).
        health.slot = lastBoot?.slot ?? slot
        health.updateState = knownStatus?.state.rawValue
        health.updateMessage = knownStatus?.message
        health.rollbacks = rollbacks
    }
}
