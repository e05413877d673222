import Testing

@testable import AASAAudit

/// ``PathPairStateMachine`` without sockets: every state and event, and the seven cases of a
/// domain's two paths that `PathPairFetch.swift`'s header comment specifies (ConnectionReuseTests
/// runs them end to end against nginx).
struct PathPairStateMachineTests {
    typealias Machine = PathPairStateMachine

    /// A machine driven through `events`; the state it ends in.
    static func machine(_ events: (inout Machine) -> Void) -> Machine {
        var machine = Machine()
        events(&machine)
        return machine
    }

    @Test("1. the first's connection is up: the second goes behind it, and the reuse wait starts")
    func sentBehind() {
        var machine = Machine()
        #expect(machine.connectionOffered(paced: false) == [.startReuseWait, .sendBehind])
        #expect(machine.state == .pipelined)
        #expect(machine.connectionOffered(paced: false) == [], "offered once")
    }

    @Test("2. under --rate nothing goes behind: the second waits for the first's answer, then its kept connection")
    func pacedWaitsForTheAnswer() {
        var machine = Machine()
        #expect(machine.connectionOffered(paced: true) == [.startReuseWait])
        #expect(machine.state == .waiting)
        #expect(
            machine.firstFinished(kept: true, failedBeforeConnection: false) == [
                .cancelReuseWait, .sendOnKeptConnection,
            ])
        #expect(machine.state == .started)
    }

    @Test("3. the answer behind the first is the second's result; the first's kept connection is closed")
    func answeredBehind() {
        var machine = Self.machine { _ = $0.connectionOffered(paced: false) }
        #expect(
            machine.firstFinished(kept: true, failedBeforeConnection: false) == [
                .cancelReuseWait, .closeKeptConnection,
            ])
        #expect(machine.state == .pipelined, "the answer behind is still to come")
        #expect(machine.answerBehindCame() == [.completeWithAnswerBehind])
        #expect(machine.state == .started)
        #expect(machine.answerBehindCame() == [])
    }

    @Test("4. the first left no connection open and the second went nowhere: its own connection")
    func ownConnectionAfterTheFirst() {
        var machine = Machine()
        #expect(
            machine.firstFinished(kept: false, failedBeforeConnection: false) == [
                .cancelReuseWait, .startOwnConnection,
            ])
        #expect(machine.state == .started)
        #expect(
            machine.firstFinished(kept: true, failedBeforeConnection: false) == [
                .cancelReuseWait, .closeKeptConnection,
            ])
    }

    @Test("5. the answer behind came unanswered (the connection closed first): the executor fetches it on its own")
    func unansweredBehind() {
        // The machine's part: the answer behind completes the second; `completeWithAnswerBehind`
        // is executed by onOwnConnectionIfUnanswered (ConnectionReuseTests covers the refetch).
        var machine = Self.machine { _ = $0.connectionOffered(paced: false) }
        #expect(machine.firstFinished(kept: false, failedBeforeConnection: false) == [.cancelReuseWait])
        #expect(machine.answerBehindCame() == [.completeWithAnswerBehind])
    }

    @Test("6. the reuse wait ran out: an answer coming is waited for; otherwise the second goes on its own")
    func reuseWait() {
        var answering = Self.machine { _ = $0.connectionOffered(paced: false) }
        #expect(answering.reuseWaitEnded(firstAnswering: true) == [])
        #expect(answering.state == .pipelined)

        var behind = Self.machine { _ = $0.connectionOffered(paced: false) }
        #expect(behind.reuseWaitEnded(firstAnswering: false) == [.giveUpBehind, .startOwnConnection])
        #expect(behind.state == .started)
        #expect(behind.answerBehindCame() == [], "an answer given up on is ignored")
        #expect(behind.reuseWaitEnded(firstAnswering: false) == [])

        var paced = Self.machine { _ = $0.connectionOffered(paced: true) }
        #expect(paced.reuseWaitEnded(firstAnswering: false) == [.startOwnConnection])
        #expect(
            paced.firstFinished(kept: true, failedBeforeConnection: false) == [.cancelReuseWait, .closeKeptConnection])
    }

    @Test("7. no connection for the first: the second is not requested and shares its failure")
    func notRequested() {
        var machine = Machine()
        #expect(machine.firstFinished(kept: false, failedBeforeConnection: true) == [.cancelReuseWait, .notRequested])
        #expect(machine.state == .started)
        // A failure after the connection was up (the answer broke off): its own connection.
        var later = Machine()
        #expect(
            later.firstFinished(kept: false, failedBeforeConnection: false) == [.cancelReuseWait, .startOwnConnection])
    }
}
