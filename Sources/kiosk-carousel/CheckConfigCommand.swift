import ArgumentParser
import Foundation
import KioskConfig
import Cards

/// `check-config FILE`: like `nginx -t`, validates without running anything.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check-config",
        abstract: "Parse and validate a config file: prints OK, or every problem as FILE:LINE:COLUMN: message.",
        usage: "kiosk-carousel check-config FILE",
        discussion: "Exits 0 when the file is valid, 1 when it has problems. A setting that validates but will not do what it asks (an [update] url without a [control] socket, an item text without a translation into one of [languages] available) is printed after OK as FILE:LINE:COLUMN: warning: message; the exit status stays 0. Every clip is opened and every font looked up: a container or codec this machine cannot decode, or a font none of whose families is installed, is a problem, as it is for `simulate` and for `run` at start and on every reload. docs/configuration.md lists every key.")
    @Argument(help: "The config file.") var file: String

    func run() throws {
        do {
            // Every clip is opened (its container read, a decoder for its codec found), as
            // `simulate` and `run` do.
            let config = try ConfigLoader.load(path: file, media: MediaFileCheck.kiosk)
            print("OK")
            // Settings that validate but will not do what they ask: said, and still OK.
            for w in config.warnings { print("\(w.file):\(w.line):\(w.column): warning: \(w.message)") }
            // With [usb] import on, the content a stick brought is checked with the file.
            if let content = config.importedContent { print("with the content from a USB stick: \(content)") }
            for d in config.importedContentProblems { print("the content from a USB stick is not used: \(d)") }
        } catch let e as ConfigErrors {
            print(e.description)
            throw ExitCode(1)
        }
    }
}
