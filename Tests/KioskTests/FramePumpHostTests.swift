import Display
import Kiosk
import KioskConfig
import LinuxSystem
import Logging
import XCTest

/// `FramePumpHost`: the kiosk's frame pump drawing a scene a tool steps itself (display-test).
final class FramePumpHostTests: XCTestCase {
    /// A client that writes down what it hears and ends the run after `passes` passes.
    private final class Client: FramePumpClient {
        unowned let reactor: Reactor
        var holdsFrames = false
        var passes = 0
        let endAfter: Int
        var heard: [String] = []
        var frames: [PresentedFrame] = []

        init(reactor: Reactor, endAfter: Int) { self.reactor = reactor; self.endAfter = endAfter }

        func prepare(now: Double) {
            passes += 1
            heard.append("prepare")
            if passes > endAfter { reactor.stop() }
        }
        /// Another pass at once, until the end.
        var nextDeadline: Double? { reactor.now }
        func framePresented(_ frame: PresentedFrame) { heard.append("frame"); frames.append(frame) }
        func frameFailed(_ error: Error) { heard.append("failed") }
        func displayChanged(width: Int, height: Int) { heard.append("display \(width)x\(height)") }
    }

    private final class After: ReactorSource {
        let client: Client
        init(_ client: Client) { self.client = client }
        func prepare(now: Double) { client.heard.append("after") }
    }

    private func run(endAfter: Int, holding: Bool = false) throws -> (Client, FramePumpHost) {
        let sim = try Simulator(plan: SimulationPlan(config: KioskConfiguration(), width: 64, height: 48), log: try EventLog(path: nil))
        let reactor = try Reactor()
        let client = Client(reactor: reactor, endAfter: endAfter)
        client.holdsFrames = holding
        let host = FramePumpHost(behavior: sim.behavior, display: HeadlessDisplay(width: 64, height: 48),
                                 reactor: reactor, logger: Logger(label: "test"), client: client, afterFrame: After(client))
        try host.attach()
        reactor.run()
        return (client, host)
    }

    /// The scene's first frame is drawn once, after the client's work and before `afterFrame`;
    /// nothing changes after it, so no more frames.
    func testThePumpDrawsTheChangedSceneOnceBetweenTheClientAndAfterFrame() throws {
        let (client, host) = try run(endAfter: 3)
        XCTAssertEqual(client.heard, ["prepare", "frame", "after", "prepare", "after", "prepare", "after", "prepare"])
        XCTAssertEqual(client.frames.map(\.count), [1])
        XCTAssertEqual(client.frames.first?.sceneChanged, true, "the new scene asked for it, not the display")
        XCTAssertEqual(host.framesPresented, 1)
    }

    /// A client that holds frames (display-test while a shot is shown) keeps the pump off.
    func testAClientHoldingFramesKeepsThePumpOff() throws {
        let (client, host) = try run(endAfter: 2, holding: true)
        XCTAssertEqual(client.heard, ["prepare", "after", "prepare", "after", "prepare"])
        XCTAssertEqual(host.framesPresented, 0)
    }
}
