import TextOutput
// Lifecycle module: the iOS lifecycle simulator. The rules it implements, with their public sources, are
// in docs/lifecycle-rules.md; comments write its section N as "rules §N". docs/ARCHITECTURE.md places the
// module in the house.
//
// - The vocabulary, one file per type or close family: AppState, Callback (and LifecycleStyle),
//   SessionCategory (and SessionOption), BackgroundMode, StreamConfig (and StreamKind, PlayerContent),
//   Handler (and HandlerAction), LifecycleEvent, LifecycleWarning (and WarningCode).
// - LifecycleConfiguration.swift, TimelineEntry.swift: the app as configured; what the simulator returns.
// - LifecycleRules.swift: the rules as tables and pure functions (callbacks per style and transition,
//   handlers that never run, what keeps a backgrounded app alive).
// - LifecycleSimulator.swift (+State, +Events, +Time): `LifecycleSimulator`, a value driven by hand
//   (`apply(_:at:)`, `advance(to:)`) that returns `TimelineEntry` values; the live panel and the engine's
//   gates read it.
// - Scenario.swift: scenario files (docs/scenarios.md), parsed with the TOML module, errors with file and line.
// - Timeline.swift: running a scenario; JSON lines (docs/scenarios.md) and the readable table.
// - InfoPlistCheck.swift: `lifecycle check` on an app's Info.plist.
// - TimelineSVG.swift: a run drawn as SVG for slides (`lifecycle run --svg`), and `XMLText` escaping.
// - LiveSession.swift, LiveSession+Keys.swift, LifecycleKey.swift: the simulator as the live panel drives it.
