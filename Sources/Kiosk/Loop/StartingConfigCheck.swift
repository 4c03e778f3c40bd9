import KioskConfig

/// How far the configuration a kiosk starts with was checked (`KioskApp.init`).
public enum StartingConfigCheck {
    /// Checked whole before the start, its fonts looked up and clips opened (or made by hand:
    /// tests, the problem card's defaults).
    case done
    /// Read without its fonts looked up and its clips opened (`run`: fontconfig is still loading
    /// and a clip's probe takes tens of milliseconds, docs/start-up.md stop 71). The loop checks
    /// the file once its first frame went to the display (`ConfigReload`): a file with problems
    /// then gives way to the problem card, as it would have at start. `parses` holds the first
    /// reading's parse, so that the check does not parse the same text again.
    case afterFirstFrame(parses: ParsedTextCache?)
}
