import ArgumentParser
import KioskConfig

/// `config-reference`: prints docs/configuration.md, generated from the config schema.
struct ConfigReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "config-reference",
        abstract: "Print the configuration reference (every key, type, default, range, example) as Markdown.",
        discussion: "docs/configuration.md is this output: kiosk-carousel config-reference > docs/configuration.md")

    func run() throws {
        print(ConfigReference.markdown(), terminator: "")
    }
}
