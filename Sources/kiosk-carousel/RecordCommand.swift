import ArgumentParser

/// `record`: Write real device input as a simulate script.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "record", abstract: "Write real device input as a simulate script.")
    func run() throws { throw ValidationError("'record' is not built yet") }
}
