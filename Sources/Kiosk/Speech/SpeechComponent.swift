import Audio
import Cards
import CarouselCore
import JSON
import KioskConfig
import LinuxSystem
import Speech

/// Speech (EN 301 549 5.1.3; docs/accessibility.md): says the focused item's title when the
/// focus changes, then its subtitle and description when the carousel rests; what a selection
/// did; every notice and problem card shown (the idle warning too). Any press stops speech at
/// once; the `repeat` key says the last utterance again; the `speech` key and the headphone
/// jack turn it on and off (`[accessibility] speech`); the volume keys change the level, spoken,
/// and it returns to the default at idle.
///
/// It looks at the scene after each pass of the loop (`prepare`; `Simulator` calls `observe`
/// after each step) and hears input before the behaviour does (`inputReceived`). Synthesis
/// runs off the loop (`SpeechEngine`): a clip comes back through the engine's descriptor and
/// goes to the `SpeechOutput` only if nothing newer was asked for meanwhile.
final class SpeechComponent: KioskComponent {
    private unowned let context: KioskContext
    private var behavior: KioskBehavior { context.behavior }
    private let engine: SpeechEngine?
    private let output: SpeechOutput?
    private let volumeControl: VolumeControl?
    /// The language of the text on the screen (`[languages]`; "en" without it): speech is in it
    /// (EN 301 549 5.1.3.14).
    private var language: String { behavior.language.current }

    private(set) var speechSwitch: SpeechSwitch
    private(set) var volume: VolumeLevel
    /// The last thing said (the `repeat` key says it again).
    private(set) var lastUtterance: Utterance?
    /// What is said once the utterance being said ends (the focused item's details).
    private var followUp: String?
    /// When the utterance being said ends (its clip's length; estimated without an output);
    /// nil: not known yet (being synthesized) or nothing said.
    private var speakingUntil: Double?
    /// The request whose clip is wanted; older clips are dropped.
    private var wantedID: Int?
    private var nextID = 0
    private var seen: Scene
    /// The item whose details were queued since the focus came to it.
    private var detailsQueuedFor: Int?

    /// What the component compares from pass to pass.
    private struct Scene: Equatable {
        var index: Int
        var message: MessageCard?
        var selections: [String: Int]
        var resting: Bool
        /// The language shown: a change says the focus (or the card) again in it (5.1.3.14).
        var language: String
    }

    init(settings: SpeechSettings, setup: SpeechSetup, context: KioskContext) {
        self.context = context
        engine = setup.engine
        output = setup.output
        volumeControl = setup.volume
        speechSwitch = SpeechSwitch(mode: settings.mode)
        volume = VolumeLevel(standard: setup.volume?.volume ?? setup.standardVolume)
        seen = Scene(index: -1, message: nil, selections: [:], resting: false, language: "")
        seen = scene()
    }

    var isOn: Bool { speechSwitch.isOn }

    func attach(to reactor: Reactor) throws {
        guard let fd = engine?.readyDescriptor else { return }
        try reactor.watch(fd) { [unowned self] in self.deliver(now: self.context.now) }
    }

    func configAdopted(_ config: KioskConfiguration) {
        guard config.speech.mode != speechSwitch.mode else { return }
        let wasOn = isOn
        speechSwitch.mode = config.speech.mode
        speechSwitch.reset()
        if wasOn && !isOn { silence() }
        // Off, the scene was not followed (`observe`): from here on it is.
        if !wasOn && isOn { seen = scene() }
    }

    func report(into health: inout KioskHealth) {
        health.speechOn = isOn
        health.volume = volume.level
    }

    func stop(now: Double) {
        silence()
        engine?.stop()
    }

    // MARK: Input

    /// Every input event, before the behaviour takes it.
    func inputReceived(_ event: InputEvent, now: Double) {
        switch event {
        case .headphones(let plugged):
            let wasOn = isOn
            speechSwitch.headphones(plugged: plugged)
            switched(from: wasOn, reason: plugged ? "headphones_plugged" : "headphones_unplugged", now: now)
        case .keyDown(.speech):
            let wasOn = isOn
            speechSwitch.toggle()
            switched(from: wasOn, reason: "key", now: now)
        case .keyDown(.repeat):
            guard isOn else { return }
            if let u = lastUtterance { say(u.text, now: now) } else { sayFocus(now: now, prefix: nil) }
        case .keyDown(.volumeUp), .keyDown(.volumeDown):
            let up = event == .keyDown(.volumeUp)
            guard volume.change(by: up ? 1 : -1) else {
                if isOn { say(SpokenText.volume(volume.level, language: language), now: now) }
                return
            }
            volumeChanged(now: now)
        case .keyDown, .touchDown, .pointerButton(pressed: true), .pointerAxis, .rotary:
            // The person acts: speech stops at once (5.1.3.5); the new focus is said after the pass.
            if isOn { silence() }
        case .keyUp, .touchMotion, .touchUp, .touchCancel, .pointerMotion, .pointerButton:
            break
        }
    }

    /// Speech was turned on or off: the event, and (`announce`) what the person hears.
    private func switched(from wasOn: Bool, reason: String, now: Double, announce: Bool = true) {
        guard wasOn != isOn else { return }
        behavior.line(time: now, name: isOn ? "speech_on" : "speech_off", fields: [("reason", JSONString.quoted(reason))])
        if isOn && !announce {
            seen = scene()
        } else if isOn {
            seen = scene()
            sayFocus(now: now, prefix: SpokenText.speechOn(language))
        } else {
            silence()
            lastUtterance = nil
            // Whoever pressed the key hears that it worked.
            if reason == "key" { say(SpokenText.speechOff(language), now: now) }
        }
    }

