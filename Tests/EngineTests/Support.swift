// The binary lookup, fixtures and audio analysis shared by the test targets (Tests/TestSupport). Nothing in
// this target launches a process of Backbeat's or a JACK server: those tests are in EngineSystemTests.
@_exported import TestSupport
