import CarouselCore

/// The `[idle]` state machine: attract mode, going home and blanking when nobody touches the
/// kiosk, and waking on the first input.
///
/// Driven entirely from outside with explicit time: `handle(_:now:)` for every input event
/// (or `inputOccurred(now:)` for other human activity), `update(now:)` when `nextDeadline` has
/// passed. The loop arms its timerfd for `nextDeadline` only, so nothing wakes the process in
/// between. Timeline, measured from the last input:
///
///     attract_after → attractBegan, then advance every attract_interval (or autoscroll)
///     home_after    → goHome(home_item) (once per idle period; attract mode carries on from there)
///     blank_after   → attractEnded (if attracting), blank
///     any input     → attractEnded (if attracting), delivered as usual
///     input while blanked → wake; that input and the rest of its gesture are swallowed
public final class IdleController {
    public enum Phase: Equatable, Sendable { case active, attract, blanked }

    /// What a `[[schedule]]` asks for outside its windows (`ScheduleController.idleOverride`),
    /// on top of `[idle]`. Both count from the later of the moment it began and the last input.
    public enum ScheduleOverride: Equatable, Sendable {
        /// Blank (no later than `[idle] blank_after` would); input wakes the screen for `wakeFor` s.
        case blank(wakeFor: Double)
        /// Attract mode (no later than `[idle] attract_after` would); `[idle] blank_after` is off.
        case attract(after: Double)
    }

    public private(set) var policy: IdlePolicy
    public private(set) var phase: Phase = .active
    /// True between `suspend` and `resume` (a foreground program owns the screen).
    public private(set) var isSuspended = false
    /// When the last input (or wake, resume, reconfigure) happened.
    public private(set) var lastInput: Double

    /// The schedule's override; nil inside opening hours or without a schedule.
    public private(set) var scheduleOverride: ScheduleOverride?
    private var overrideSince = 0.0
    /// The last input of a person (`handle`, `inputOccurred`): the schedule's override counts
    /// `wakeFor` from it, not from a start, resume or reload.
    private var lastPersonInput = -Double.infinity
    private var homeDone = false
    /// The warning of this idle period was given (`warn`).
    private var warned = false
    /// The person paused attract mode (`pause` key) until they press it again or the kiosk goes home.
    public private(set) var isAttractPaused = false
    private var nextAdvance: Double?
    /// The gesture that woke the screen, swallowed until it ends.
    private var swallowSlots: Set<Int> = []
    private var swallowKeys: Set<KeyName> = []
    private var swallowButton = false
    private var lastSwallowed = -Double.infinity

    public init(policy: IdlePolicy, now: Double) {
        self.policy = policy
        lastInput = now
    }

    /// True while the screen is off.
    public var isBlanked: Bool { phase == .blanked }

    /// The earliest time `update(now:)` has something to do; nil: nothing is due (all stages
    /// off or done, or suspended) and the loop need not arm a timer for idle.
    public var nextDeadline: Double? {
        guard !isSuspended else { return nil }
        var due: [Double] = []
        if let t = warnAt { due.append(t) }
        if phase == .active, let t = attractAt { due.append(t) }
        if !homeDone && policy.homeAfter > 0 { due.append(lastInput + policy.homeAfter) }
        if phase == .attract, let t = nextAdvance { due.append(t) }
        if phase != .blanked, let t = blankAt { due.append(t) }
        return due.min()
    }

    /// When going home or blanking acts next (what the warning is about); nil: neither is due.
    private var actsAt: Double? {
        var due: [Double] = []
        if !homeDone && policy.homeAfter > 0 { due.append(lastInput + policy.homeAfter) }
        if phase != .blanked, let t = blankAt { due.append(t) }
        return due.min()
    }

    /// When "Do you need more time?" is due: `warn_before` before `actsAt`, once per idle period.
    private var warnAt: Double? {
        guard policy.warnBefore > 0, !warned, phase != .blanked, let t = actsAt else { return nil }
        // Never in the first half of the wait: a warning longer than the stage would come at once.
        return max(t - policy.warnBefore, lastInput + (t - lastInput) / 2)
    }

    /// When attract mode is due: `[idle] attract_after`, or earlier by the schedule.
    private var attractAt: Double? {
        guard !isAttractPaused else { return nil }
        var t: Double? = policy.attractAfter > 0 ? lastInput + policy.attractAfter : nil
        if case .attract(let after) = scheduleOverride {
            let o = max(overrideSince, lastPersonInput + after)
            t = min(t ?? o, o)
        }
        return t
    }

    /// When blanking is due: `[idle] blank_after`, or earlier by the schedule (never while the
    /// schedule asks for attract mode).
    private var blankAt: Double? {
        let idle: Double? = policy.blankAfter > 0 ? lastInput + policy.blankAfter : nil
        switch scheduleOverride {
        case .attract?: return nil
        case .blank(let wakeFor)?:
            let o = max(overrideSince, lastPersonInput + wakeFor)
            return min(idle ?? o, o)
        case nil: return idle
        }
    }

    /// The schedule opened or closed. Closing starts the override's count (a person still
    /// using the kiosk keeps it for `wakeFor` s after their last touch); opening counts as
    /// activity: a blanked screen wakes (nothing swallowed), attract mode ends, `[idle]` counts
    /// from now. Returns what is due at once.
    public func setScheduleOverride(_ o: ScheduleOverride?, now: Double) -> [IdleAction] {
        guard o != scheduleOverride else { return [] }
        let old = scheduleOverride
        scheduleOverride = o
        overrideSince = now
        var actions: [IdleAction] = []
        if old != nil { actions = activity(now: now) }
        return actions + update(now: now)
    }

