import Foundation
import KioskConfig
import LinuxSystem
import Raster
import XCTest
@testable import Cards

final class CardPipelineTests: XCTestCase {
    let tmp = TempDir()

    func items(_ n: Int, image: String? = nil) -> [ItemConfig] {
        (0..<n).map { ItemConfig(id: "i\($0)", title: "Item \($0)", image: image) }
    }

    /// Waits on the eventfd and drains until `done` or 10 s pass.
    func pump(_ p: CardPipeline, now: Double = 0, until done: () -> Bool) {
        let fd = EventFDView(fd: p.eventFD)
        let deadline = Date().addingTimeInterval(10)
        while !done() && Date() < deadline {
            _ = fd.wait(timeout: 0.5)
            p.drainCompleted(now: now)
        }
    }

    func testWorkersHandBackThroughEventFDAndFadeIn() {
        var options = CardPipeline.Options()
        options.workers = 2
        options.fadeDuration = 0.2
        let p = CardPipeline(items: items(5), cardWidth: 120, cardHeight: 90, options: options)
        XCTAssertGreaterThanOrEqual(p.eventFD, 0)
        let before = p.face(at: 2, now: 0)
        XCTAssertFalse(before.isReady)
        p.request(visible: [1, 2, 3], focus: 2)
        pump(p, now: 10) { (1...3).allSatisfy { p.isReady($0) } }
        XCTAssertTrue((1...3).allSatisfy { p.isReady($0) })
        // Fading from the loading face at 10.0 for 0.2 s.
        let start = p.face(at: 2, now: 10)
        XCTAssertEqual(start.opacity, 0, accuracy: 1e-9)
        XCTAssertNotNil(start.underlay)
        XCTAssertEqual(start.quads(corners: [], alpha: 1).count, 1 + (start.opacity > 0 ? 1 : 0))
        let mid = p.face(at: 2, now: 10.1)
        XCTAssertEqual(mid.opacity, 0.5, accuracy: 1e-9)
        XCTAssertTrue(p.isAnimating(now: 10.1))
        let done = p.face(at: 2, now: 10.3)
        XCTAssertEqual(done.opacity, 1)
        XCTAssertNil(done.underlay)
        XCTAssertFalse(p.isAnimating(now: 10.3))
        XCTAssertFalse(done.texture.mipLevels.isEmpty, "mip levels are built on the worker")
    }

