import Testing

@testable import AASAAudit

/// Every transition of ``FetchConnectionStateMachine``, without a socket: each state, each
/// event, and the actions in their order. The cases of PathPairFetch.swift's header comment
/// that happen on one connection are here by name; the rest are the path pair's (timers,
/// `--rate`) and are tested end to end (ConnectionReuseTests).
struct FetchConnectionStateMachineTests {
    typealias Machine = FetchConnectionStateMachine
    static let cap = 100

    /// A machine driven to `state` by the events that lead there.
    static func machine(_ state: Machine.State) -> Machine {
        var machine = Machine(maximumBodySize: cap)
        switch state {
        case .securing: break
        case .awaitingHead(let behind): _ = machine.handshakeCompleted(sendingBehind: behind)
        case .readingBody(let received, let reusable, let behind):
            _ = machine.handshakeCompleted(sendingBehind: behind)
            _ = machine.head(contentLength: nil, reusable: reusable)
            if received > 0 { _ = machine.body(count: received) }
        case .kept:
            _ = machine.handshakeCompleted(sendingBehind: false)
            _ = machine.head(contentLength: 10, reusable: true)
            _ = machine.end(behindWaiting: false)
        case .finished:
            _ = machine.closed()
        }
        #expect(machine.state == state, "driven to \(state)")
        return machine
    }

    @Test func aNewConnectionSendsOnceTLSIsUp() {
        var alone = Machine(maximumBodySize: Self.cap)
        #expect(alone.state == .securing)
        #expect(alone.handshakeCompleted(sendingBehind: false) == [.sendCurrent, .flush])
        #expect(alone.state == .awaitingHead(behind: false))
        // The second path sent right behind the first, written after it.
        var pair = Machine(maximumBodySize: Self.cap)
        #expect(pair.handshakeCompleted(sendingBehind: true) == [.sendCurrent, .sendBehind, .flush])
        #expect(pair.state == .awaitingHead(behind: true))
        // A second handshake event changes nothing.
        #expect(pair.handshakeCompleted(sendingBehind: false) == [])
        #expect(pair.state == .awaitingHead(behind: true))
    }

