import KioskConfig
import Raster
import XCTest
@testable import Cards

/// The queue between the main loop and the card workers: the loop replaces what it wants on
/// every frame, and a face already being drawn or drawn and waiting is not queued again.
final class RenderQueueTests: XCTestCase {
    func job(_ index: Int, version: Int) -> (job: RenderJob, distance: Double) {
        (RenderJob(index: index, version: version, item: ItemConfig(id: "i\(index)", title: "Item \(index)"), width: 8, height: 6),
         Double(index))
    }

    func result(of job: RenderJob) -> RenderResult {
        RenderResult(job: job, texture: Texture(width: 8, height: 6), failure: nil)
    }

    func testAFaceBeingDrawnOrWaitingIsNotQueuedAgain() throws {
        let queue = RenderQueue()
        queue.submit([job(0, version: 1), job(1, version: 2)])
        XCTAssertEqual(queue.outstanding, 2)
        let first = try XCTUnwrap(queue.next())
        XCTAssertEqual(first.index, 0, "nearest first")
        // The next frame asks for both again: item 0 is being drawn.
        queue.submit([job(0, version: 1), job(1, version: 2)])
        XCTAssertEqual(queue.outstanding, 2, "item 0 running, item 1 waiting: not item 0 twice")
        queue.finish(result(of: first))
        // Drawn, not taken yet: still not queued again.
        queue.submit([job(0, version: 1), job(1, version: 2)])
        XCTAssertEqual(queue.outstanding, 1, "only item 1")
        XCTAssertEqual(try XCTUnwrap(queue.next()).index, 1)
        // A new version of item 0 (its look changed) is queued although the old one waits.
        queue.submit([job(0, version: 3)])
        XCTAssertEqual(queue.outstanding, 2, "item 0 at version 3, and item 1 running")
        XCTAssertEqual(queue.takeResults().map(\.job.version), [1])
        XCTAssertEqual(queue.finishedCount, 1)
        // Once taken, the face is the cache's: a request for it again is a new drawing.
        queue.submit([job(0, version: 1)])
        XCTAssertEqual(queue.outstanding, 2, "item 0 queued again, item 1 running")
        queue.close()
    }

    /// The pipeline as the loop drives it: a request on every frame while the workers draw.
    func testEveryFaceIsDrawnOnceWhileFramesKeepAsking() {
        let items = (0..<6).map { ItemConfig(id: "i\($0)", title: "Item \($0) with a longer title to lay out") }
        var options = CardPipeline.Options()
        options.workers = 2
        let pipeline = CardPipeline(items: items, cardWidth: 480, cardHeight: 360, options: options)
        let deadline = Date().addingTimeInterval(30)
        var frames = 0
        while !(0..<items.count).allSatisfy(pipeline.isReady) && Date() < deadline {
            pipeline.request(visible: [0, 1, 2, 3], focus: 0)
            pipeline.drainCompleted(now: 0)
            frames += 1
        }
        XCTAssertTrue((0..<items.count).allSatisfy(pipeline.isReady), "every face within 30 s")
        XCTAssertGreaterThan(frames, items.count, "the loop asked while the workers drew")
        XCTAssertEqual(pipeline.facesDrawn, items.count, "each face once, after \(frames) requests")
        XCTAssertEqual(pipeline.outstandingJobs, 0)
    }
}