    /// The nice value of each of this process's threads named `prefix…` (proc(5): field 19 of
    /// `/proc/self/task/TID/stat`, counted after the name's last `)`).
    func niceValues(ofThreadsNamed prefix: String) -> [Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { tid -> Int? in
            guard let comm = try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8),
                  comm.hasPrefix(prefix),
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 16 ? Int(fields[16]) : nil
        }
    }

    func testWorkersDrawAtABackgroundPriorityBelowTheLoops() throws {
        var options = CardPipeline.Options()
        options.workers = 2
        let p = CardPipeline(items: items(3), cardWidth: 120, cardHeight: 90, options: options)
        p.request(visible: [0, 1, 2], focus: 1)
        pump(p) { (0...2).allSatisfy { p.isReady($0) } }
        XCTAssertTrue((0...2).allSatisfy { p.isReady($0) })
        let loop = try CurrentThread.priority()
        let background = Int(min(19, loop + CurrentThread.backgroundPriority))
        // Each worker names itself and lowers its priority as its first statements: one may have
        // drawn all three faces before the other ran at all, so wait for both (10 s, as pump does).
        let deadline = Date().addingTimeInterval(10)
        var workers = niceValues(ofThreadsNamed: "card-worker-")
        while (workers.count < 2 || workers.contains { $0 != background }) && Date() < deadline {
            usleep(10_000)
            workers = niceValues(ofThreadsNamed: "card-worker-")
        }
        XCTAssertGreaterThanOrEqual(workers.count, 2, "this pipeline's two workers")
        for nice in workers {
            XCTAssertEqual(nice, background, "a face waits; a frame must not")
        }
    }

    func testSynchronousModeIsDeterministicWithoutFades() {
        var options = CardPipeline.Options()
        options.synchronous = true
        let a = CardPipeline(items: items(4), cardWidth: 100, cardHeight: 80, options: options)
        let b = CardPipeline(items: items(4), cardWidth: 100, cardHeight: 80, options: options)
        a.request(visible: [0, 1, 2, 3], focus: 0)
        b.request(visible: [0, 1, 2, 3], focus: 0)
        for i in 0..<4 {
            let fa = a.face(at: i, now: 0), fb = b.face(at: i, now: 0)
            XCTAssertTrue(fa.isReady)
            XCTAssertEqual(fa.opacity, 1)
            XCTAssertNil(fa.underlay)
            XCTAssertTrue(memcmp(fa.texture.pixels, fb.texture.pixels, 100 * 80 * 4) == 0)
        }
        XCTAssertEqual(a.drainCompleted(now: 0), [])
    }

    func testCacheStaysWithinBoundWhileScrollingAndRerendersWhatComesBack() {
        let photo = tmp.write("p.jpg", JPEGEncoder.encode(TestPictures.landscape(width: 640, height: 480)))
        var options = CardPipeline.Options()
        options.synchronous = true
        // A 160×120 card with mips is 102,400 bytes; room for 6.
        options.cacheBytes = 6 * 102_400 + 1000
        let p = CardPipeline(items: items(40, image: photo), cardWidth: 160, cardHeight: 120, options: options)
        for f in 0..<40 {
            let visible = Array(max(0, f - 2)...min(39, f + 2))
            p.request(visible: visible, focus: Double(f))
            XCTAssertTrue(visible.allSatisfy { p.isReady($0) })
            XCTAssertLessThanOrEqual(p.cacheBytes, options.cacheBytes)
        }
        XCTAssertLessThanOrEqual(p.peakCacheBytes, options.cacheBytes)
        XCTAssertFalse(p.isReady(0), "far items were evicted")
        p.request(visible: [0, 1, 2], focus: 0)
        XCTAssertTrue(p.isReady(0), "and drawn again when they came back")
    }

    func testUpdateKeepsUnchangedFacesEvenWhenMoved() {
        var options = CardPipeline.Options()
        options.synchronous = true
        let p = CardPipeline(items: items(3), cardWidth: 80, cardHeight: 60, options: options)
        p.request(visible: [0, 1, 2], focus: 1)
        let face0 = p.face(at: 0, now: 0).texture
        var changed = items(3)
        changed[2].title = "Renamed"
        let moved = [changed[2], changed[0], changed[1], ItemConfig(id: "new", title: "New")]
        XCTAssertEqual(p.update(items: moved), [0, 3])
        XCTAssertTrue(p.isReady(1))
        XCTAssertTrue(p.face(at: 1, now: 0).texture === face0)
        XCTAssertTrue(p.isReady(2))
        XCTAssertFalse(p.isReady(0), "the renamed item is drawn again")
        XCTAssertFalse(p.isReady(3))
        XCTAssertTrue(p.face(at: 0, now: 0).isReady, "its old face shows until then")
        p.request(visible: [0, 1, 2, 3], focus: 1)
        XCTAssertTrue((0...3).allSatisfy { p.isReady($0) })
    }

    func testInvalidateRerendersOnlyItemsShowingThatFile() throws {
        let a = tmp.write("a.jpg", JPEGEncoder.encode(TestPictures.landscape(width: 64, height: 48)))
        let b = tmp.write("b.jpg", JPEGEncoder.encode(TestPictures.landscape(width: 64, height: 48)))
        var options = CardPipeline.Options()
        options.synchronous = true
        let list = [ItemConfig(id: "a", title: "", image: a), ItemConfig(id: "b", title: "", image: b),
                    ItemConfig(id: "a2", title: "", image: a)]
        let p = CardPipeline(items: list, cardWidth: 64, cardHeight: 48, options: options)
        p.request(visible: [0, 1, 2], focus: 1)
        let bFace = p.face(at: 1, now: 0).texture
        try TexturePNG.write(Texture(width: 8, height: 8) { _, _ in 0xFFFF_0000 }, to: a)   // now a red PNG
        XCTAssertEqual(p.invalidate(paths: [a]), [0, 2])
        XCTAssertFalse(p.isReady(0))
        XCTAssertTrue(p.isReady(1))
        p.request(visible: [0, 1, 2], focus: 1)
        XCTAssertTrue(p.face(at: 1, now: 0).texture === bFace)
        XCTAssertEqual(p.face(at: 0, now: 0).texture[32, 24], 0xFFFF_0000)
    }

    func testChangedFileCrossFadesFromTheOldFace() {
        let a = tmp.write("a.jpg", JPEGEncoder.encode(TestPictures.landscape(width: 64, height: 48)))
        var options = CardPipeline.Options()
        options.workers = 1
        let p = CardPipeline(items: [ItemConfig(id: "a", title: "", image: a)], cardWidth: 64, cardHeight: 48, options: options)
        p.request(visible: [0], focus: 0)
        pump(p) { p.isReady(0) }
        let old = p.face(at: 0, now: 5).texture
        p.invalidate(paths: [a])
        p.request(visible: [0], focus: 0)
        pump(p, now: 6) { p.isReady(0) }
        let f = p.face(at: 0, now: 6.05)
        XCTAssertTrue(f.underlay === old)
        XCTAssertFalse(f.texture === old)
    }

    func testWrapDistanceAndPrefetch() {
        var options = CardPipeline.Options()
        options.wraps = true
        options.prefetch = 1
        options.workers = 1
        let p = CardPipeline(items: items(10), cardWidth: 32, cardHeight: 24, options: options)
        p.request(visible: [9, 0, 1], focus: 0)
        XCTAssertEqual(p.distance(9), 1)
        pump(p) { [8, 9, 0, 1, 2].allSatisfy { p.isReady($0) } }
        XCTAssertTrue(p.isReady(8) && p.isReady(2), "neighbours are drawn ahead")
        XCTAssertFalse(p.isReady(5))
    }

    func testPlaceholderFaceIsCached() {
        let p = CardPipeline(items: [], cardWidth: 50, cardHeight: 40)
        XCTAssertTrue(p.placeholderFace(style: CardStyle()) === p.placeholderFace(style: CardStyle()))
        XCTAssertFalse(p.face(at: 3, now: 0).isReady)
    }
}

/// Polls an fd the way the kiosk's epoll would.
struct EventFDView {
    let fd: Int32
    func wait(timeout: Double) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, Int32(timeout * 1000)) > 0
    }
}
