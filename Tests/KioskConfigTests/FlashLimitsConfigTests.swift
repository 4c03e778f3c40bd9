import XCTest
@testable import KioskConfig

/// EN 301 549 11.2.3.1: a config asking the kiosk to turn faster than 3 items a second, or to
/// step attract mode more than twice a second, still loads (it did before the limits), is warned
/// about at its key, and is held to the limits.
final class FlashLimitsConfigTests: XCTestCase {
    func testTooFastIsWarnedAboutAtItsKeyAndHeldToTheLimit() throws {
        let fixture = ConfigFixture()
        let config = try fixture.load("""
            [carousel]
            autoscroll = -10

            [idle]
            attract_interval = 0.1
            attract_autoscroll = 4
            """)
        XCTAssertEqual(config.carousel.autoscroll, -3)
        XCTAssertEqual(config.idle.attractAutoscroll, 3)
        XCTAssertEqual(config.idle.attractInterval, 0.5)
        XCTAssertEqual(config.warnings.map { "\($0.line):\($0.column)" }, ["2:1", "5:1", "6:1"])
        XCTAssertTrue(config.warnings[0].message.hasPrefix("autoscroll faster than 3 items a second"), config.warnings[0].message)
        XCTAssertTrue(config.warnings[1].message.hasPrefix("attract_interval below 0.5 s"), config.warnings[1].message)

        let calm = try fixture.load("[carousel]\nautoscroll = 0.5\n[idle]\nattract_interval = 5\n")
        XCTAssertEqual(calm.warnings, [])
        XCTAssertEqual(calm.carousel.autoscroll, 0.5)
    }
}
