import ArgumentParser

/// `engine`: Tick + layout cost for 10^2, 10^4 and 10^6 items.
struct BenchEngineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "engine", abstract: "Tick + layout cost for 10^2, 10^4 and 10^6 items.")
    func run() throws { throw ValidationError("'engine' is not built yet") }
}
