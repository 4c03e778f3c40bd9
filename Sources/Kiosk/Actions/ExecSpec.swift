import KioskConfig

/// Everything needed to start one `exec` action: the program, how it shares the screen, how
/// long it may run, where it runs and which variables it gets on top of the kiosk's own.
public struct ExecSpec: Equatable, Sendable {
    /// The argument vector, `argv[0]` first. A name without `/` is looked up in the `PATH` the
    /// child will see. Never passed through a shell.
    public var argv: [String]
    /// `foreground`: the kiosk gives up the screen and input until the program exits;
    /// `background`: the kiosk keeps drawing.
    public var mode: ItemAction.ExecMode
    /// Seconds after which the program is sent SIGTERM (then SIGKILL after the runner's grace
    /// period); nil: no limit.
    public var timeout: Double?
    /// The child's working directory; nil: the runner's default (`[actions] working_directory`),
    /// or the kiosk's own when that is nil too.
    public var workingDirectory: String?
    /// Variables for this action only, applied after `[actions] env` (see `ActionEnvironment`).
    public var environment: [String: String]

    public init(argv: [String], mode: ItemAction.ExecMode = .foreground, timeout: Double? = nil,
                workingDirectory: String? = nil, environment: [String: String] = [:]) {
        self.argv = argv; self.mode = mode; self.timeout = timeout
        self.workingDirectory = workingDirectory; self.environment = environment
    }
}

/// What the runner is asked to do for one selection.
public enum ActionRequest: Equatable, Sendable {
    case exec(ExecSpec)
    case emit(String)

    /// The request for an item's configured action; nil for `.none`.
    public init?(_ action: ItemAction) {
        switch action {
        case .none: return nil
        case .exec(let argv, let mode, let timeout, let cwd, let env):
            self = .exec(ExecSpec(argv: argv, mode: mode, timeout: timeout, workingDirectory: cwd, environment: env))
        case .emit(let value): self = .emit(value)
        case .play: return nil   // the session plays clips itself
        }
    }
}
