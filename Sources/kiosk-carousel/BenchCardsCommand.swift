import ArgumentParser

/// `cards`: Card render times and cache memory.
struct BenchCardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cards", abstract: "Card render times and cache memory.")
    func run() throws { throw ValidationError("'cards' is not built yet") }
}
