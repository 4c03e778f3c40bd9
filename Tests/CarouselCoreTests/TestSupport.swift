import XCTest
@testable import CarouselCore

/// Asserts the 16 entries of `t` (row by row, m11…m44) against `expected`.
func assertMatrix(_ t: Transform3D, _ expected: [Double], accuracy: Double = 1e-9,
                  file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(expected.count, 16, "expected 16 entries", file: file, line: line)
    for (i, (a, e)) in zip(t.entries, expected).enumerated() {
        XCTAssertEqual(a, e, accuracy: accuracy, "m\(i / 4 + 1)\(i % 4 + 1)", file: file, line: line)
    }
}

/// The transform the layout family of `options` gives an item at `offset`.
func layoutTransform(_ options: CarouselOptions, itemCount: Int = 8, view: Size2 = Size2(1280, 720),
                     toggle: Double = 0, offset: Double) -> Transform3D {
    LayoutEnvironment(options: options, itemCount: itemCount, viewSize: view, toggle: toggle).makeLayout().transform(offset: offset)
}

/// The layout family of `options`.
func layoutFamily(_ options: CarouselOptions, itemCount: Int = 8, view: Size2 = Size2(1280, 720), toggle: Double = 0) -> CarouselLayout {
    LayoutEnvironment(options: options, itemCount: itemCount, viewSize: view, toggle: toggle).makeLayout()
}

func options(_ type: CarouselType, vertical: Bool = false, itemSize: Size2 = Size2(200, 150),
             _ configure: (inout CarouselOptions) -> Void = { _ in }) -> CarouselOptions {
    var o = CarouselOptions()
    o.type = type
    o.vertical = vertical
    o.itemSize = itemSize
    configure(&o)
    return o
}

/// Rows of a translation-only item transform after iCarousel's base (perspective p, viewpoint v):
/// Tr(x, y, z) · Tr(−vx, −vy, 0) · P gives rows [1 0 0 0] [0 1 0 0] [0 0 1 p] [x−vx, y−vy, z, 1 + z·p].
func translationRows(_ x: Double, _ y: Double, _ z: Double, p: Double = -1.0 / 500, vx: Double = 0, vy: Double = 0) -> [Double] {
    [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, p, x - vx, y - vy, z, 1 + z * p]
}

/// A fixed-rate driver: ticks the engine at 120 Hz from `from` to `to` seconds.
func tickAt120Hz(_ e: CarouselEngine, from: Double, to: Double, hz: Double = 120) {
    var k = Int((from * hz).rounded(.up))
    while Double(k) / hz <= to + 1e-9 { e.tick(now: Double(k) / hz); k += 1 }
}

func names(_ events: [TimedCarouselEvent]) -> [String] {
    events.map { e in
        if case .currentIndexChanged(let i) = e.event { return "index\(i)" }
        if case .selected(let i) = e.event { return "selected\(i)" }
        return e.event.name
    }
}
