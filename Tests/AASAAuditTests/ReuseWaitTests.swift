import Foundation
import Testing

@testable import AASAAudit

/// The second path's wait for the first: follows answered first paths, within its bounds.
struct ReuseWaitTests {
    @Test func theWaitFollowsAnsweredFirstPathsWithinItsBounds() {
        let wait = ReuseWait(timeout: 10)
        #expect(wait.current == 1)  // nothing seen yet
        wait.record(3)
        #expect(wait.current == 5)  // 4 × 3 s, cut to half the timeout
        for _ in 0..<200 { wait.record(0.01) }
        #expect(wait.current == 1)  // never under 1 s
        wait.record(.nan)
        wait.record(-1)
        #expect(wait.current == 1)
        let between = ReuseWait(timeout: 10)
        between.record(0.5)
        #expect(between.current == 2)
        #expect(ReuseWait(timeout: 1).current == 0.5)  // half a short timeout
    }
}
