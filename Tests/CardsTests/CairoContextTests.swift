import CCardLibs
import Foundation
import KioskConfig
import Raster
import XCTest
@testable import Cards

/// A cairo context is destroyed under `FontLock` only when it can hold a scaled font (text was
/// laid out on it, or an SVG document drawn): a loading face or the page dots drawn on the main
/// thread do not wait for text another thread is drawing (the first frame drawn ahead of it, the
/// card workers).
final class CairoContextTests: XCTestCase {
    /// Holds `FontLock` on another thread while `body` runs on this one; true when `body` ended
    /// while the lock was still held there. The other thread lets go when `body` has ended, or
    /// after `atMost` seconds (a `body` that waits for the lock then goes on, and the answer is
    /// false).
    private func endsWhileFontLockIsHeldElsewhere(atMost: Double = 10, _ body: () -> Void) -> Bool {
        let held = DispatchSemaphore(value: 0), letGo = DispatchSemaphore(value: 0)
        let released = Flag()
        let holder = Thread {
            FontLock.withLock {
                held.signal()
                _ = letGo.wait(timeout: .now() + atMost)
                released.set()
            }
        }
        holder.start()
        held.wait()
        body()
        let ended = !released.isSet
        letGo.signal()
        return ended
    }

    /// A flag one thread sets and another reads.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.lock(); value = true; lock.unlock() }
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    }

    func testAContextThatOnlyFilledIsDestroyedWithoutWaitingForTheFontLock() {
        let texture = Texture(width: 40, height: 30)
        XCTAssertTrue(endsWhileFontLockIsHeldElsewhere {
            let ctx = CairoContext(texture: texture)
            ctx.roundedRect(x: 2, y: 2, width: 36, height: 26, radius: 6)
            ctx.setColor(0xFF33_6699)
            cairo_fill(ctx.cr)
            ctx.flush()
            XCTAssertFalse(ctx.mayHoldFonts)
        })
        XCTAssertEqual(texture.pixels[15 * 40 + 20], 0xFF33_6699, "it drew")
    }

    func testAContextWithTextIsDestroyedUnderTheFontLock() {
        let texture = Texture(width: 120, height: 40)
        var last: CairoContext? = {
            let ctx = CairoContext(texture: texture)
            XCTAssertFalse(ctx.mayHoldFonts)
            TextBlock(text: "Kiosk", font: "DejaVu Sans", size: 20, color: 0xFFFF_FFFF, alignment: "left", lines: 1, bold: false)
                .layout(on: ctx, width: 110).draw(on: ctx, x: 4, y: 4, shadow: false)
            XCTAssertTrue(ctx.mayHoldFonts)
            return ctx
        }()
        // The other thread lets go after 0.3 s: a destroy that did not wait would have ended by then.
        XCTAssertFalse(endsWhileFontLockIsHeldElsewhere(atMost: 0.3) { last = nil },
                       "destroyed only once the other thread let go of the lock")
        XCTAssertNil(last)
    }

    func testAnSVGDocumentsTextCountsAsText() throws {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="60" height="20"><text x="2" y="15" font-family="DejaVu Sans" font-size="12">Hi</text></svg>
            """
        let doc = try SVGDocument(Array(svg.utf8), file: "text.svg")
        let ctx = CairoContext(texture: Texture(width: 60, height: 20))
        try doc.render(on: ctx, x: 0, y: 0, width: 60, height: 20)
        XCTAssertTrue(ctx.mayHoldFonts)
    }
}
