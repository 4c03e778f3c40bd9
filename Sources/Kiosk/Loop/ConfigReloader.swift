import Foundation
import KioskConfig
import LinuxSystem

/// The running kiosk's reloads, read off the loop: the config file is read, validated and its
/// clips probed (`KioskBehavior.load`: 10–40 ms a new 1080p clip) on a worker thread, which
/// wakes the loop through an eventfd (`fd`, as the card workers do); the loop then adopts or
/// refuses the file (`finish`) with the same problem list, `reloaded` event and `reload` reply
/// as a reload read on the loop. Frames and input go on meanwhile, with what was shown.
///
/// One read at a time, and the newest file wins: a reload asked for while a read runs waits for
/// it, and when it ends its result is dropped (the file changed, or was asked for again, after
/// it was read) and the file is read again; everyone who asked since the last outcome hears
/// the outcome of that last read. So reloads are never lost nor applied out of order.
final class ConfigReloader {
    /// Called on the loop with the outcome of one reload once it is known: adopted (true) or
    /// refused (false, the problems in the behaviour's `lastReloadProblems`).
    typealias Answer = (Bool) -> Void

    /// Readable when a read has ended (watch it in the loop, then call `finish`).
    var fd: Int32 { wake.fd }
    /// True from a request until its outcome is applied.
    var isBusy: Bool { reading != nil }

    private let path: String
    private let media: MediaChecks
    /// Where a read takes the parse of a text read before (the start's, for the check after the
    /// first frame, `StartingConfigCheck`); nil: every read parses.
    var parses: ParsedTextCache?
    private let wake: EventFD
    private let result = ReadResult()
    /// The read running now: why, and who waits for its outcome; nil: none.
    private var reading: (reasons: [String], answers: [Answer])?
    /// Asked for while a read runs: read again when it ends.
    private var queued: (reasons: [String], answers: [Answer])?
    /// Adopts or refuses what a read gave, on the loop, and says which (`KioskApp.finishReload`).
    var apply: (Result<KioskConfiguration, any Error>, _ reason: String) -> Bool = { _, _ in false }

    /// - Parameter media: what a read checks of the clips (`MediaFileCheck.kiosk`; tests inject a slow one).
    init(path: String, media: MediaChecks) throws {
        self.path = path
        self.media = media
        wake = try EventFD()
    }

    /// Reload for `reason`; `answer` hears the outcome (later, on the loop).
    func request(reason: String, then answer: Answer? = nil) {
        let answers = answer.map { [$0] } ?? []
        if reading != nil {
            queued = ((queued?.reasons ?? []) + [reason], (queued?.answers ?? []) + answers)
        } else {
            startReading(reasons: [reason], answers: answers)
        }
    }

    /// The eventfd fired: apply the read that ended, or read again when more was asked since.
    func finish() {
        _ = wake.reset()
        guard let ended = reading, let loaded = result.take() else { return }
        if let next = queued {
            // Read before the newest request: the newest file is read instead, and everyone
            // waiting hears its outcome.
            queued = nil
            startReading(reasons: ended.reasons + next.reasons, answers: ended.answers + next.answers)
            return
        }
        reading = nil
        let adopted = apply(loaded, Self.reasonText(ended.reasons))
        for answer in ended.answers { answer(adopted) }
    }

    private func startReading(reasons: [String], answers: [Answer]) {
        reading = (reasons, answers)
        let path = path, media = media, parses = parses, result = result, wake = wake
        // Started from the loop's thread, so it inherits its blocked signals (signalfd).
        Thread {
            result.put(KioskBehavior.load(path: path, media: media, parses: parses))
            wake.signal()
        }.start()
    }

    /// "SIGHUP", or "SIGHUP, control socket" for reloads merged while a read ran.
    static func reasonText(_ reasons: [String]) -> String {
        var seen = Set<String>()
        return reasons.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }
}

/// What the worker read, handed to the loop.
private final class ReadResult: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<KioskConfiguration, any Error>?
    func put(_ v: Result<KioskConfiguration, any Error>) { lock.lock(); value = v; lock.unlock() }
    func take() -> Result<KioskConfiguration, any Error>? { lock.lock(); defer { lock.unlock() }; let v = value; value = nil; return v }
}