    /// Advances the timeline to `now`. A late call never produces a burst: at most one
    /// `advance`, and attract mode is skipped when blanking is due as well.
    public func update(now: Double) -> [IdleAction] {
        guard !isSuspended else { return [] }
        var actions: [IdleAction] = []
        if let w = warnAt, now >= w, let t = actsAt, now < t {
            warned = true
            actions.append(.warn(until: t))
        }
        let idle = now - lastInput
        let blankDue = blankAt.map { now >= $0 } ?? false
        if phase == .active, let t = attractAt, now >= t, !blankDue {
            phase = .attract
            if policy.steps {
                actions.append(.attractBegan(autoscroll: nil))
                nextAdvance = now + policy.attractInterval
            } else {
                actions.append(.attractBegan(autoscroll: policy.autoscrollSpeed != 0 ? policy.autoscrollSpeed : nil))
                nextAdvance = nil
            }
        }
        var wentHome = false
        if !homeDone && policy.homeAfter > 0 && idle >= policy.homeAfter {
            homeDone = true
            wentHome = true
            actions.append(.goHome(index: policy.homeItem))
            warned = false  // blanking, if it follows, warns again
            // The person who paused attract mode has left: it may run again.
            if isAttractPaused {
                isAttractPaused = false
                actions.append(.attractResumed)
            }
            if phase == .attract && nextAdvance != nil { nextAdvance = now + policy.attractInterval }
        }
        if phase == .attract && !wentHome && !blankDue, let t = nextAdvance, now >= t {
            actions.append(.advance)
            nextAdvance = now + policy.attractInterval
        }
        if phase != .blanked && blankDue {
            if phase == .attract { actions.append(.attractEnded) }
            phase = .blanked
            nextAdvance = nil
            actions.append(.blank)
        }
        return actions
    }

    /// Filters one input event: whether the gestures may see it, and what to do now.
    public func handle(_ event: InputEvent, now: Double) -> IdleInputVerdict {
        lastPersonInput = now
        if isSwallowing && now - lastSwallowed > policy.swallowExpiry { endSwallowing() }
        if isSwallowing && swallow(event) {
            lastInput = now
            lastSwallowed = now
            return IdleInputVerdict(deliver: false, actions: [])
        }
        if phase == .blanked {
            let actions = activity(now: now)
            beginSwallowing(event)
            lastSwallowed = now
            return IdleInputVerdict(deliver: false, actions: actions)
        }
        return IdleInputVerdict(deliver: true, actions: activity(now: now))
    }

    /// The `pause` key: stops attract mode (and keeps it from starting) until pressed again or
    /// the kiosk goes home; counts as activity.
    public func setAttractPaused(_ paused: Bool, now: Double) -> [IdleAction] {
        guard paused != isAttractPaused else { return [] }
        isAttractPaused = paused
        var actions = activity(now: now)
        actions.append(paused ? .attractPaused : .attractResumed)
        return actions
    }

    /// Human activity that is not an `InputEvent`: resets the timeline; wakes (without
    /// swallowing anything) or ends attract mode.
    public func inputOccurred(now: Double) -> [IdleAction] {
        lastPersonInput = now
        return activity(now: now)
    }

    /// A foreground program takes the screen: stop attract mode, wake, and freeze the timeline.
    public func suspend(now: Double) -> [IdleAction] {
        let actions = activity(now: now)
        isSuspended = true
        return actions
    }

    /// The kiosk has the screen back: the timeline restarts from `now`.
    public func resume(now: Double) {
        isSuspended = false
        lastInput = now
        homeDone = false
        warned = false
    }

    /// A reloaded `[idle]`: counts as activity (attract mode ends, the screen wakes) and the new
    /// timings run from `now`.
    public func reconfigure(_ policy: IdlePolicy, now: Double) -> [IdleAction] {
        self.policy = policy
        // Outside opening hours a blanked screen stays off (no DPMS on and off again).
        if phase == .blanked, case .blank? = scheduleOverride { return [] }
        return activity(now: now)
    }

    // MARK: - Private

    private func activity(now: Double) -> [IdleAction] {
        var actions: [IdleAction] = []
        switch phase {
        case .attract: actions.append(.attractEnded)
        case .blanked: actions.append(.wake)
        case .active: break
        }
        phase = .active
        nextAdvance = nil
        homeDone = false
        warned = false
        lastInput = now
        return actions
    }

    private var isSwallowing: Bool { !swallowSlots.isEmpty || !swallowKeys.isEmpty || swallowButton }

    private func endSwallowing() {
        swallowSlots.removeAll()
        swallowKeys.removeAll()
        swallowButton = false
    }

    /// Remembers what the waking event started, so the rest of that gesture is swallowed too.
    private func beginSwallowing(_ event: InputEvent) {
        switch event {
        case .touchDown(let slot, _, _): swallowSlots.insert(slot)
        case .pointerButton(pressed: true): swallowButton = true
        case .keyDown(let key): swallowKeys.insert(key)
        default: break
        }
    }

    /// True when `event` belongs to the swallowed gesture (and tracks its end).
    private func swallow(_ event: InputEvent) -> Bool {
        switch event {
        case .touchDown(let slot, _, _):
            // More fingers joining the waking touch belong to it.
            guard !swallowSlots.isEmpty else { return false }
            swallowSlots.insert(slot)
            return true
        case .touchMotion(let slot, _, _): return swallowSlots.contains(slot)
        case .touchUp(let slot), .touchCancel(let slot): return swallowSlots.remove(slot) != nil
        case .pointerMotion: return swallowButton
        case .pointerButton(pressed: false):
            guard swallowButton else { return false }
            swallowButton = false
            return true
        case .keyDown(let key): return swallowKeys.contains(key)  // auto-repeat
        case .keyUp(let key): return swallowKeys.remove(key) != nil
        default: return false
        }
    }
}
