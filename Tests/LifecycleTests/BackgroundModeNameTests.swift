import Testing
@testable import Lifecycle

/// `BackgroundMode.rawValue` is spelled out (it was made from `"\(self)"` by reflection, every frame): each
/// is still the case's name in kebab-case, Apple's spelling, and reads back to its case.
@Suite struct BackgroundModeNameTests {
    @Test func everyValueIsTheCaseNameInKebabCase() {
        for mode in BackgroundMode.allCases {
            let kebab = "\(mode)".map { $0.isUppercase ? "-" + $0.lowercased() : String($0) }.joined()
            #expect(mode.rawValue == kebab)
            #expect(BackgroundMode(rawValue: kebab) == mode)
        }
    }
}
