import Foundation
import Raster
import KioskConfig
import XCTest
@testable import Cards

final class MediaWatcherTests: XCTestCase {
    func testWatcherSeesWritesAndAtomicRenames() throws {
        let tmp = TempDir()
        let photo = tmp.write("photo.jpg", text: "v1")
        let watcher = try MediaWatcher()
        XCTAssertEqual(watcher.watch(files: [photo]), [])
        XCTAssertEqual(watcher.drainChangedPaths(), [])
        try Data("v2".utf8).write(to: URL(fileURLWithPath: photo))            // written in place
        XCTAssertTrue(EventFDView(fd: watcher.fd).wait(timeout: 2))
        XCTAssertTrue(watcher.drainChangedPaths().contains(photo))
        let temp = tmp.write("photo.jpg.tmp", text: "v3")                       // atomic replace
        XCTAssertEqual(rename(temp, photo), 0)
        XCTAssertTrue(EventFDView(fd: watcher.fd).wait(timeout: 2))
        let changed = watcher.drainChangedPaths()
        XCTAssertTrue(changed.contains(photo), "\(changed)")
        XCTAssertTrue(watcher.folderChanged)
        XCTAssertEqual(watcher.watch(files: ["/no/such/dir/x.png"]), ["/no/such/dir"])
    }

    /// Watching the same folders again keeps the events already queued (the loop re-watches
    /// after every reload; a folder emptied file by file lost its last deletion), and a folder
    /// made (again) inside a watched one counts as a changed path at once.
    func testRewatchKeepsQueuedEventsAndAFolderMadeIsAChange() throws {
        let tmp = TempDir()
        let media = tmp.file("media")
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: false)
        let watcher = try MediaWatcher()
        XCTAssertEqual(watcher.watch(files: [media], folders: [media]), [])
        let b = tmp.write("media/b.png", text: "b")
        XCTAssertTrue(EventFDView(fd: watcher.fd).wait(timeout: 2))
        XCTAssertEqual(watcher.watch(files: [media], folders: [media]), [])
        XCTAssertTrue(watcher.drainChangedPaths().contains(b), "the write before the re-watch is still reported")

        try FileManager.default.removeItem(atPath: media)
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: false)
        XCTAssertTrue(EventFDView(fd: watcher.fd).wait(timeout: 2))
        XCTAssertTrue(watcher.drainChangedPaths().contains(media), "the folder made again")
        // The new folder is another inode: watching the same path again watches it.
        XCTAssertEqual(watcher.watch(files: [media], folders: [media]), [])
        let c = tmp.write("media/c.png", text: "c")
        XCTAssertTrue(EventFDView(fd: watcher.fd).wait(timeout: 2))
        XCTAssertTrue(watcher.drainChangedPaths().contains(c))
    }
}

/// The loop's path for a picture changed on disk: inotify → `invalidate(paths:)` → only that
/// card is drawn again.
final class ChangedFileTests: XCTestCase {
    func testWatcherAndPipelineRedrawOnlyTheChangedCard() throws {
        let tmp = TempDir()
        let a = tmp.write("a.jpg", JPEGEncoder.encode(TestPictures.landscape(width: 64, height: 48)))
        let b = tmp.write("b.jpg", JPEGEncoder.encode(TestPictures.landscape(width: 64, height: 48)))
        var options = CardPipeline.Options()
        options.synchronous = true
        let items = [ItemConfig(id: "a", title: "", image: a), ItemConfig(id: "b", title: "", image: b)]
        let cards = CardPipeline(items: items, cardWidth: 64, cardHeight: 48, options: options)
        let watcher = try MediaWatcher()
        watcher.watch(files: items.compactMap(\.image))
        cards.request(visible: [0, 1], focus: 0)
        let before = (cards.face(at: 0, now: 0).texture, cards.face(at: 1, now: 0).texture)
        let temp = tmp.file("b.jpg.new")
        try TexturePNG.write(Texture(width: 8, height: 8) { _, _ in 0xFF00_FF00 }, to: temp)
        XCTAssertEqual(rename(temp, b), 0)
        XCTAssertTrue(EventFDView(fd: watcher.fd).wait(timeout: 2))
        XCTAssertEqual(cards.invalidate(paths: watcher.drainChangedPaths()), [1])
        cards.request(visible: [0, 1], focus: 0)
        XCTAssertTrue(cards.face(at: 0, now: 0).texture === before.0)
        XCTAssertFalse(cards.face(at: 1, now: 0).texture === before.1)
        XCTAssertEqual(cards.face(at: 1, now: 0).texture[32, 24], 0xFF00_FF00)
    }
}
