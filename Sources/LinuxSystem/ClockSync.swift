import CLinux

/// Whether the kernel says the system clock is synchronised (`adjtimex` without `STA_UNSYNC`):
/// what NTP daemons (systemd-timesyncd, chrony, ntpd) report once they have set it. False when
/// it cannot be read.
public func systemClockSynchronised() -> Bool { kiosk_clock_synchronised() == 1 }
