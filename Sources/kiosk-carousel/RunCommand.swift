import ArgumentParser

/// `run`: Run the kiosk.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the kiosk.")
    func run() throws { throw ValidationError("'run' is not built yet") }
}
