/// A command that could not do its work for a reason found while running (not a wrong option):
/// printed as `Error: <description>` without the usage text that ArgumentParser adds to a
/// `ValidationError` (which, thrown from `run()`, would show the top-level usage).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
