import ArgumentParser
import Foundation
import Input
import Kiosk
import KioskConfig

/// The `kiosk-carousel` command line: one type per subcommand.
struct KioskCarouselCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk-carousel",
        abstract: "A full-screen carousel for Linux kiosks, drawn on the CPU and shown through DRM/KMS.",
        version: KioskVersion.string,
        subcommands: [RunCommand.self, CheckConfigCommand.self, SimulateCommand.self, LayoutCommand.self, DisplayTestCommand.self,
                      RecordCommand.self, BenchCommand.self, ConfigReferenceCommand.self])
}

/// Parses `WxH`.
func parseSize(_ s: String) throws -> (Int, Int) {
    let parts = s.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 16384, h <= 16384 else {
        throw ValidationError("--size must look like 1280x720 (1 to 16384 each), not '\(s)'")
    }
    return (w, h)
}

KioskCarouselCommand.main()
