// Lifecycle module: the iOS lifecycle simulator (rules: docs/lifecycle-rules.md).
//
// - Model.swift: the vocabulary (states, styles, callbacks, streams, events, actions, warning codes).
// - LifecycleConfiguration.swift, TimelineEntry.swift: the app as configured; what the simulator returns.
// - Simulator.swift: `LifecycleSimulator`, a value driven by hand (`apply(_:at:)`, `advance(to:)`), returning
//   `TimelineEntry` values; the live panel and the engine's gates read it.
// - Scenario.swift: scenario files (docs/scenarios.md), parsed with TOMLKit, errors with file and line.
// - Timeline.swift: running a scenario; JSON lines (docs/scenarios.md) and the readable table.
// - InfoPlistCheck.swift: `lifecycle check` on an app's Info.plist.
// - TimelineSVG.swift: a run drawn as SVG for slides (`lifecycle run --svg`), and `XMLText` escaping.
// The rules, with their public sources, are summarised in docs/lifecycle-rules.md.
