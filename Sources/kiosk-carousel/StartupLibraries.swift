import Cards
import Foundation
import Input
import Kiosk
import LinuxSystem

/// `run`'s fonts' thread, started before the arguments are read: it opens the libraries the
/// first frame needs, which the kiosk opens with dlopen instead of by the loader before `main`
/// (docs/start-up.md, "The drawing libraries behind the start"), and loads the fonts, while the
/// main thread reads its arguments and its config. In order: fontconfig, and its configuration
/// and caches (`FcInit`, the longest part), and the installed families listed through it for the
/// config's font check (which then needs no pango for a font that is installed); cairo and pango;
/// pango's font map; the installed families listed through pango (`FontStartup`); then, once the
/// main thread has opened the screen and says what the first frame shows (`drawAhead`), that
/// frame's title and language badge (`FirstFrameAhead`), handed to the session as they are
/// drawn, while the main thread makes the components and draws the first frame without them.
/// The config's font check, after the first frame (`StartingConfigCheck`; before it in a run with
/// `--shot`), waits for fontconfig and its families. After those it runs 10 nice levels lower
/// (`CurrentThread.backgroundPriority`): nothing waits for the rest but the first frame's text.
/// One thread, not one per set:
/// with the main thread beside it that fills the two CPUs of the VM it was measured in, where a
/// third thread made the start slower, not faster. A set the main thread needs first it opens
/// itself (a call waits for a load under way on the other thread).
/// The other sets wait for their first call, off the first frame's path: the picture decoders
/// (the card workers' first pictures), libinput and libevdev (the input sources, after the first
/// frame), libasound (the first sound). One that cannot be opened is reported by the first call
/// that needs it, as an error where one can be reported (the input sources, the pictures, the
/// sound device), else with the loader's words as the program ends (cairo, pango, fontconfig:
/// the Debian package depends on every one of them).
enum StartupLibraries {
    /// Starts the thread (once). Call after the signal mask is set: it and the threads it starts
    /// (pango's) inherit it.
    static func openInBackground() {
        _ = started
    }

    /// The thread's steps and counts, for the start-up line (`StartupTimeline.threads`): under
    /// QEMU TCG its chain (fontconfig, then cairo and pango) is the longest beside the main
    /// thread's (docs/start-up.md).
    static let record = StartupThreadRecord(name: "fonts' thread")

    /// What the main thread says the first frame shows (`drawAhead`).
    private static let firstFrame = FirstFrameHandoff()

    /// Tells the fonts' thread what to draw ahead of the first frame, once the screen is open
    /// (nil: nothing — say it on every way out of `run` before that, so the thread ends). Only
    /// the first call counts. Its text box (`FirstFrameAhead.text`) is finished whatever
    /// happens: drawn, or given up when the thread cannot draw it.
    static func drawAhead(_ ahead: FirstFrameAhead?) {
        firstFrame.give(ahead)
    }

    /// The thread, made with `pthread_create` rather than Foundation's `Thread`, whose first use
    /// (its class, its start routine) delayed the thread's first step: 0.06 s after `main` in a
    /// boot under QEMU TCG, 0.04 s now (docs/start-up.md, stop 54). A thread that cannot be made
    /// leaves the loads to the first call that needs them (the config's font check).
    private static let started: Void = {
        var thread = pthread_t()
        if pthread_create(&thread, nil, { _ in StartupLibraries.work(); return nil }, nil) == 0 {
            pthread_detach(thread)
        } else {
            firstFrame.close()
        }
    }()

    private static func work() {
        record.begin()
        CurrentThread.setName("fonts")
        defer { record.finish() }
        // A first frame's text not drawn here is drawn by the session.
        defer { firstFrame.close() }
        guard FontStartup.loadConfiguration() else { return }
        record.mark("fontconfig")
        // The config's font check reads these while cairo and pango open (stop 56).
        FontStartup.listFamiliesThroughFontconfig()
        record.mark("fontconfig's families")
        // What the font check waits for is done: the rest (cairo and pango, the font map, the
        // first frame's text) yields to the main thread, as the card workers do (docs/start-up.md,
        // stop 70).
        // Threads started from here (pango's) inherit it.
        try? CurrentThread.lowerPriority(by: CurrentThread.backgroundPriority)
        guard (try? CardLibraries.loadDrawing()) != nil else { return }
        record.mark("cairo and pango")
        FontStartup.begin()
        record.mark("font map")
        FontStartup.listFamilies()
        record.mark("families")
        guard let ahead = firstFrame.take() else { return }
        record.mark("waiting for the screen")
        ahead.draw()
        record.mark("first frame ahead")
    }
}
