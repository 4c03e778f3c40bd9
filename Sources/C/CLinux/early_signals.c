// Blocks SIGTERM, SIGINT, SIGHUP and SIGCHLD as the very first thing `kiosk-carousel run` does,
// before the Swift runtime starts, so that a signal arriving during start-up stays pending until
// the main loop's signalfd (Sources/Kiosk/Loop/SignalWatcher.swift) reads it, instead of killing
// the process with its default action (found by Tests/vm/fault-signals.sh: SIGTERM 150 ms after
// exec ended the kiosk with status 143 and no clean-up; SIGHUP during start-up killed it too).
// Only for `run`: the other subcommands keep the default actions (Ctrl-C ends a simulation).
#include <signal.h>
#include <string.h>

__attribute__((constructor)) static void kiosk_block_signals_early(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 2 || argv == NULL || argv[1] == NULL || strcmp(argv[1], "run") != 0) return;
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGHUP);
    sigaddset(&mask, SIGCHLD);
    sigprocmask(SIG_BLOCK, &mask, NULL);
}
