import Testing

/// Every test that talks to a JACK server runs inside this suite, one at a time: jack2's libjack keeps
/// process-wide state for one server, so in-process test clients of two servers at once would crash, and
/// two cores cannot run several real-time servers well anyway.
@Suite(.serialized) enum JACK {}
