import Foundation

/// An apple-app-site-association document, read leniently: every service Apple defines,
/// with wrong types and unknown keys recorded rather than fatal.
///
/// ```json
/// {
///   "applinks": { … },                 // universal links (see ``AppLinks``)
///   "webcredentials": { "apps": […] }, // shared web credentials
///   "activitycontinuation": { "apps": […] }, // Handoff
///   "appclips": { "apps": […] }        // App Clips (iOS 14+)
/// }
/// ```
public struct AASADocument: Sendable, Hashable {
    /// The JSON as parsed.
    public var root: JSONNode
    public var appLinks: AppLinks?
    public var webCredentials: AppList?
    public var activityContinuation: AppList?
    public var appClips: AppList?
    /// Top-level keys other than the four services.
    public var unknownTopLevelKeys: [UnknownKey]
    /// Keys below the top level that the format does not define.
    public var unknownKeys: [UnknownKey]
    /// Known keys whose values have the wrong type.
    public var typeMismatches: [TypeMismatch]

    /// The four services Apple defines, as they are spelled at the top level.
    public static let serviceKeys = ["applinks", "webcredentials", "activitycontinuation", "appclips"]

    /// Whether the top level is an object at all.
    public var rootIsObject: Bool { root.members != nil }

    /// Reads a document from parsed JSON. Never fails: problems are recorded.
    public init(root: JSONNode) {
        var builder = DocumentBuilder()
        self = builder.build(root)
    }

    /// Parses JSON text (a UTF-8 byte-order mark is skipped) into a document.
    /// - Throws: ``JSONSyntaxError`` when the text is not JSON.
    public init(json data: Data, parser: JSONParser = JSONParser()) throws {
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        self.init(root: try parser.parse(Data(body)))
    }

    init(
        root: JSONNode, appLinks: AppLinks?, webCredentials: AppList?, activityContinuation: AppList?,
        appClips: AppList?, unknownTopLevelKeys: [UnknownKey], unknownKeys: [UnknownKey], typeMismatches: [TypeMismatch]
    ) {
        self.root = root
        self.appLinks = appLinks
        self.webCredentials = webCredentials
        self.activityContinuation = activityContinuation
        self.appClips = appClips
        self.unknownTopLevelKeys = unknownTopLevelKeys
        self.unknownKeys = unknownKeys
        self.typeMismatches = typeMismatches
    }
}
