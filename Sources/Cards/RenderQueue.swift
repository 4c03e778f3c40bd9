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
    private var closed = false

    /// Replaces the jobs not yet started with `jobs` (with their distance from the focus).
    func submit(_ jobs: [(job: RenderJob, distance: Double)]) {
        condition.lock()
        pending.removeAll(keepingCapacity: true)
        priority.removeAll(keepingCapacity: true)
        for (job, d) in jobs {
            pending[job.index] = job
            priority[job.index] = d
        }
        if !pending.isEmpty { condition.broadcast() }
        condition.unlock()
    }

    /// Is a job for `index` at `version` waiting or running?
    func isQueued(_ index: Int, version: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return pending[index]?.version == version || running[index] == version
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
        condition.unlock()
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
