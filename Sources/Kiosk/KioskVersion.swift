/// The program's version, printed by `--version`.
public enum KioskVersion {
    public static let string = "0.1.0"
}
