import ArgumentParser
import Foundation
import KioskConfig

/// `check-config FILE`: like `nginx -t`, validates without running anything.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check-config",
        abstract: "Parse and validate a config file: prints OK, or every problem as FILE:LINE:COLUMN: message.",
        discussion: "Exits 0 when the file is valid, 1 when it has problems. docs/configuration.md lists every key.")
    @Argument(help: "The config file.") var file: String

    func run() throws {
        do {
            _ = try ConfigLoader.load(path: file)
            print("OK")
        } catch let e as ConfigErrors {
            print(e.description)
            throw ExitCode(1)
        }
    }
}
