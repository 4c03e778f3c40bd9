/// The environment a launched program gets.
///
/// Start from the kiosk's own environment (or from nothing when `[actions] inherit_environment`
/// is false), remove the variables that belong to the kiosk's service manager (`NOTIFY_SOCKET`, `WATCHDOG_USEC`, `WATCHDOG_PID`, `LISTEN_FDS`,
/// `LISTEN_PID`, `LISTEN_FDNAMES`: a child must never ping the kiosk's watchdog or claim its
/// sockets), apply `[actions] env`, then the action's own variables, then set
/// `KIOSK_ITEM_INDEX` and `KIOSK_ITEM_ID`. A variable set to the empty string in `[actions] env`
/// or the action is removed instead.
public enum ActionEnvironment {
    /// Variables never passed on to a child.
    public static let withheld: Set<String> = [
        "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
    ]

    /// The merged environment, as described above.
    public static func merge(base: [String: String], inherit: Bool = true, settings: [String: String],
                             action: [String: String], itemIndex: Int, itemID: String) -> [String: String] {
        var env = inherit ? base.filter { !withheld.contains($0.key) } : [:]
        for layer in [settings, action] {
            for (k, v) in layer {
                if v.isEmpty { env.removeValue(forKey: k) } else { env[k] = v }
            }
        }
        env["KIOSK_ITEM_INDEX"] = String(itemIndex)
        env["KIOSK_ITEM_ID"] = itemID
        return env
    }

    /// `NAME=value` strings in name order (stable, for tests and logs).
    static func entries(_ env: [String: String]) -> [String] {
        env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }
}
