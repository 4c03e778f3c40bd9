import Foundation
import KioskConfig
import Raster

/// One card to draw on a worker.
struct RenderJob {
    var index: Int
    var version: Int
    var item: ItemConfig
    var width: Int
    var height: Int
}

/// A finished card, handed back to the main loop.
struct RenderResult {
    var job: RenderJob
    var texture: Texture
    var failure: CardFailure?
}

/// Jobs waiting for workers, nearest the focus first, and results waiting for the main loop.
/// The main loop replaces the wanted set each frame (jobs no longer wanted are dropped before
/// they start); workers block in `next()` until there is work or the queue is closed.
final class RenderQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Int: RenderJob] = [:]
    private var priority: [Int: Double] = [:]
    private var running: [Int: Int] = [:]   // index → version
    private var results: [RenderResult] = []
    private var finished = 0
    private var closed = false

    /// Replaces the jobs not yet started with `jobs` (with their distance from the focus).
    /// A job whose face is being drawn, or is drawn and waits for `takeResults`, at the same
    /// version is not queued again: the main loop asks for every face it lacks on every frame,
    /// and a face that takes longer than a frame (a slow board at start-up) would be drawn twice.
    func submit(_ jobs: [(job: RenderJob, distance: Double)]) {
        condition.lock()
        pending.removeAll(keepingCapacity: true)
        priority.removeAll(keepingCapacity: true)
        for (job, d) in jobs where running[job.index] != job.version
            && !results.contains(where: { $0.job.index == job.index && $0.job.version == job.version }) {
            pending[job.index] = job
            priority[job.index] = d
        }
        if !pending.isEmpty { condition.broadcast() }
        condition.unlock()
    }

    /// The nearest pending job; blocks while there is none. Nil once closed.
    func next() -> RenderJob? {
        condition.lock()
        defer { condition.unlock() }
        while !closed {
            if let (index, _) = priority.min(by: { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }) {
                priority[index] = nil
                guard let job = pending.removeValue(forKey: index) else { continue }
                running[index] = job.version
                return job
            }
            condition.wait()
        }
        return nil
    }

    func finish(_ result: RenderResult) {
        condition.lock()
        if running[result.job.index] == result.job.version { running[result.job.index] = nil }
        results.append(result)
        finished += 1
        condition.unlock()
    }

    /// Faces drawn by the workers since the start.
    var finishedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return finished
    }

    /// The results finished since the last call.
    func takeResults() -> [RenderResult] {
        condition.lock()
        defer { condition.unlock() }
        let r = results
        results.removeAll()
        return r
    }

    /// Number of jobs waiting or running.
    var outstanding: Int {
        condition.lock()
        defer { condition.unlock() }
        return pending.count + running.count
    }

    func close() {
        condition.lock()
        closed = true
        pending.removeAll()
        priority.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
