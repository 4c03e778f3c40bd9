import ArgumentParser

/// `composite`: Render a ../shared/bench scene and print a RESULT line.
struct BenchCompositeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "composite", abstract: "Render a ../shared/bench scene and print a RESULT line.")
    func run() throws { throw ValidationError("'composite' is not built yet") }
}