    private func volumeChanged(now: Double) {
        handOverVolume(now: now)
        if isOn { say(SpokenText.volume(volume.level, language: language), now: now) }
    }

    /// The new level to the sound output, and its `volume` event.
    private func handOverVolume(now: Double) {
        volumeControl?.volume = volume.level
        behavior.line(time: now, name: "volume", fields: [("level", String(format: "%.1f", volume.level))])
    }

    // MARK: The scene

    func prepare(now: Double) { observe(now: now) }

    var nextDeadline: Double? { followUp == nil ? nil : speakingUntil }

    func deadlineReached(now: Double) {
        guard let text = followUp, let until = speakingUntil, now >= until - 1e-9 else { return }
        followUp = nil
        say(text, now: now)
    }

    /// Compares the scene with the last pass's and says what changed.
    func observe(now: Double) {
        let idle = behavior.idle
        let atIdle = idle.phase != .active
            || (idle.policy.homeAfter > 0 && now - idle.lastInput >= idle.policy.homeAfter - 1e-9)
        if atIdle { returnToDefaults(now: now) }
        // Off, nothing is said and the scene is not looked at (a kiosk without speech pays
        // nothing per pass); turned on, `seen` starts again from the scene then (`switched`,
        // `configAdopted`).
        guard isOn else { return }
        let current = scene()
        defer { seen = current }
        guard idle.phase == .active, !behavior.blanked else { return }
        let items = behavior.session.config.items
        let newLanguage = current.language != seen.language
        if newLanguage { detailsQueuedFor = nil }
        if current.message != seen.message || newLanguage, let card = current.message {
            say(SpokenText.card(card), now: now)
        } else if current.selections != seen.selections,
                  let id = current.selections.first(where: { seen.selections[$0.key] != $0.value })?.key,
                  let item = items.first(where: { $0.id == id }) {
            say(SpokenText.selected(item, playingFullscreen: behavior.video.isPlayingFullscreen, language: language), now: now)
        } else if current.index != seen.index || newLanguage, current.message == nil {
            sayFocus(now: now, prefix: nil)
        }
        if current.resting, current.message == nil, detailsQueuedFor != current.index, items.indices.contains(current.index) {
            detailsQueuedFor = current.index
            let details = SpokenText.details(items[current.index])
            if !details.isEmpty { followUp = details }
        }
    }

    private func scene() -> Scene {
        let session = behavior.session
        return Scene(index: session.position.index, message: behavior.sceneCards.shownMessage,
                     selections: behavior.selections, resting: !session.needsTick && !session.isTracking,
                     language: language)
    }

    /// At idle (attract, home, blank): the volume and the `speech` key's choice return to the defaults.
    private func returnToDefaults(now: Double) {
        if volume.reset() { handOverVolume(now: now) }
        let wasOn = isOn
        speechSwitch.reset()
        // Nobody is there to hear it: turned on again, it speaks at the next change.
        switched(from: wasOn, reason: "idle", now: now, announce: false)
    }

    // MARK: Saying

    /// Says `text` now when speech is on: for what another component shows that is not a card
    /// (`context.component(SpeechComponent.self)?.announce(…)`); a card shown through
    /// `SceneCards` is said without it.
    func announce(_ text: String, now: Double) {
        guard isOn else { return }
        say(text, now: now)
    }

    /// The focused item: `prefix` and its title (its details follow when the carousel rests).
    private func sayFocus(now: Double, prefix: String?) {
        let items = behavior.session.config.items
        let index = behavior.session.position.index
        if let card = behavior.sceneCards.shownMessage {
            say(SpokenText.sentences([prefix, SpokenText.card(card)]), now: now)
            return
        }
        guard items.indices.contains(index) else {
            if let prefix { say(prefix, now: now) }
            return
        }
        say(SpokenText.sentences([prefix, SpokenText.title(items[index])]), now: now)
        detailsQueuedFor = nil
    }

    /// Says `text` now, replacing what is being said.
    private func say(_ text: String, now: Double) {
        guard !text.isEmpty else { return }
        let u = Utterance(text: text, language: language)
        silence()
        lastUtterance = u
        behavior.line(time: now, name: "spoken", fields: [("text", JSONString.quoted(u.text)),
                                                         ("language", JSONString.quoted(u.language))])
        nextID += 1
        wantedID = nextID
        if let engine, output != nil {
            engine.request(u, id: nextID)
            deliver(now: now)
        } else {
            // Nothing to hear it on: the time it would take, for what follows it.
            speakingUntil = now + Self.estimatedSeconds(text)
        }
    }

    /// The clips the engine finished: the wanted one is said.
    private func deliver(now: Double) {
        guard let engine else { return }
        for r in engine.takeResults() where r.id == wantedID {
            wantedID = nil
            output?.say(r.clip)
            speakingUntil = now + Double(r.clip.samples.count) / Double(max(1, r.clip.sampleRate * r.clip.channels))
        }
    }

    /// Stops what is being said and what was to follow.
    private func silence() {
        if wantedID != nil || speakingUntil != nil || output?.isSpeaking == true {
            output?.stopSpeech()
        }
        engine?.cancel()
        wantedID = nil
        speakingUntil = nil
        followUp = nil
    }

    /// About how long espeak-ng takes to say `text` at 160 words a minute.
    static func estimatedSeconds(_ text: String) -> Double { 0.3 + Double(text.count) * 0.065 }
}
