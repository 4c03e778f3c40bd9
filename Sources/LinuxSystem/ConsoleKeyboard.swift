import CLinux
import Glibc

/// The virtual terminal's keyboard switched off while the kiosk runs (`KDSKBMODE` `K_OFF`, as
/// Weston and other compositors do). Under systemd the kiosk's standard input is its VT
/// (`TTYPath=/dev/tty1`), in the cooked mode a shell would want: a USB keyboard plugged into
/// the kiosk would type into it — Ctrl-C or Ctrl-\ send the kiosk SIGINT or SIGQUIT, Ctrl-Z
/// stops it until the watchdog restarts it, Ctrl-Alt-F2 switches the screen to another console.
/// With the keyboard off the console gets no keys at all; the kiosk and its programs read keys
/// through evdev (libinput), which this does not touch. `restore()` puts the mode back (and
/// systemd's `TTYReset=` does after a crash).
public final class ConsoleKeyboard {
    private let fd: Int32
    private let previous: Int32
    private var restored = false

    private init(fd: Int32, previous: Int32) {
        self.fd = fd
        self.previous = previous
    }

    deinit { restore() }

    /// Turns off the keyboard of the virtual terminal `fd` is (standard input by default).
    /// Returns nil when `fd` is not a virtual terminal (a pipe, a serial line, no terminal): there
    /// is no console keyboard to turn off. Throws when it is one and the mode cannot be set.
    public static func turnOff(fd: Int32 = STDIN_FILENO) throws -> ConsoleKeyboard? {
        var mode: Int32 = 0
        guard retryingOnEINTR({ kiosk_ioctl_ptr(fd, UInt(KDGKBMODE), &mode) }) == 0 else { return nil }
        guard retryingOnEINTR({ kiosk_ioctl_int(fd, UInt(KDSKBMODE), UInt(K_OFF)) }) == 0 else {
            throw SystemCallError(call: "ioctl KDSKBMODE K_OFF", subject: "the console (standard input)")
        }
        return ConsoleKeyboard(fd: fd, previous: mode)
    }

    /// The mode the keyboard had before (`K_UNICODE`, `K_XLATE`…).
    public var previousMode: Int32 { previous }

    /// Gives the console its keyboard back, once.
    public func restore() {
        guard !restored else { return }
        restored = true
        _ = retryingOnEINTR { kiosk_ioctl_int(fd, UInt(KDSKBMODE), UInt(previous)) }
    }
}
