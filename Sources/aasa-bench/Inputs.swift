import Foundation

/// The benchmark's inputs, generated in a scratch directory: realistic AASA documents of about
/// 2 KB, one of about 128 KB, a matching file of 30 rules and a URL list.
enum Inputs {
    /// A team ID and bundle prefix for document `index`.
    private static func team(_ index: Int) -> String {
        let digits = String(index &* 2_654_435_761 % 0xF_FFFF_FFFF, radix: 16, uppercase: true)
        return "T" + String(repeating: "0", count: max(0, 9 - digits.count)) + digits.prefix(9)
    }

    /// One `applinks` detail entry with `components` rules, as a JSON object literal.
    private static func detail(team: String, app: String, index: Int, rules: Int) -> String {
        let templates = [
            #"{ "/": "/buy/*", "comment": "Purchases open the app" }"#,
            #"{ "/": "/buy/admin/*", "exclude": true, "comment": "Never the back office" }"#,
            #"{ "/": "/help/*", "?": { "lang": "??" } }"#,
            #"{ "/": "/product/???/*" }"#,
            ##"{ "/": "/deals/*", "#": "promo*" }"##,
            #"{ "/": "/account/*", "caseSensitive": false }"#,
            #"{ "/": "/orders/*/receipt" }"#,
            #"{ "/": "/search", "?": { "q": "*" } }"#,
            #"{ "/": "/cart" }"#,
            #"{ "/": "/wishlist/*", "percentEncoded": false }"#,
            #"{ "/": "/blog/*/comments", "comment": "Comments only" }"#,
            #"{ "/": "/store-\#(index)/*" }"#,
        ]
        let components = (0..<rules).map { "          " + templates[$0 % templates.count] }.joined(separator: ",\n")
        return """
                  {
                    "appIDs": ["\(team).com.example.\(app)", "\(team).com.example.\(app).beta"],
                    "components": [
            \(components)
                    ]
                  }
            """
    }

    /// A document of about `size` bytes (at least one detail entry).
    static func document(index: Int, size: Int) -> Data {
        let team = team(index)
        var details: [String] = []
        func render() -> String {
            """
            {
              "applinks": {
                "details": [
            \(details.joined(separator: ",\n"))
                ]
              },
              "webcredentials": {
                "apps": ["\(team).com.example.shop"]
              },
              "appclips": {
                "apps": ["\(team).com.example.shop.Clip"]
              }
            }

            """
        }
        var text = ""
        repeat {
            details.append(detail(team: team, app: "shop\(details.count)", index: index, rules: 11))
            text = render()
        } while text.utf8.count < size - 200
        return Data(text.utf8)
    }

    /// `count` documents of about 2 KB in `directory` (aasa-00001.json, …).
    static func writeDocuments(count: Int, to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for index in 1...count {
            try document(index: index, size: 2_048).write(to: directory.appendingPathComponent(name(index)))
        }
    }

    static func name(_ index: Int) -> String {
        let digits = String(index)
        return "aasa-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".json"
    }

    /// About 128 KB (under Apple's 131,072-byte limit, so it is linted fully).
    static func large() -> Data {
        var details: [String] = []
        let team = team(7)
        var data = Data()
        while true {
            details.append(detail(team: team, app: "app\(details.count)", index: details.count, rules: 12))
            let text = """
                {
                  "applinks": {
                    "details": [
                \(details.joined(separator: ",\n"))
                    ]
                  }
                }

                """
            if text.utf8.count > 127_000 { break }
            data = Data(text.utf8)
        }
        return data
    }

    /// The matching benchmark's file: three apps, 30 rules (components, a legacy `paths`
    /// entry with NOT, substitution variables, a query and a fragment condition).
    static let thirtyRules = Data(
        #"""
        {
          "applinks": {
            "substitutionVariables": {
              "lang": ["en", "fr", "de", "es", "it"]
            },
            "details": [
              {
                "appIDs": ["ABCDE12345.com.example.shop"],
                "components": [
                  { "/": "/buy/admin/*", "exclude": true },
                  { "/": "/buy/*" },
                  { "/": "/help/*", "?": { "lang": "??" } },
                  { "/": "/product/???/*" },
                  { "/": "/deals/*", "#": "promo*" },
                  { "/": "/account/*", "caseSensitive": false },
                  { "/": "/orders/*/receipt" },
                  { "/": "/search", "?": { "q": "*" } },
                  { "/": "/cart" },
                  { "/": "/wishlist/*" },
                  { "/": "/blog/*/comments" },
                  { "/": "/gift-cards/*" }
                ]
              },
              {
                "appID": "ABCDE12345.com.example.video",
                "paths": [
                  "NOT /video/private/*",
                  "/video/*",
                  "/live/*",
                  "/channel/*/videos",
                  "/watch",
                  "NOT /shorts/draft*",
                  "/shorts/*",
                  "/playlist/*",
                  "/embed/*",
                  "/clips/???"
                ]
              },
              {
                "appIDs": ["ABCDE12345.com.example.news", "ABCDE12345.com.example.news.beta"],
                "components": [
                  { "/": "/$(lang)/news/*" },
                  { "/": "/$(lang)/sport/*" },
                  { "/": "/$(lang)/weather", "?": { "city": "*" } },
                  { "/": "/newsletter/*", "exclude": true },
                  { "/": "/article/*/amp", "exclude": true },
                  { "/": "/article/*" },
                  { "/": "/live-blog/*", "#": "entry-*" },
                  { "/": "/tags/*" }
                ]
              }
            ]
          }
        }

        """#.utf8)

    /// `count` URLs for ``thirtyRules``, a deterministic mix of hits and misses.
    static func urls(count: Int) -> Data {
        let templates = [
            "https://example.com/buy/item-%d", "https://example.com/buy/admin/orders/%d",
            "https://example.com/help/faq?lang=en", "https://example.com/help/faq?lang=english",
            "https://example.com/product/abc/%d", "https://example.com/deals/summer#promo-%d",
            "https://example.com/ACCOUNT/Settings/%d", "https://example.com/orders/%d/receipt",
            "https://example.com/search?q=shoes+%d", "https://example.com/cart",
            "https://example.com/video/%d", "https://example.com/video/private/%d",
            "https://example.com/channel/c%d/videos", "https://example.com/shorts/draft-%d",
            "https://example.com/fr/news/%d", "https://example.com/de/weather?city=berlin",
            "https://example.com/article/%d/amp", "https://example.com/article/%d",
            "https://example.com/unknown/%d", "/live-blog/%d#entry-3", "/tags/swift?page=%d",
            "https://example.com/wishlist/%d%%20items",
        ]
        var text = ""
        text.reserveCapacity(count * 40)
        for index in 0..<count {
            let template = templates[(index &* 7 &+ index / 5) % templates.count]
            text += template.replacingOccurrences(of: "%d", with: String(index % 9_973)).replacingOccurrences(
                of: "%%", with: "%")
            text += "\n"
        }
        return Data(text.utf8)
    }
}
