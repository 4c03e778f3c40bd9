import ArgumentParser
import Foundation
import Input
import Kiosk
import KioskConfig
import LinuxSystem
import Raster
import Video

/// The `kiosk-carousel` command line: one type per subcommand.
struct KioskCarouselCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk-carousel",
        abstract: "A full-screen carousel for Linux kiosks, drawn on the CPU and shown through DRM/KMS.",
        version: KioskVersion.string,
        subcommands: [RunCommand.self, CheckConfigCommand.self, SimulateCommand.self, LayoutCommand.self, DisplayTestCommand.self,
                      RecordCommand.self, BenchCommand.self, ConfigReferenceCommand.self, USBImportCommand.self,
                      UpdateCommand.self,                       CommandListCommand.self])
}

/// When `main` began, on the monotonic clock: `run`'s start-up line tells the time before it
/// (the sandbox, the loader, the runtime) from the arguments' parsing (`StartupTimeline`).
let mainStarted = MonotonicClock.now()
/// The main thread's counts then (time on a CPU, waiting for one, pages read since the fork).
let mainStartedAccounting = ThreadAccounting.current()

// `--version` also says which compositor loops this CPU gets and what this machine can decode
// (probing the V4L2 devices only then).
if CommandLine.arguments.dropFirst() == ["--version"] {
    print(KioskVersion.string)
    print("compositor: \(InstructionSet.best.rawValue) loops (built: "
          + InstructionSet.allCases.filter(\.isBuilt).map { $0.rawValue + ($0.isAvailable ? "" : " [not on this CPU]") }.joined(separator: ", ") + ")")
    print(VideoCapabilities.current().summary)
    exit(0)
}
// `run` starts fontconfig's load (and sets the signal mask its thread inherits) before the
// arguments are parsed: the two overlap (docs/start-up.md, stop 47). A failure here is
// `run`'s own to report: it does the same again.
if CommandLine.arguments.dropFirst().first == "run" {
    try? RunCommand.prepareProcess()
    // Options written plainly, as the unit writes them, are read without swift-argument-parser
    // (RunPlainArguments.swift; docs/start-up.md, stop 48); an error ends the program as
    // `main()` would end it. Anything else goes to the parser below.
    if let options = RunOptions(plainArguments: Array(CommandLine.arguments.dropFirst(2))) {
        do { try options.run() } catch { KioskCarouselCommand.exit(withError: error) }
        exit(0)
    }
}
KioskCarouselCommand.main()
