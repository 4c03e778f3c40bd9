import Foundation
import Raster
import KioskConfig
import XCTest
@testable import Cards

final class FolderAndWatcherTests: XCTestCase {
    func testFolderItemsSortedNaturallyWithTitles() throws {
        let tmp = TempDir()
        for name in ["photo10.jpg", "photo2.JPG", "lake_at-dusk.png", "notes.txt", ".hidden.png", "icon.svg", "b.webp"] {
            tmp.write(name, text: "x")
        }
        try FileManager.default.createDirectory(atPath: tmp.file("sub.png"), withIntermediateDirectories: true)
        let items = try FolderItems.items(in: tmp.path)
        XCTAssertEqual(items.map(\.id), ["file:b.webp", "file:icon.svg", "file:lake_at-dusk.png", "file:photo2.JPG", "file:photo10.jpg"])
        XCTAssertEqual(items[2].title, "lake at dusk")
        XCTAssertEqual(FolderItems.title(fromFileName: "03-lake__at-dusk.jpg"), "lake at dusk")
        XCTAssertEqual(FolderItems.title(fromFileName: "2024.jpg"), "2024")
        XCTAssertEqual(items[2].image, tmp.file("lake_at-dusk.png"))
        XCTAssertThrowsError(try FolderItems.items(in: tmp.file("missing")))
        XCTAssertTrue(FolderItems.naturalOrder("a2", "a10"))
        XCTAssertFalse(FolderItems.naturalOrder("a10", "a2"))
        XCTAssertTrue(FolderItems.naturalOrder("A1", "b1"))
    }

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
