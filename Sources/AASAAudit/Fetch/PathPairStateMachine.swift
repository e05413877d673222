/// Where a domain's second path stands while its first is fetched
/// (``HTTPSFetcher/fetch(_:then:on:)``), as a value: events of the first request and of the
/// reuse wait in, actions out. The executor (`PathPairFetch.swift`) keeps the requests, the
/// timer and the promises, and only does what the actions say, so that every case of the
/// pair is tested without a socket (`PathPairStateMachineTests`).
///
///     waiting --connection offered--> pipelined (sent behind the first; none under --rate)
///        |                                |--its answer--> started (the answer, or its own connection when unanswered)
///        |                                +--reuse wait ended, the first not answering--> started (given up; own connection)
///        +--reuse wait ended, the first not answering--> started (own connection)
///        +--first finished--> started (on the kept connection / not requested / own connection)
struct PathPairStateMachine {
    enum State: Equatable {
        /// Waiting for the first's connection or answer.
        case waiting
        /// Sent behind the first on its connection.
        case pipelined
        /// On its own connection, on the first's kept connection, or settled.
        case started
    }

    enum Action: Equatable {
        /// Start the reuse wait (``HTTPSFetcher/reuseWait``).
        case startReuseWait
        /// Cancel the reuse wait.
        case cancelReuseWait
        /// Send the second request behind the first on its connection.
        case sendBehind
        /// The second's answer behind the first is its result (on its own connection when the
        /// connection closed before that answer began).
        case completeWithAnswerBehind
        /// Give up the request sent behind (its answer, if any, is ignored).
        case giveUpBehind
        /// Fetch the second on a connection of its own.
        case startOwnConnection
        /// Send the second on the connection the first left open.
        case sendOnKeptConnection
        /// The first never got a connection: the second needs the same one and is not requested.
        case notRequested
        /// Close the connection the first left open: the second does not need it.
        case closeKeptConnection
    }

    private(set) var state = State.waiting

    /// The first request's connection is up. Under `--rate` (`paced`) nothing goes behind it:
    /// the second waits for the first's answer and its own slot.
    mutating func connectionOffered(paced: Bool) -> [Action] {
        guard state == .waiting else { return [] }
        guard !paced else { return [.startReuseWait] }
        state = .pipelined
        return [.startReuseWait, .sendBehind]
    }

    /// The reuse wait ran out. While the first's answer is coming (`firstAnswering`), the second
    /// waits for it: the server is answering, and would answer a request sent behind next.
    mutating func reuseWaitEnded(firstAnswering: Bool) -> [Action] {
        guard !firstAnswering else { return [] }
        switch state {
        case .waiting:
            state = .started
            return [.startOwnConnection]
        case .pipelined:
            state = .started
            return [.giveUpBehind, .startOwnConnection]
        case .started:
            return []
        }
    }

    /// The answer to the request sent behind came (or it failed).
    mutating func answerBehindCame() -> [Action] {
        guard state == .pipelined else { return [] }  // given up on
        state = .started
        return [.completeWithAnswerBehind]
    }

    /// The first request finished: `kept` when its connection stays open for the next request,
    /// `failedBeforeConnection` when it failed before a connection was up (refused, timed out,
    /// a TLS failure: no request was sent).
    mutating func firstFinished(kept: Bool, failedBeforeConnection: Bool) -> [Action] {
        switch state {
        case .waiting:
            state = .started
            if kept { return [.cancelReuseWait, .sendOnKeptConnection] }
            if failedBeforeConnection { return [.cancelReuseWait, .notRequested] }
            return [.cancelReuseWait, .startOwnConnection]
        case .pipelined, .started:
            // Sent behind the first (answered next on its connection, or released by its handler
            // when the connection is not handed on), or already on its own.
            return kept ? [.cancelReuseWait, .closeKeptConnection] : [.cancelReuseWait]
        }
    }
}
