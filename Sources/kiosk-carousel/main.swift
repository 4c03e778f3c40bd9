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

KioskCarouselCommand.main()
