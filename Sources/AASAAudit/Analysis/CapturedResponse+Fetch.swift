import AASA
import Foundation

extension CapturedResponse {
    /// The capture of `fetch`, the path iOS would use when `served`.
    init(_ fetch: FetchResult, served: Bool, tls: TLSObservation?) {
        let response = fetch.response
        self.init(
            url: fetch.target.url, served: served,
            statusLine: response.map(\.statusLine),
            headers: response.map { $0.headers.map { HeaderField(name: $0.name, value: $0.value) } } ?? [],
            body: served ? response?.body : nil, tlsChain: (fetch.tls ?? tls)?.certificates ?? [],
            failure: fetch.failure?.message)
    }
}

extension CapturedResponse.PathAnswer {
    /// What `fetch` answered, named `name`.
    init(_ fetch: FetchResult, name: String) {
        let response = fetch.response
        self.init(
            name: name, url: fetch.target.url, statusLine: response.map(\.statusLine),
            headers: response.map { $0.headers.map { .init(name: $0.name, value: $0.value) } } ?? [],
            body: response?.body, truncated: response?.truncated ?? false, failure: fetch.failure?.message)
    }
}
