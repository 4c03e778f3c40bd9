import ArgumentParser

/// `bench`: speed and memory figures, printed. Build with `-c release` before quoting them.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench",
        abstract: "Benchmarks: the engine, the compositor, the card renderer, video items, the frame budget table, render scaling, speech.",
        subcommands: [BenchEngineCommand.self, BenchCompositeCommand.self, BenchSuiteCommand.self, BenchCardsCommand.self,
                      BenchVideoCommand.self, BenchPerfTableCommand.self, BenchScaleCommand.self, BenchSpeechCommand.self])
}
