import ArgumentParser

/// `layout`: Print the layout of every drawn item as JSON.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "layout", abstract: "Print the layout of every drawn item as JSON.")
    func run() throws { throw ValidationError("'layout' is not built yet") }
}
