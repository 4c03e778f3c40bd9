import Audio
import Foundation
import LinuxSystem
import Logging

/// espeak-ng off the kiosk's loop: one thread (espeak-ng is not thread-safe) that makes the
/// synthesizer when first asked and synthesizes the newest request; each clip is handed back
/// through an `EventFD` the loop watches (`readyDescriptor`), as the card workers' faces are.
/// A newer request or `cancel` stops the one being synthesized at its next block of samples.
public final class SpeechWorker: SpeechEngine, @unchecked Sendable {
    private let condition = NSCondition()
    private let makeSynthesizer: () throws -> SpeechSynthesizer
    private let logger: Logger
    private let wake: EventFD
    // Guarded by `condition`:
    private var pending: (id: Int, utterance: Utterance)?
    /// Requests up to this id are dropped (a newer one came, or `cancel`).
    private var droppedThrough = -1
    private var ready: [SpeechResult] = []
    private var thread: Thread?
    private var stopping = false
    private var exited = false

    /// - Parameter makeSynthesizer: called on the worker thread at the first request (espeak-ng
    ///   loads its data then, not at start-up); a failure is a log line and silence.
    public init(logger: Logger = Logger(label: "kiosk.speech"),
                makeSynthesizer: @escaping () throws -> SpeechSynthesizer) throws {
        self.makeSynthesizer = makeSynthesizer
        self.logger = logger
        wake = try EventFD()
    }

    public var readyDescriptor: Int32? { wake.fd }

    public func request(_ utterance: Utterance, id: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return }
        // Ids grow: every older request is dropped.
        droppedThrough = id - 1
        pending = (id, utterance)
        if thread == nil {
            let t = Thread { [self] in self.work() }
            t.name = "kiosk-speech"
            thread = t
            t.start()
        }
        condition.signal()
    }

    public func cancel() {
        condition.lock()
        pending = nil
        droppedThrough = Int.max
        ready = []
        condition.unlock()
    }

    public func takeResults() -> [SpeechResult] {
        wake.reset()
        condition.lock()
        defer { condition.unlock() }
        let r = ready
        ready = []
        return r
    }

    /// Ends the thread (waiting at most 2 seconds for a synthesis to stop).
    public func stop() {
        condition.lock()
        stopping = true
        droppedThrough = Int.max
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: 2)
        while thread != nil && !exited {
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
    }

    private func dropped(_ id: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return id <= droppedThrough || stopping
    }

    private func work() {
        var synthesizer: SpeechSynthesizer?
        var failed = false
        while true {
            condition.lock()
            while pending == nil && !stopping { condition.wait() }
            if stopping {
                exited = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let (id, utterance) = pending!
            pending = nil
            condition.unlock()

            if synthesizer == nil && !failed {
                do { synthesizer = try makeSynthesizer() } catch {
                    failed = true
                    logger.error("speech is silent: \(error)")
                }
            }
            guard let synthesizer else { continue }
            let start = MonotonicClock.now()
            do {
                let clip = try synthesizer.synthesize(utterance, shouldStop: { [unowned self] in self.dropped(id) })
                guard let clip, !dropped(id) else { continue }
                condition.lock()
                ready.append(SpeechResult(id: id, utterance: utterance, clip: clip, seconds: MonotonicClock.now() - start))
                condition.unlock()
                wake.signal()
            } catch {
                logger.error("speech: \(error) (\"\(utterance.text.prefix(40))\")")
            }
        }
    }
}
