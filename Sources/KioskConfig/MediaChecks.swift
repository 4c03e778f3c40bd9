/// Checks of media files that need libraries the configuration module does not link (FFmpeg).
/// The program installs them where a deep check is wanted — `check-config` probes every video's
/// container and codec — and leaves them unset in `run`, whose reloads happen on the loop and
/// must stay quick: there a bad clip shows the card's "!" face and a log line instead.
public enum MediaChecks {
    /// Given a video file's absolute path, why it cannot be played here (nil when it can).
    /// Set once at start-up, before any configuration is loaded.
    nonisolated(unsafe) public static var video: ((String) -> String?)?
}