    @Test func aHeadStartsTheBodyOrEndsAnAnswerAnnouncedOverTheCap() {
        for behind in [false, true] {
            var machine = Self.machine(.awaitingHead(behind: behind))
            #expect(machine.head(contentLength: Self.cap, reusable: true) == [])  // exactly the cap: read
            #expect(machine.state == .readingBody(received: 0, reusable: true, behind: behind))

            var over = Self.machine(.awaitingHead(behind: behind))
            // One byte over the cap: nothing worth reading; the request behind gets no answer here.
            #expect(
                over.head(contentLength: Self.cap + 1, reusable: true)
                    == [.finishAnswered(truncated: true, leaveOpen: false)] + (behind ? [.releaseBehind] : []))
            #expect(over.state == .finished)
        }
        // No head is expected before TLS, or after the answer.
        for state: Machine.State in [
            .securing, .kept, .finished, .readingBody(received: 0, reusable: true, behind: false),
        ] {
            var machine = Self.machine(state)
            #expect(machine.head(contentLength: nil, reusable: true) == [], "\(state)")
            #expect(machine.state == state)
        }
    }

    @Test func theBodyIsKeptUpToTheCapExactly() {
        var machine = Self.machine(.readingBody(received: 0, reusable: true, behind: false))
        #expect(machine.body(count: 60) == [.keepBody(count: 60)])
        #expect(machine.body(count: 40) == [.keepBody(count: 40)])  // 100: exactly the cap
        #expect(machine.state == .readingBody(received: 100, reusable: true, behind: false))
        // One byte more: cut, and the answer ends here.
        #expect(machine.body(count: 1) == [.finishAnswered(truncated: true, leaveOpen: false)])
        #expect(machine.state == .finished)

        var partly = Self.machine(.readingBody(received: 90, reusable: true, behind: true))
        #expect(
            partly.body(count: 20) == [
                .keepBody(count: 10), .finishAnswered(truncated: true, leaveOpen: false), .releaseBehind,
            ])
        #expect(partly.body(count: 5) == [], "nothing after the cut")
    }

    /// PathPairFetch.swift: "Its answer follows the first's when that leaves the connection
    /// open", "otherwise ... `second` goes on a connection of its own".
    @Test func theEndOfAnAnswerHandsTheConnectionOnKeepsItOrClosesIt() {
        // Reusable, a request behind still waiting: it is answered next, on this connection.
        var handOver = Self.machine(.readingBody(received: 5, reusable: true, behind: true))
        #expect(
            handOver.end(behindWaiting: true) == [.finishAnswered(truncated: false, leaveOpen: true), .promoteBehind])
        #expect(handOver.state == .awaitingHead(behind: false))
        // The promoted request's answer is read as any other.
        #expect(handOver.head(contentLength: 3, reusable: false) == [])
        #expect(handOver.end(behindWaiting: false) == [.finishAnswered(truncated: false, leaveOpen: false)])
        #expect(handOver.state == .finished)

        // Reusable, nothing behind: the connection is kept for the next request.
        var keep = Self.machine(.readingBody(received: 5, reusable: true, behind: false))
        #expect(keep.end(behindWaiting: false) == [.finishKeepingConnection])
        #expect(keep.state == .kept)

        // Reusable, but the request behind was given up on (it waited too long): closed.
        var givenUp = Self.machine(.readingBody(received: 5, reusable: true, behind: true))
        #expect(
            givenUp.end(behindWaiting: false) == [.finishAnswered(truncated: false, leaveOpen: false), .releaseBehind])
        #expect(givenUp.state == .finished)

        // Not reusable (Connection: close, HTTP/1.0, or no framing): closed, the request behind released.
        for behind in [false, true] {
            var close = Self.machine(.readingBody(received: 5, reusable: false, behind: behind))
            #expect(
                close.end(behindWaiting: true)
                    == [.finishAnswered(truncated: false, leaveOpen: false)] + (behind ? [.releaseBehind] : []))
            #expect(close.state == .finished)
        }
        // An end with no answer begun is not one.
        for state: Machine.State in [.securing, .awaitingHead(behind: true), .kept, .finished] {
            var machine = Self.machine(state)
            #expect(machine.end(behindWaiting: true) == [], "\(state)")
            #expect(machine.state == state)
        }
    }

    @Test func aKeptConnectionCarriesTheNextRequestIfItIsStillOpen() {
        var open = Self.machine(.kept)
        #expect(open.send(active: true) == [.sendCurrent, .flush])
        #expect(open.state == .awaitingHead(behind: false))

        // The server closed it meanwhile: the next request fails as not sent (and goes on its own).
        var closedMeanwhile = Self.machine(.kept)
        #expect(closedMeanwhile.closed() == [], "closing a kept connection fails no request")
        #expect(closedMeanwhile.state == .kept)
        #expect(closedMeanwhile.send(active: false) == [.fail(.notSent)])
        #expect(closedMeanwhile.state == .finished)

        // Only a kept connection takes a request: on another, it fails at once as not sent
        // (never left to wait for its timeout), and the connection's state is unchanged.
        for state: Machine.State in [.securing, .awaitingHead(behind: false), .finished] {
            var machine = Self.machine(state)
            #expect(machine.send(active: true) == [.fail(.notSent)], "\(state)")
            #expect(machine.state == state)
        }
    }

    /// PathPairFetch.swift: "When no connection could be made (... a TLS failure: everything
    /// before a request is sent)" the current request fails before TLS; a failure after it
    /// names the phase; the request behind is released in every case.
    @Test func aFailureNamesWhereTheRequestWas() {
        let cases: [(Machine.State, Machine.Phase, Bool)] = [
            (.securing, .securing, false),
            (.awaitingHead(behind: false), .awaitingHead, false),
            (.awaitingHead(behind: true), .awaitingHead, true),
            (.readingBody(received: 42, reusable: true, behind: false), .readingBody(received: 42), false),
            (.readingBody(received: 7, reusable: false, behind: true), .readingBody(received: 7), true),
        ]
        #expect(cases.count == 5)
        for (state, phase, behind) in cases {
            var errored = Self.machine(state)
            #expect(errored.error(.other) == [.fail(phase)] + (behind ? [.releaseBehind] : []), "\(state)")
            #expect(errored.state == .finished)
            var closed = Self.machine(state)
            #expect(closed.closed() == [.fail(phase)] + (behind ? [.releaseBehind] : []), "\(state)")
            #expect(closed.state == .finished)
        }
        // After a request finished, errors and closing fail nothing more.
        for state: Machine.State in [.kept, .finished] {
            var machine = Self.machine(state)
            #expect(machine.error(.other) == [] && machine.closed() == [], "\(state)")
        }
    }

    /// A TLS close without close_notify once the answer began leaves the decision to the close
    /// (a close-delimited body ends there); before the answer, it is a failure.
    @Test func anUncleanTLSShutdownAfterTheHeadWaitsForTheClose() {
        var reading = Self.machine(.readingBody(received: 3, reusable: false, behind: false))
        #expect(reading.error(.uncleanShutdown) == [])
        #expect(reading.state == .readingBody(received: 3, reusable: false, behind: false))
        #expect(reading.end(behindWaiting: false) == [.finishAnswered(truncated: false, leaveOpen: false)])

        var waiting = Self.machine(.awaitingHead(behind: true))
        #expect(waiting.error(.uncleanShutdown) == [.fail(.awaitingHead), .releaseBehind])
        var securing = Self.machine(.securing)
        #expect(securing.error(.uncleanShutdown) == [.fail(.securing)])
    }

    /// The current request's timer finished it (and closes the connection): the request
    /// behind is released at once, and nothing later fails it twice.
    @Test func aTimeoutReleasesTheRequestBehind() {
        for (state, released) in [
            (Machine.State.securing, false), (.awaitingHead(behind: true), true), (.awaitingHead(behind: false), false),
            (.readingBody(received: 1, reusable: true, behind: true), true),
        ] {
            var machine = Self.machine(state)
            #expect(machine.currentTimedOut() == (released ? [.releaseBehind] : []), "\(state)")
            #expect(machine.state == .finished)
            #expect(machine.closed() == [] && machine.currentTimedOut() == [])
        }
        var kept = Self.machine(.kept)
        #expect(kept.currentTimedOut() == [])
        #expect(kept.state == .kept, "a kept connection's finished request has no timer left")
    }
}
